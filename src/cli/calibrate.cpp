#include "cli/commands.h"
#include "cli/output.h"
#include "cli/run_progress.h"
#include "core/numbering.h"
#include "evidence/calibration.h"
#include "measuring/detach.h"
#include "measuring/interleaved_run.h"
#include "measuring/workspace.h"
#include "run/signals.h"
#include "store/interleaved_queries.h"
#include "util/error.h"
#include "util/term.h"
#include "util/ulid.h"

#include <fmt/format.h>

#include <unistd.h>

// `ej calibrate BENCH`: the benchmark measured against itself, interleaved (A/A), to learn how
// noisy this machine is for it and how small a change a verdict could see (docs/statistics.md).
namespace ej::cli {

namespace {

struct CalibrateOptions {
  std::string bench;
  int rounds = 20;
  int block = 1;
  std::optional<std::uint64_t> seed;
  std::string gpus;
  std::string run_id; // chosen by the starter of a detached calibration (the MCP calibrate tool)
  bool quiet = false;
  bool json = false;
};

void run_calibrate(const CalibrateOptions& options)
{
  if (options.rounds < 2) {
    throw UsageError("--rounds must be at least 2: a spread needs two rounds (20 or more give a useful one)");
  }
  if (!options.run_id.empty() && !util::is_ulid(options.run_id)) {
    throw UsageError("--run-id '{}' is not a ULID (26 characters, as ej makes them)", options.run_id);
  }
  const auto workspace = measuring::locate_workspace();
  auto detached = measuring::DetachedReport::from_environment(); // set when started in the background
  auto journal = open_journal(workspace);
  measuring::InterleavedRequest request;
  request.candidate.bench = options.bench;
  request.candidate.gpus = options.gpus;
  request.candidate.label = "calibration";
  const bool terminal = util::is_terminal(STDERR_FILENO);
  request.candidate.repeats.progress = terminal && !options.quiet && !options.json;
  request.candidate.repeats.echo = !terminal && !options.quiet && !options.json;
  request.candidate.repeats.echo_build = !options.quiet && !options.json;
  request.reference = request.candidate;
  request.candidate.run_id = options.run_id; // the run a detached starter names; the other gets its own
  request.reference_name = "itself (calibration)";
  request.rounds = options.rounds;
  request.block = options.block;
  request.seed = options.seed;
  request.purpose = "calibration";

  run::InterruptGuard interrupt_guard;
  RunProgress progress(request.candidate.repeats.progress);
  // Both sides are the work tree as it is: one code state, so every difference is the machine's.
  measuring::InterleavedSession session(journal, workspace, workspace, request, progress);
  // The command line is checked: a detached starter returns here, and ej wait follows the rest.
  detached.accepted(workspace, options.run_id);
  const auto code = read_code_state(workspace);
  const auto result = session.run(code, code, numbers_from_remote(workspace), detached);
  if (run::InterruptGuard::signal_number() != 0) {
    throw Error("calibration of {} interrupted; runs {} and {} keep what they measured", options.bench,
                core::number_label(result.candidate.run), core::number_label(result.reference.run));
  }
  for (const auto* side : {&result.candidate, &result.reference}) {
    if (side->status != core::RunStatus::Finished) {
      throw Error("run {} {}: {}", core::number_label(side->run), core::to_string(side->status),
                  side->reason);
    }
  }
  const auto record = store::interleaved_comparison_of(journal.db(), result.candidate.run);
  const auto calibration = record ? evidence::read_calibration(journal.db(), *record) : std::nullopt;
  if (!calibration) {
    throw Error("runs {} and {} paired no value of {}'s primary metric: nothing to calibrate with; check the "
                "benchmark with 'ej bench test {}'",
                core::number_label(result.candidate.run), core::number_label(result.reference.run),
                options.bench, options.bench);
  }
  if (options.json) {
    print_json(evidence::to_json(*calibration));
    return;
  }
  for (const auto& line : evidence::calibration_lines(*calibration)) {
    fmt::print("{}\n", line);
  }
}

} // namespace

void register_calibrate(CLI::App& app)
{
  auto options = std::make_shared<CalibrateOptions>();
  auto* command =
      app.add_subcommand("calibrate", "Measure a benchmark against itself to learn this machine's noise");
  command->footer(
      R"(Runs the benchmark interleaved against itself (A/A: the work tree on both sides, in rounds of
one repeat of each side in a random order, as 'ej run --against' does) and says how noisy the
paired rounds and the single runs are, how far the level drifted during the session, and the
smallest change a verdict could detect with 80% power: interleaved at 10, 20 and 50 rounds, and
sequential at as many repeats a side. Both runs and the session are recorded; 'ej bench show'
prints the newest calibration, a verdict says what it could have detected, and 'ej judge' will
not propose adopting or rejecting on a sequential verdict whose change the calibrated drift
exceeds. Calibrate again when the machine, the driver or the benchmark changes.

Examples:
  ej calibrate decode                  # 20 rounds
  ej calibrate decode --rounds 50      # a finer estimate of the noise
  ej calibrate decode --json)");
  command->add_option("bench", options->bench, "The benchmark")->required();
  command->add_option("--rounds", options->rounds, "Rounds of one repeat a side (default 20)");
  command->add_option("--block", options->block, "Repeats of each side per round (default 1)");
  command->add_option("--seed", options->seed, "Replay the order of a recorded seed");
  command->add_option("--gpus", options->gpus, "GPUs, as CUDA_VISIBLE_DEVICES takes them");
  command->add_flag("--quiet,-q", options->quiet, "Hide the benchmark's output");
  command->add_flag("--json", options->json, "The calibration as JSON");
  command->add_option("--run-id", options->run_id)->group(""); // a detached calibration's, as ej run's
  command->callback([options] { run_calibrate(*options); });
}

} // namespace ej::cli
