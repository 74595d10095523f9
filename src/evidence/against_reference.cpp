#include "evidence/against_reference.h"

#include "core/numbering.h"
#include "core/references.h"
#include "evidence/lookup.h"
#include "evidence/verdict.h"
#include "git/history.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/time.h"

#include <fmt/format.h>

namespace ej::evidence {

namespace {

CodeSide recorded_run(store::Journal& journal, const measuring::Workspace& workspace, int number,
                      const std::string& name)
{
  const auto run = store::find_run(journal.db(), number);
  if (!run) {
    throw Error("there is no run {}; see 'ej runs'", core::number_label(number));
  }
  if (run->git.commit.empty()) {
    throw Error("{} recorded no commit: its code state cannot be restored to measure it again", name);
  }
  return {name, run->attempt, measuring::recorded_code(journal, workspace, run->id, run->git, name)};
}

CodeSide recorded_attempt(store::Journal& journal, const measuring::Workspace& workspace, int number,
                          const core::Attempt& attempt)
{
  const auto name = "attempt " + core::number_label(number);
  return {name, number, measuring::recorded_code(journal, workspace, attempt.id, attempt.git, name)};
}

CodeSide baseline_run(store::Journal& journal, const measuring::Workspace& workspace,
                      const std::string& bench, std::optional<int> attempt)
{
  const auto plan = attempt ? require_attempt(journal, *attempt).plan : choose_plan(journal, "");
  const auto baseline = baseline_for(store::baseline_history(journal.db(), plan), bench, util::now_ms(),
                                     Against::CurrentBaseline);
  if (!baseline) {
    throw Error("plan {} has no baseline for {}; pin one with 'ej plan baseline {} RUN', or name a run, an "
                "attempt or a git revision with --against",
                plan, bench, plan);
  }
  return recorded_run(journal, workspace, *baseline,
                      fmt::format("baseline (run {})", core::number_label(*baseline)));
}

// The attempt number `text` is written as ("#12", "12", "@k3f9qx"); nullopt for any other text.
std::optional<int> attempt_number(const std::string& text)
{
  try {
    return core::parse_attempt_number(text);
  } catch (const UsageError&) {
    return std::nullopt; // not an attempt's name: perhaps a git revision
  }
}

} // namespace

CodeSide resolve_against(store::Journal& journal, const measuring::Workspace& workspace,
                         const std::string& ref, const std::string& bench, std::optional<int> attempt)
{
  const auto side = [&]() -> CodeSide {
    if (ref == "baseline") {
      return baseline_run(journal, workspace, bench, attempt);
    }
    if (const auto run = core::run_reference(ref)) {
      return recorded_run(journal, workspace, *run, "run " + core::number_label(*run));
    }
    if (const auto number = attempt_number(ref)) {
      if (const auto found = store::find_attempt(journal.db(), *number)) {
        if (found->git.commit.empty()) {
          throw Error("attempt {} recorded no commit: its code state cannot be restored",
                      core::number_label(*number));
        }
        return recorded_attempt(journal, workspace, *number, *found);
      }
    }
    if (const auto commit = git::resolve_commit(workspace.work_tree, ref)) {
      CodeSide out;
      out.name = fmt::format("{} ({})", ref, commit->substr(0, 12));
      out.code.code.commit = *commit;
      return out;
    }
    throw UsageError("--against '{}' names no run, attempt or git revision; give 'baseline', a run (r5), an "
                     "attempt (#12) or a revision (HEAD~1, a branch, a commit)",
                     ref);
  }();
  measuring::check_complete(side.code, side.name, false);
  return side;
}

std::optional<CodeSide> attempt_candidate(store::Journal& journal, const measuring::Workspace& workspace,
                                          int attempt, const std::string& bench, std::uint64_t keep_untracked)
{
  store::RunFilter filter;
  filter.bench = bench;
  filter.attempt = attempt;
  std::optional<CodeSide> side;
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
    side = recorded_attempt(journal, workspace, attempt, *found);
  }
  const auto here = measuring::read_code_state(workspace, keep_untracked);
  if (here.context.commit == side->code.code.commit && here.diff_text == side->code.code.patch) {
    return std::nullopt;
  }
  measuring::check_complete(side->code, side->name, false);
  return side;
}

measuring::ReferenceCode code_to_measure(store::Journal& journal, const measuring::Workspace& workspace,
                                         const CodeSide& side)
{
  return {side.name, side.code.code, measuring::recorded_content(journal, workspace, side.code)};
}

} // namespace ej::evidence
