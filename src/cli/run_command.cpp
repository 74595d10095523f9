#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/run_against.h"
#include "cli/run_progress.h"
#include "cli/slurm_option.h"
#include "cli/run_summary_output.h"
#include "core/numbering.h"
#include "core/param_range.h"
#include "measuring/detach.h"
#include "measuring/run_benchmark.h"
#include "measuring/workspace.h"
#include "run/signals.h"
#include "util/error.h"
#include "util/term.h"
#include "util/ulid.h"

#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <unistd.h>

// `ej run NAME`: runs a registered benchmark and records everything about it.
namespace ej::cli {

namespace {

// Options taken as given go straight into the request; the others are parsed into it.
struct RunOptions {
  measuring::RunRequest request; // bench, --revision, --repeat, --warmup, --prepare, --gpus, --no-wait,
                                 // --on, --no-build, --gpu-sample-ms, --lock-clocks, --run-id
  std::string attempt;
  std::vector<std::string> params;
  std::vector<std::string> env;
  std::string label;
  bool quiet = false;
  bool show_output = false;
  bool detach = false;
  std::vector<std::string> slurm_args; // passed to sbatch
  std::vector<std::string> lock_mhz;   // the value of --lock-clocks, when given one
  std::string keep_untracked;          // --keep-untracked-up-to SIZE
  // --against REF and the options of its rounds (cli/run_against.h)
  std::string against;
  int block = 1;
  std::optional<std::uint64_t> seed;
  bool until_decisive = false;
  std::optional<int> max_rounds;
  std::string budget;
};

// --against: both sides measured by one ej (here, or detached), on this machine, an ssh host or in
// one Slurm job.
void check_against(const RunOptions& options)
{
  if (options.against.empty()) {
    if (options.block != 1 || options.seed || options.until_decisive || options.max_rounds ||
        !options.budget.empty()) {
      throw UsageError("--block, --seed, --until-decisive, --max-rounds and --budget go with --against REF");
    }
    return;
  }
  if (options.request.revision) {
    throw UsageError("--revision does not go with --against: both sides run the benchmark's latest revision");
  }
}

// NAME=VALUE, or NAME alone for the value ej's own environment has (what ej rerun gives for a
// secret whose value the journal does not keep).
std::vector<std::pair<std::string, std::string>> parse_env(const std::vector<std::string>& options)
{
  std::vector<std::pair<std::string, std::string>> env;
  for (const auto& option : options) {
    const auto equals = option.find('=');
    if (equals == 0 || option.empty()) {
      throw UsageError("--env '{}' must look like NAME=VALUE (or NAME, for the value of ej's environment)",
                       option);
    }
    if (equals == std::string::npos) {
      const char* value = std::getenv(option.c_str());
      if (value == nullptr) {
        throw UsageError("--env {} takes the value of {} in ej's environment, where it is not set: export it "
                         "first, or give --env {}=VALUE",
                         option, option, option);
      }
      env.emplace_back(option, value);
      continue;
    }
    env.emplace_back(option.substr(0, equals), option.substr(equals + 1));
  }
  return env;
}

// On a terminal, hyperfine's convention: a progress line, the benchmark's output hidden unless
// --show-output (which shows it instead of the line). Elsewhere (a pipe, a file, --detach's log)
// the output passes through unless --quiet, and there is no progress line.
void choose_output(const RunOptions& options, measuring::RunRequest& request)
{
  if (options.show_output && options.quiet) {
    throw UsageError("--show-output and --quiet contradict each other; give one");
  }
  const bool terminal = util::is_terminal(STDERR_FILENO);
  request.repeats.progress = terminal && !options.quiet && !options.show_output;
  request.repeats.echo = options.show_output || (!terminal && !options.quiet);
  request.repeats.echo_build = !options.quiet;
}

measuring::RunRequest run_request(const RunOptions& options)
{
  auto request = options.request;
  if (!options.attempt.empty()) {
    request.attempt = parse_attempt_number(options.attempt);
  }
  request.params = param_choices(options.params);
  request.env = parse_env(options.env);
  request.label = checked_text(options.label, "label");
  request.slurm = slurm_target(options.request.on, options.slurm_args);
  choose_output(options, request);
  return request;
}

// --detach: this command line again, in the background; its error is this one's.
void start_detached(const measuring::Workspace& workspace)
{
  const auto started = measuring::start_detached_run(workspace);
  if (!started.accepted) {
    fmt::print(stderr, "{}", started.said);
    throw ExitCode{started.exit_code};
  }
  fmt::print("run {} started in the background (pid {})\n", started.name, started.pid);
  fmt::print(
      stderr,
      "ej: it reads the code state and the environment, then runs; its output goes to {}\nej: follow "
      "it with 'ej show run {} --follow', wait for it with 'ej wait {}', stop it with 'ej cancel {}'\n",
      started.log.string(), started.name, started.name, started.name);
}

void run_benchmark(const RunOptions& options)
{
  check_against(options);
  const auto workspace = measuring::locate_workspace();
  if (options.detach) {
    start_detached(workspace);
    return;
  }
  auto detached = measuring::DetachedReport::from_environment(); // set when this ej is that background one
  if (!options.request.run_id.empty() && !util::is_ulid(options.request.run_id)) {
    throw UsageError("--run-id '{}' is not a ULID (26 characters, as ej makes them)", options.request.run_id);
  }
  if (!options.against.empty()) {
    measuring::InterleavedRequest interleaved;
    interleaved.candidate = run_request(options);
    interleaved.rounds = options.request.repeats.count;
    interleaved.block = options.block;
    interleaved.seed = options.seed;
    interleaved.until_decisive = options.until_decisive;
    interleaved.max_rounds = options.max_rounds;
    run_against(workspace,
                {options.against, options.attempt, options.budget,
                 options.keep_untracked.empty() ? 0 : parse_keep_untracked(options.keep_untracked)},
                std::move(interleaved), detached);
    return;
  }
  auto journal = open_journal(workspace);
  const auto request = run_request(options);
  RunProgress progress(request.repeats.progress);
  measuring::RunSession session(journal, workspace, request, progress);
  const auto keep_untracked =
      options.keep_untracked.empty() ? 0 : parse_keep_untracked(options.keep_untracked);
  // What takes seconds comes next (the code state read and shipped, the environment captured): a
  // detached run's starter returns here, and ej wait reports what fails from now on.
  detached.accepted(workspace, options.request.run_id);
  const auto code_state = read_code_state(workspace, keep_untracked); // outside the write lock
  const auto result = session.run(code_state, numbers_from_remote(workspace), detached);

  // Interrupted by a signal to ej: exit as a signal would; by something else (a Slurm job cancelled
  // outside ej): an error like any other ending.
  if (result.status == core::RunStatus::Interrupted && run::InterruptGuard::signal_number() != 0) {
    const int signal = run::InterruptGuard::signal_number();
    // After SIGHUP or SIGPIPE ej's output may be gone: the run is recorded, saying so is a bonus.
    try {
      print_run_summary(journal, result.run);
    } catch (const std::exception&) {
    }
    try {
      fmt::print(stderr, "ej: run {} interrupted by SIG{}; the repeats measured before it are kept\n",
                 core::number_label(result.run), ::sigabbrev_np(signal));
    } catch (const std::exception&) {
    }
    throw ExitCode{128 + signal};
  }
  print_run_summary(journal, result.run);
  if (result.status != core::RunStatus::Finished) {
    throw Error("run {} {}: {}", core::number_label(result.run), core::to_string(result.status),
                result.reason);
  }
}

} // namespace

void register_run(CLI::App& app)
{
  auto options = std::make_shared<RunOptions>();
  auto* command = app.add_subcommand("run", "Run a registered benchmark, repeatedly, and record everything");
  // Not required by CLI11: `ej run withdraw RUN` names none (checked below).
  command->add_option("bench", options->request.bench, "Benchmark name");
  register_run_withdraw(*command);
  command->add_option("--attempt", options->attempt,
                      "The attempt these results belong to; with --against, the candidate is this attempt's "
                      "recorded code (restored when the work tree holds other code)");
  command->add_option("--param", options->params,
                      "AXIS=V1,V2,... or MIN..MAX[:STEP]: run only these values (repeatable)");
  command->add_option("--repeat", options->request.repeats.count,
                      "Repeats per combination (overrides the benchmark's policy)");
  command->add_option("--env", options->env,
                      "NAME=VALUE for this run (repeatable), or NAME for the value in ej's environment; kept "
                      "with the run for 'ej rerun', a secret-named one redacted everywhere in the record");
  command->add_option("--label", options->label, "A note that names this run");
  command->add_option(
      "--revision", options->request.revision,
      "Run this earlier revision of the benchmark (what 'ej rerun' does); default: the latest");
  command->add_option("--warmup", options->request.repeats.warmups,
                      "Unmeasured runs before the repeats of each combination (overrides the benchmark's)");
  command->add_option("--prepare", options->request.repeats.prepare,
                      "A shell command run before each repeat and warmup, not timed (hyperfine's --prepare), "
                      "e.g. 'sync; echo 3 > /proc/sys/vm/drop_caches'");
  command->add_flag(
      "--show-output", options->show_output,
      "Show the benchmark's output live on a terminal (hidden there by default, behind the progress "
      "line); it is always kept in the run's capture");
  command->add_flag("--quiet", options->quiet,
                    "No progress line and no benchmark output live (a pipe gets the output by default)");
  command->add_option("--gpus", options->request.gpus,
                      "GPUs to use, as CUDA_VISIBLE_DEVICES takes them (0,1); the run waits until no other "
                      "ej run of this machine uses them");
  command->add_flag("--no-wait", options->request.no_wait,
                    "Fail at once when the GPUs are taken, instead of queueing");
  command->add_flag("--detach", options->detach,
                    "Run in the background (its own session; output in the journal's runs/ folder) and "
                    "return at once with the run's name (run @k3f9qx); 'ej wait' reports how it ends");
  command->add_option("--slurm-arg", options->slurm_args,
                      "An sbatch option for --on slurm, as given (repeatable): --slurm-arg=--gres=gpu:8");
  command->add_option(
      "--on", options->request.on,
      "Run on ssh:HOST, a host added with 'ej host add', slurm[:PARTITION], or "
      "slurm@HOST[:PARTITION] through a login host (default: the benchmark's --on, else here; "
      "'local': here)");
  command->add_flag("--no-build", options->request.no_build, "Skip the benchmark's build step");
  command->add_option(
      "--against", options->against,
      "Measure the work tree against REF in the same session, interleaved: 'baseline' (the plan's), a run "
      "(r5), an attempt (#12) or a git revision (HEAD~1); REF's code is restored in a temporary worktree and "
      "built; --repeat rounds of one repeat a side in a random order per round; judged on the pairs. Here, "
      "on the host --on names (both code states shipped), or with --on slurm[:PARTITION] (or slurm@HOST) "
      "in one Slurm job for both sides. e.g. ej run matmul --against HEAD~1 --repeat 20");
  command->add_option("--block", options->block, "With --against: repeats of each side per round (default 1)")
      ->check(CLI::PositiveNumber);
  command->add_option(
      "--seed", options->seed,
      "With --against: the seed the rounds' order is drawn from (recorded; give a recorded one "
      "to replay its order)");
  command->add_flag("--until-decisive", options->until_decisive,
                    "With --against: stop once the verdict is decisive (improved, regressed, or equivalent "
                    "within the benchmark's --min-effect); its false-verdict rate of 5% holds for the "
                    "--max-rounds fixed before the first round, e.g. --until-decisive --max-rounds 200");
  command->add_option(
      "--max-rounds", options->max_rounds,
      "With --until-decisive: the most rounds (default 100), the plan its guarantee holds for");
  command->add_option(
      "--budget", options->budget,
      "With --until-decisive: stop (inconclusive) once this much time is spent: 90s, 15m, 2h");
  // The id of its run.started event, chosen by whoever starts it and names it before it is
  // recorded (ej run --detach, ej rerun): not for people.
  command->add_option("--run-id", options->request.run_id)->group("");
  command->add_option("--keep-untracked-up-to", options->keep_untracked,
                      "Store untracked files up to SIZE whole with the run's code state, each once by its "
                      "hash, where the diff keeps only those up to 1 MiB (e.g. --keep-untracked-up-to 200M)");
  command
      ->add_option("--gpu-sample-ms", options->request.devices.sample_ms,
                   "Read the GPUs' clocks, power, temperature and throttle reasons every MS during each "
                   "repeat (default 50; 0: not at all)")
      ->check(CLI::NonNegativeNumber);
  auto* lock = command
                   ->add_option("--lock-clocks", options->lock_mhz,
                                "Lock the GPUs' SM clocks for the run at SM_MHZ (default: the base clock); "
                                "needs root; reset when the run ends, also on Ctrl-C")
                   ->expected(0, 1);
  command->callback([command, options, lock] {
    if (command->got_subcommand("withdraw")) {
      return;
    }
    if (options->request.bench.empty()) {
      throw UsageError(
          "'ej run' needs BENCH (Benchmark name): ej run BENCH [--attempt ID] [OPTIONS], see 'ej "
          "bench list'; or 'ej run withdraw RUN --reason R' to withdraw a run");
    }
    options->request.devices.lock_clocks = lock->count() > 0;
    if (!options->lock_mhz.empty() && !options->lock_mhz.front().empty()) { // CLI11 gives "" for no value
      try {
        options->request.devices.lock_mhz = std::stoi(options->lock_mhz.front());
      } catch (const std::exception&) {
        throw UsageError("--lock-clocks takes an SM clock in MHz (1500), or nothing for the base clock");
      }
      if (*options->request.devices.lock_mhz <= 0) {
        throw UsageError("--lock-clocks takes an SM clock in MHz (1500), or nothing for the base clock");
      }
    }
    run_benchmark(*options);
  });
}

} // namespace ej::cli
