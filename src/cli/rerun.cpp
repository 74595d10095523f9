#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/workspace.h"
#include "core/numbering.h"
#include "run/process.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>
#include <unistd.h>

// `ej rerun RUN`: the same benchmark revision, parameters and code state as a recorded run, in a
// temporary linked worktree (which shares the journal), then compared with the original.
namespace ej::cli {

namespace {

struct RerunOptions {
  std::string run;
  std::string attempt;
  std::string on;
  std::optional<int> repeat;
  bool keep = false;
};

// A child: git or this ej, its output shown as it comes. Returns its exit code.
int run_visible(std::vector<std::string> argv, const std::filesystem::path& cwd)
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

std::string quiet_git(const std::vector<std::string>& args, const std::filesystem::path& cwd, int& code)
{
  run::ProcessSpec spec;
  spec.argv = {"git"};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.cwd = cwd;
  const auto result = run::run_process(spec);
  code = result.succeeded() ? 0 : 1;
  return result.err.head + result.out.head;
}

// The worktree goes at the end, whatever happened (unless --keep).
class TemporaryWorktree {
public:
  TemporaryWorktree(const Workspace& workspace, const std::string& commit, bool keep)
    : m_work_tree(workspace.work_tree), m_keep(keep)
  {
    m_dir = workspace.ej_dir / "rerun" / fmt::format("{}-{}", commit.substr(0, 12), ::getpid());
    std::filesystem::create_directories(m_dir.parent_path());
    int code = 0;
    const auto said = quiet_git({"worktree", "add", "--detach", m_dir.string(), commit}, m_work_tree, code);
    if (code != 0) {
      throw Error("cannot check out commit {} for the rerun ({}); is it still in the repository? (git fetch)",
                  commit.substr(0, 12), util::trim(said));
    }
  }
  ~TemporaryWorktree()
  {
    if (m_keep) {
      return;
    }
    int code = 0;
    quiet_git({"worktree", "remove", "--force", m_dir.string()}, m_work_tree, code);
  }
  TemporaryWorktree(const TemporaryWorktree&) = delete;
  TemporaryWorktree& operator=(const TemporaryWorktree&) = delete;
  const std::filesystem::path& dir() const { return m_dir; }

private:
  std::filesystem::path m_work_tree;
  std::filesystem::path m_dir;
  bool m_keep;
};

// The stored diff without ej's comment lines and submodule sections: what git apply takes.
std::string applicable(const std::string& patch, bool& has_submodules)
{
  std::istringstream lines(patch);
  std::string out;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("# submodule ", 0) == 0) {
      has_submodules = true;
      break;
    }
    if (line.rfind("# ", 0) != 0 && line != "#") {
      out += line + "\n";
    }
  }
  return out;
}

void run_rerun(const RerunOptions& options)
{
  const auto workspace = locate_workspace();
  auto journal = open_journal(workspace);
  const int number = parse_run_number(options.run);
  const auto original = store::find_run(journal.db(), number);
  if (!original) {
    throw Error("there is no run {}; see 'ej runs'", core::number_label(number));
  }
  if (original->status == "imported") {
    throw Error("run {} was imported ({}), not measured by ej: there is nothing to run again",
                core::number_label(number), original->source);
  }
  if (original->git.commit.empty()) {
    throw Error("run {} recorded no commit: its code state cannot be restored", core::number_label(number));
  }
  std::string patch;
  bool has_submodules = false;
  if (original->git.dirty && !original->git.diff_blob.empty()) {
    const auto blob = journal.blob(original->git.diff_blob);
    if (!blob) {
      throw Error("the stored diff of run {} is missing from the journal (run 'ej sync', or 'ej fsck')",
                  core::number_label(number));
    }
    patch = applicable(*blob, has_submodules);
  }
  const TemporaryWorktree worktree(workspace, original->git.commit, options.keep);
  if (patch.find_first_not_of(" \n") != std::string::npos) {
    const auto patch_file = worktree.dir().parent_path() / (worktree.dir().filename().string() + ".patch");
    util::write_file_atomic(patch_file, patch);
    int code = 0;
    const auto said = quiet_git({"apply", "--binary", "--whitespace=nowarn", patch_file.string()}, worktree.dir(), code);
    std::filesystem::remove(patch_file);
    if (code != 0) {
      throw Error("the stored diff of run {} does not apply to commit {} ({}): its code state cannot be restored",
                  core::number_label(number), original->git.commit.substr(0, 12), util::trim(said));
    }
  }
  if (has_submodules) {
    fmt::print(stderr, "ej: note: the changes inside submodules that run {} recorded are not restored\n",
               core::number_label(number));
  }
  fmt::print(stderr, "ej: rerun of run {} ({} r{}) at {} in {}\n", core::number_label(number), original->bench,
             original->revision, core::describe(original->git), worktree.dir().string());

  const auto self = std::filesystem::read_symlink("/proc/self/exe").string();
  std::vector<std::string> argv = {self, "run", original->bench, "--revision", std::to_string(original->revision),
                                   "--label", fmt::format("rerun of run {}", core::number_label(number))};
  for (const auto& [axis, values] : original->params.items()) {
    std::vector<std::string> list;
    for (const auto& value : values) {
      list.push_back(value.is_string() ? value.get<std::string>() : value.dump());
    }
    argv.push_back("--param");
    argv.push_back(axis + "=" + util::join(list, ","));
  }
  const auto attempt = !options.attempt.empty() ? options.attempt
                       : original->attempt     ? core::number_label(*original->attempt)
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
  const int code = run_visible(argv, worktree.dir());
  const auto runs = store::list_runs(journal.db(), store::RunFilter{});
  int rerun = 0; // the newest run of that label: in a clone with a remote, a provisional number
  std::int64_t started = 0;
  for (const auto& run : runs) {
    if (run.label == fmt::format("rerun of run {}", core::number_label(number)) && run.started_ms >= started) {
      rerun = run.number;
      started = run.started_ms;
    }
  }
  if (code != 0 || rerun == 0) {
    throw Error("the rerun of run {} did not finish (exit {}); nothing to compare", core::number_label(number), code);
  }
  fmt::print("\n");
  run_visible({self, "compare", fmt::format("r{}", number), fmt::format("r{}", rerun)}, workspace.work_tree);
  if (options.keep) {
    fmt::print("the worktree is kept: {} (remove it with git worktree remove)\n", worktree.dir().string());
  }
}

} // namespace

void register_rerun(CLI::App& app)
{
  auto options = std::make_shared<RerunOptions>();
  auto* command = app.add_subcommand("rerun", "Run a recorded run again on its exact code, and compare the two");
  command->footer(R"(Checks out the run's commit into a temporary linked worktree (sharing the journal), applies its
stored diff and untracked files, builds it with the benchmark's build step, runs the same revision
with the same parameters, and compares the new run with the original. Your work tree is never
touched. Environment overrides given to the original with --env are not recorded: give them to
the benchmark's definition instead.

Examples:
  ej rerun r5                 # run #5 again, compared with it
  ej rerun r5 --repeat 30 --keep)");
  command->add_option("run", options->run, "The run (r5, run:5 or 5)")->required();
  command->add_option("--attempt", options->attempt, "Record the rerun for this attempt (default: the original's)");
  command->add_option("--on", options->on, "Where to run it (a host, ssh:HOST, slurm)");
  command->add_option("--repeat", options->repeat, "Repeats per combination");
  command->add_flag("--keep", options->keep, "Keep the worktree afterwards");
  command->callback([options] { run_rerun(*options); });
}

} // namespace ej::cli
