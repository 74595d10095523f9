#pragma once

#include "measuring/code_restore.h"
#include "measuring/interleaved_against.h"
#include "measuring/workspace.h"
#include "store/journal.h"

#include <cstdint>
#include <optional>
#include <string>

// What `ej run BENCH --against REF [--attempt N]` measures: the code state REF names, and the code
// the attempt stands for, read from the journal and git here so that any front end (the command
// line, the MCP server) resolves REF the same way. In evidence, not measuring: "baseline" is the
// plan's baseline in force (evidence::baseline_for), and the plan is chosen as every command chooses
// it (evidence::choose_plan).
namespace ej::evidence {

// A code state to measure, with what its results belong to.
struct CodeSide {
  // As messages say it: "baseline (run #3)", "run #5", "attempt #12", "attempt #12 (as run #7)",
  // "HEAD~1 (1a2b3c4d5e6f)".
  std::string name;
  std::optional<int> attempt;   // the attempt the side's results belong to; nullopt for a git revision
  measuring::RecordedCode code; // its commit, and for a run or attempt the diff and files recorded
};

// The code state `ref` names, for a candidate of benchmark `bench` (of `attempt` when given). REF is,
// in this order:
// - "baseline": the baseline run of `bench` in force now in the plan of `attempt`, else in the plan
//   evidence::choose_plan settles on;
// - a run ("r5", "run:5", "r@k3f9qx"): the code it recorded;
// - an attempt the journal has ("12", "#12", "@k3f9qx"): the code `ej try` recorded; an attempt's
//   number wins over a git revision of the same text;
// - a git revision (HEAD~1, a branch, a tag, a commit): that commit, clean.
// Throws ej::Error:
// - "plan P has no baseline for B; pin one with 'ej plan baseline P RUN', or name a run, an attempt
//   or a git revision with --against"
// - "there is no run #5; see 'ej runs'"
// - "run #5 recorded no commit: its code state cannot be restored to measure it again" (likewise
//   "baseline (run #3) recorded no commit: ...")
// - "attempt #12 recorded no commit: its code state cannot be restored"
// - measuring::check_complete's refusal of a recorded state that lacks untracked files it did not
//   store, and measuring::recorded_code's of a stored diff missing from the journal;
// and ej::UsageError "--against 'REF' names no run, attempt or git revision; give 'baseline', a run
// (r5), an attempt (#12) or a revision (HEAD~1, a branch, a commit)".
CodeSide resolve_against(store::Journal& journal, const measuring::Workspace& workspace,
                         const std::string& ref, const std::string& bench, std::optional<int> attempt);

// The code `attempt` stands for as the candidate of `bench`: that of its newest finished, unwithdrawn
// run of the benchmark with a commit (what its verdict rests on), else the state `ej try` recorded.
// nullopt when the work tree holds that code already (the usual case: the attempt is being worked
// on; its code state read keeping untracked files up to `keep_untracked` bytes), or when the attempt
// recorded no commit: then the work tree is measured where it is, as for any `ej run`. Otherwise the
// code is to be restored into a worktree of its own; it is refused, as by resolve_against, when
// it lacks untracked files it did not store.
std::optional<CodeSide> attempt_candidate(store::Journal& journal, const measuring::Workspace& workspace,
                                          int attempt, const std::string& bench,
                                          std::uint64_t keep_untracked);

// The side as measuring::measure_against and measure_restored take it. Holds references to journal,
// workspace and side, which must outlive it.
measuring::ReferenceCode code_to_measure(store::Journal& journal, const measuring::Workspace& workspace,
                                         const CodeSide& side);

} // namespace ej::evidence
