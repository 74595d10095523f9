#include "cli/arguments.h"
#include "cli/commands.h"
#include "core/numbering.h"
#include "core/redact.h"
#include "measuring/code_restore.h"
#include "measuring/rerun_worktree.h"
#include "measuring/workspace.h"
#include "run/process.h"
#include "run/signals.h"
#include "store/events.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/strings.h"
#include "util/time.h"
#include "util/ulid.h"

#include <fmt/format.h>

#include <cstdlib>
#include <cstring>

// `ej rerun RUN`: the same benchmark revision, parameters, --env overrides and code state as a
// recorded run, in a temporary linked worktree (which shares the journal), then compared with the
// original.
namespace ej::cli {

namespace {

struct RerunOptions {
  std::string run;
  std::string attempt;
  std::string on;
  std::optional<int> repeat;
  bool keep = false;
  bool allow_incomplete = false;
};

// A child: this ej again, its output shown as it comes. Returns its exit code.
int run_child_ej(std::vector<std::string> argv, const std::filesystem::path& cwd)
{
  run::ProcessSpec spec;
  spec.argv = std::move(argv);
  spec.cwd = cwd;
  spec.echo = true;
  const auto result = run::run_process(spec);
  if (result.ending == run::Ending::SpawnFailed) {
    throw Error("cannot run {}: {}", spec.argv.front(), result.error);
  }
  return result.ending == run::Ending::Exited ? result.exit_code : 128 + result.signal;
}

// How a run is named to another ej command: r5, or r@k3f9qx before it has a number.
std::string run_argument(int number)
{
  return core::is_provisional(number) ? "r" + core::number_label(number) : fmt::format("r{}", number);
}

// The original's --env overrides, for the rerun's command line. A secret's value is not in the
// journal: the rerun takes it from its own environment (--env NAME), and refuses without it.
std::vector<std::string> env_arguments(const store::events::RunStarted& original, const std::string& name)
{
  std::vector<std::string> out;
  for (const auto& [variable, value] : original.env) {
    out.push_back("--env");
    if (value.find(core::k_redacted) == std::string::npos) {
      out.push_back(variable + "=" + value);
      continue;
    }
    if (std::getenv(variable.c_str()) == nullptr) {
      throw Error("{} was run with --env {}=..., whose value the journal does not keep (it is a secret): "
                  "export {} and run 'ej rerun' again",
                  name, variable, variable);
    }
    out.push_back(variable); // its value from this ej's environment, never on a command line
  }
  return out;
}

[[noreturn]] void end_interrupted()
{
  fmt::print(stderr, "ej: rerun interrupted by SIG{}; its worktree is removed\n",
             ::sigabbrev_np(run::InterruptGuard::signal_number()));
  throw ExitCode{128 + run::InterruptGuard::signal_number()};
}

void run_rerun(const RerunOptions& options)
{
  const auto workspace = measuring::locate_workspace();
  auto journal = open_journal(workspace); // also removes the worktrees of reruns that were killed
  const int number = parse_run_number(options.run);
  const auto original = store::find_run(journal.db(), number);
  if (!original) {
    throw Error("there is no run {}; see 'ej runs'", core::number_label(number));
  }
  const auto name = "run " + core::number_label(original->number);
  if (original->status == core::RunStatus::Imported) {
    throw Error("{} was imported ({}), not measured by ej: there is nothing to run again", name,
                original->source);
  }
  if (original->git.commit.empty()) {
    throw Error("{} recorded no commit: its code state cannot be restored", name);
  }
  const auto payload = store::run_started_payload(journal.db(), original->id);
  if (!payload) {
    throw Error("the run.started event of {} is missing from the journal; run 'ej fsck'", name);
  }
  store::Event event;
  event.type = std::string(store::events::RunStarted::type);
  event.payload = *payload;
  const auto started = store::events::RunStarted::read(event);

  const auto recorded = measuring::recorded_code(journal, workspace, original->id, original->git, name);
  measuring::check_complete(recorded, name, options.allow_incomplete);
  const auto self = std::filesystem::read_symlink("/proc/self/exe").string();
  const auto label = fmt::format("rerun of {}", name);
  std::vector<std::string> argv = {
      self, "run", original->bench, "--revision", std::to_string(original->revision), "--label", label};
  for (const auto& [axis, values] : original->params.items()) {
    std::vector<std::string> list;
    for (const auto& value : values) {
      list.push_back(value.is_string() ? value.get<std::string>() : value.dump());
    }
    argv.push_back("--param");
    argv.push_back(axis + "=" + util::join(list, ","));
  }
  const auto env = env_arguments(started, name);
  argv.insert(argv.end(), env.begin(), env.end());
  const auto attempt = !options.attempt.empty() ? options.attempt
                       : original->attempt      ? core::number_label(*original->attempt)
                                                : std::string();
  if (!attempt.empty()) {
    argv.insert(argv.end(), {"--attempt", attempt});
  }
  if (options.repeat) {
    argv.insert(argv.end(), {"--repeat", std::to_string(*options.repeat)});
  }
  if (!options.on.empty()) {
    argv.insert(argv.end(), {"--on", options.on});
  }
  // Named before it is recorded: found by its id afterwards, whatever number it gets meanwhile.
  const auto rerun_id = util::make_ulid(util::now_ms());
  argv.insert(argv.end(), {"--run-id", rerun_id});

  // From here on a signal ends the rerun (and the run it started) with its worktree removed.
  run::InterruptGuard interrupt_guard;
  measuring::RerunWorktree worktree(workspace, original->git.commit);
  const auto restored = measuring::restore_recorded(journal, workspace, recorded, worktree.dir());
  if (run::InterruptGuard::interrupted()) {
    end_interrupted();
  }
  worktree.files_written();
  if (options.keep) {
    worktree.keep();
  }
  if (restored.submodules_skipped) {
    fmt::print(stderr, "ej: note: the changes inside submodules that {} recorded are not restored\n", name);
  }
  fmt::print(stderr, "ej: rerun of {} ({} r{}) at {} in {}\n", name, original->bench, original->revision,
             core::describe(original->git), worktree.dir().string());

  const int code = run_child_ej(argv, worktree.dir());
  if (run::InterruptGuard::interrupted()) {
    end_interrupted();
  }
  const int rerun = store::number_of_run(journal.db(), rerun_id);
  if (code != 0 || rerun == 0) {
    throw Error("the rerun of {} did not finish (exit {}); nothing to compare", name, code);
  }
  fmt::print("\n");
  run_child_ej({self, "compare", run_argument(original->number), run_argument(rerun)}, workspace.work_tree);
  if (!recorded.unavailable.empty()) {
    fmt::print(
        "the code differs: the rerun ran without {} untracked file(s) that {} had and did not store: {}\n",
        recorded.unavailable.size(), name, core::describe_files(recorded.unavailable));
  }
  if (options.keep) {
    fmt::print("the worktree is kept: {} (remove it with git worktree remove)\n", worktree.dir().string());
  }
}

} // namespace

void register_rerun(CLI::App& app)
{
  auto options = std::make_shared<RerunOptions>();
  auto* command =
      app.add_subcommand("rerun", "Run a recorded run again on its exact code, and compare the two");
  command->footer(
      R"(Checks out the run's commit into a temporary linked worktree (sharing the journal), writes its
stored diff and untracked files there (every path inside the worktree), builds it with the
benchmark's build step, runs the same revision with the same parameters and --env overrides, and
compares the new run with the original. Your work tree is never touched; the worktree is removed
when the rerun ends, also on Ctrl-C or SIGTERM (one left by a killed rerun goes the next time ej
opens the journal). A secret --env value is not in the journal: export the variable first. A code
state whose large untracked files were not stored is refused unless the work tree has them with
the same bytes, or --allow-incomplete.

Examples:
  ej rerun r5                 # run #5 again, compared with it
  ej rerun r5 --repeat 30 --keep)");
  command->add_option("run", options->run, "The run (r5, run:5, 5 or @k3f9qx)")->required();
  command->add_option("--attempt", options->attempt,
                      "Record the rerun for this attempt (default: the original's)");
  command->add_option("--on", options->on, "Where to run it (a host, ssh:HOST, slurm)");
  command->add_option("--repeat", options->repeat, "Repeats per combination");
  command->add_flag("--keep", options->keep, "Keep the worktree afterwards");
  command->add_flag("--allow-incomplete", options->allow_incomplete,
                    "Run a code state whose large untracked files were not stored, without them");
  command->callback([options] { run_rerun(*options); });
}

} // namespace ej::cli
