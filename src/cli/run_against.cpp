#include "cli/run_against.h"

#include "cli/arguments.h"
#include "cli/current_plan.h"
#include "cli/run_progress.h"
#include "cli/run_summary_output.h"
#include "core/numbering.h"
#include "evidence/interleaved_verdict.h"
#include "evidence/verdict.h"
#include "git/repository.h"
#include "measuring/code_restore.h"
#include "measuring/interleaved_against.h"
#include "measuring/workspace.h"
#include "run/process.h"
#include "run/signals.h"
#include "store/interleaved_queries.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/strings.h"
#include "util/time.h"

#include <fmt/format.h>

#include <cstring>

namespace ej::cli {

namespace {

// What --against names, resolved to a code state and the attempt its results belong to.
struct ReferenceSide {
  std::string name;                            // "run #5", "baseline (run #3)", "commit 1a2b3c4d5e6f"
  std::optional<int> attempt;                  // the reference's attempt, when it has one
  std::optional<measuring::RecordedCode> code; // a recorded code state; nullopt: `commit` clean
  std::string commit;
};

ReferenceSide recorded_run(store::Journal& journal, const measuring::Workspace& workspace, int number,
                           const std::string& name)
{
  const auto run = store::find_run(journal.db(), number);
  if (!run) {
    throw Error("there is no run {}; see 'ej runs'", core::number_label(number));
  }
  if (run->git.commit.empty()) {
    throw Error("{} recorded no commit: its code state cannot be restored to measure it again", name);
  }
  ReferenceSide side;
  side.name = name;
  side.attempt = run->attempt;
  side.commit = run->git.commit;
  side.code = measuring::recorded_code(journal, workspace, run->id, run->git, name);
  return side;
}

// A git revision the repository knows, as its full commit id; nullopt when git does not know it.
std::optional<std::string> git_commit(const measuring::Workspace& workspace, const std::string& revision)
{
  run::ProcessSpec spec;
  spec.argv = {"git", "rev-parse", "--verify", "--quiet", revision + "^{commit}"};
  spec.cwd = workspace.work_tree;
  const auto result = run::run_process(spec);
  if (!result.succeeded()) {
    return std::nullopt;
  }
  return std::string(util::trim(result.out.text()));
}

ReferenceSide resolve_reference(store::Journal& journal, const measuring::Workspace& workspace,
                                const std::string& text, const std::string& bench, std::optional<int> attempt)
{
  if (text == "baseline") {
    const auto plan = attempt ? store::find_attempt(journal.db(), *attempt)->plan : choose_plan(journal, "");
    const auto baseline = evidence::baseline_for(store::baseline_history(journal.db(), plan), bench,
                                                 util::now_ms(), evidence::Against::CurrentBaseline);
    if (!baseline) {
      throw Error("plan {} has no baseline for {}; pin one with 'ej plan baseline {} RUN', or name a run, an "
                  "attempt or a git revision with --against",
                  plan, bench, plan);
    }
    return recorded_run(journal, workspace, *baseline,
                        fmt::format("baseline (run {})", core::number_label(*baseline)));
  }
  if (const auto run = run_reference(text)) {
    return recorded_run(journal, workspace, *run, "run " + core::number_label(*run));
  }
  // An attempt ("#12", "a12", "12"), unless git knows the text as a revision and it is no attempt.
  std::optional<int> attempt_number;
  try {
    attempt_number = parse_attempt_number(text);
  } catch (const UsageError&) {
  }
  if (attempt_number) {
    if (const auto found = store::find_attempt(journal.db(), *attempt_number)) {
      if (found->git.commit.empty()) {
        throw Error("attempt {} recorded no commit: its code state cannot be restored",
                    core::number_label(*attempt_number));
      }
      ReferenceSide side;
      side.name = "attempt " + core::number_label(*attempt_number);
      side.attempt = attempt_number;
      side.commit = found->git.commit;
      side.code = measuring::recorded_code(journal, workspace, found->id, found->git, side.name);
      return side;
    }
  }
  if (const auto commit = git_commit(workspace, text)) {
    ReferenceSide side;
    side.name = fmt::format("{} ({})", text, commit->substr(0, 12));
    side.commit = *commit;
    return side;
  }
  throw UsageError("--against '{}' names no run, attempt or git revision; give 'baseline', a run (r5), an "
                   "attempt (#12) or a revision (HEAD~1, a branch, a commit)",
                   text);
}

// With --attempt N, the candidate is the attempt's code: that of its newest finished run of the
// benchmark (what its verdict rests on), else the state `ej try` recorded. nullopt when the work tree
// holds that code already (the usual case: the attempt is being worked on), so that it is measured
// where it is; otherwise the code is restored into a worktree of its own.
std::optional<ReferenceSide> attempt_candidate(store::Journal& journal, const measuring::Workspace& workspace,
                                               int attempt, const std::string& bench,
                                               std::uint64_t keep_untracked)
{
  store::RunFilter filter;
  filter.bench = bench;
  filter.attempt = attempt;
  std::optional<ReferenceSide> side;
  for (const auto& run : store::list_runs(journal.db(), filter)) {
    if (run.status == core::RunStatus::Finished && !run.withdrawn() && !run.git.commit.empty()) {
      side = recorded_run(
          journal, workspace, run.number,
          fmt::format("attempt {} (as run {})", core::number_label(attempt), core::number_label(run.number)));
      break;
    }
  }
  if (!side) {
    const auto found = store::find_attempt(journal.db(), attempt);
    if (!found || found->git.commit.empty()) {
      return std::nullopt; // no recorded code: the work tree is the attempt's, as for any ej run
    }
    side = ReferenceSide{"attempt " + core::number_label(attempt), attempt, std::nullopt, found->git.commit};
    side->code = measuring::recorded_code(journal, workspace, found->id, found->git, side->name);
  }
  const auto here = read_code_state(workspace, keep_untracked);
  if (here.context.commit == side->commit && here.diff_text == side->code->code.patch) {
    return std::nullopt;
  }
  return side;
}

// The verdict of the comparison the session wrote, printed like ej compare prints it.
void print_verdict(store::Journal& journal, int candidate_run)
{
  const auto record = store::interleaved_comparison_of(journal.db(), candidate_run);
  if (!record) {
    return;
  }
  const auto verdict = evidence::judge_interleaved(journal.db(), *record);
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
  const auto reference = resolve_reference(journal, workspace, options.against, request.candidate.bench,
                                           request.candidate.attempt);
  measuring::RecordedCode code;
  code.code.commit = reference.commit;
  const auto& recorded = reference.code ? *reference.code : code;
  if (reference.code) {
    measuring::check_complete(*reference.code, reference.name, false);
  }
  request.reference_name = options.against;

  // From here on a signal ends the session (and both runs) with the worktree removed.
  run::InterruptGuard interrupt_guard;
  RunProgress progress(request.candidate.repeats.progress);
  const auto read_code = [&](const measuring::Workspace& side) {
    return read_code_state(side, options.keep_untracked);
  };
  const measuring::ReferenceCode reference_code{reference.name, recorded.code,
                                                recorded_content(journal, workspace, recorded)};
  const auto candidate = request.candidate.attempt
                             ? attempt_candidate(journal, workspace, *request.candidate.attempt,
                                                 request.candidate.bench, options.keep_untracked)
                             : std::nullopt;
  if (candidate) {
    measuring::check_complete(*candidate->code, candidate->name, false);
    progress.message(
        fmt::format("ej: the work tree is not {}'s code: it is restored to be measured", candidate->name));
  }
  const auto result =
      candidate ? measuring::measure_restored(journal, workspace,
                                              {candidate->name, candidate->code->code,
                                               recorded_content(journal, workspace, *candidate->code)},
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
