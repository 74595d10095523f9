#include "cli/run_against.h"

#include "cli/run_progress.h"
#include "cli/run_summary_output.h"
#include "core/numbering.h"
#include "evidence/against_reference.h"
#include "evidence/interleaved_verdict.h"
#include "measuring/interleaved_against.h"
#include "measuring/workspace.h"
#include "run/signals.h"
#include "store/interleaved_queries.h"
#include "util/error.h"

#include <fmt/format.h>

#include <cstring>

namespace ej::cli {

namespace {

// The verdict of the comparison the session wrote, printed like ej compare prints it.
void print_verdict(store::Journal& journal, int candidate_run)
{
  const auto record = store::interleaved_comparison_of(journal.db(), candidate_run);
  if (!record) {
    return;
  }
  const auto verdict = evidence::judge_interleaved(journal.db(), *record, evidence::ReadCalibration::Always);
  fmt::print("\n");
  for (const auto& line : evidence::interleaved_report(verdict)) {
    fmt::print("{}\n", line);
  }
}

} // namespace

double parse_budget(const std::string& text)
{
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  const auto unit = text.substr(used);
  const double scale = unit.empty() || unit == "s" ? 1 : unit == "m" ? 60 : unit == "h" ? 3600 : 0;
  if (used == 0 || scale == 0 || !(value > 0)) {
    throw UsageError("--budget '{}' must be a duration: 90, 90s, 15m or 2h", text);
  }
  return value * scale;
}

void run_against(const measuring::Workspace& workspace, const AgainstOptions& options,
                 measuring::InterleavedRequest request, measuring::DetachedReport& detached)
{
  auto journal = open_journal(workspace);
  if (!options.budget.empty()) {
    request.budget_s = parse_budget(options.budget);
  }
  const auto reference = evidence::resolve_against(journal, workspace, options.against,
                                                   request.candidate.bench, request.candidate.attempt);
  request.reference_name = options.against;

  // From here on a signal ends the session (and both runs) with the worktree removed.
  run::InterruptGuard interrupt_guard;
  RunProgress progress(request.candidate.repeats.progress);
  const auto read_code = [&](const measuring::Workspace& side) {
    return read_code_state(side, options.keep_untracked);
  };
  const auto reference_code = evidence::code_to_measure(journal, workspace, reference);
  const auto candidate = request.candidate.attempt
                             ? evidence::attempt_candidate(journal, workspace, *request.candidate.attempt,
                                                           request.candidate.bench, options.keep_untracked)
                             : std::nullopt;
  if (candidate) {
    progress.message(
        fmt::format("ej: the work tree is not {}'s code: it is restored to be measured", candidate->name));
  }
  const auto result =
      candidate ? measuring::measure_restored(journal, workspace,
                                              evidence::code_to_measure(journal, workspace, *candidate),
                                              reference_code, reference.attempt, std::move(request), progress,
                                              read_code, numbers_from_remote(workspace), detached)
                : measuring::measure_against(journal, workspace, reference_code, reference.attempt,
                                             std::move(request), progress, read_code,
                                             numbers_from_remote(workspace), detached);

  print_run_summary(journal, result.candidate.run);
  print_run_summary(journal, result.reference.run);
  print_verdict(journal, result.candidate.run);
  if (result.candidate.status == core::RunStatus::Interrupted && run::InterruptGuard::signal_number() != 0) {
    const int signal = run::InterruptGuard::signal_number();
    fmt::print(stderr,
               "ej: interleaved runs {} and {} interrupted by SIG{}; the rounds measured before are kept\n",
               core::number_label(result.candidate.run), core::number_label(result.reference.run),
               ::sigabbrev_np(signal));
    throw ExitCode{128 + signal};
  }
  for (const auto* side : {&result.candidate, &result.reference}) {
    if (side->status != core::RunStatus::Finished) {
      throw Error("run {} {}: {}", core::number_label(side->run), core::to_string(side->status),
                  side->reason);
    }
  }
}

} // namespace ej::cli
