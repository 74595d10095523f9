#pragma once

#include "evidence/bisect_search.h"
#include "evidence/bisect_step.h"
#include "evidence/history.h"
#include "evidence/interleaved_verdict.h"
#include "measuring/run_benchmark.h"
#include "measuring/run_observer.h"
#include "measuring/workspace.h"
#include "store/journal.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

// ej bisect BENCH GOOD BAD: the first commit of a performance step between two commits of a
// first-parent line (the line ej history follows). BAD is measured against GOOD first: which way
// the step goes and how large it is. Then the commits between, chosen by BisectSearch, each built in
// a worktree of its own and measured interleaved against GOOD, built in another, until the verdict
// is decisive (measuring/interleaved_against.h), and judged by bisect_step.h. Every run is an
// ordinary run of the journal; the answer is recorded as a step.located event.
namespace ej::evidence {

struct BisectRequest {
  std::string bench;
  std::string metric; // empty: the benchmark's primary metric
  std::vector<measuring::ParamChoice> params;
  std::string good, bad;         // as the user named them: revisions of the repository
  std::optional<int> max_rounds; // of each comparison; default measuring::k_default_max_rounds
  // Where every comparison measures, as for `ej run --against`: "" (the benchmark's --on, else
  // here), ssh:HOST or a host, or a Slurm job (`slurm`, with `on` naming it).
  std::string on;
  std::optional<measuring::SlurmTarget> slurm;
};

// One commit measured against GOOD.
struct BisectMeasured {
  std::size_t index = 0; // in BisectReport::commits
  CommitClass verdict = CommitClass::Inconclusive;
  int candidate_run = 0; // its run and GOOD's; 0 where none was made
  int reference_run = 0;
  std::optional<InterleavedVerdict> comparison; // nullopt when no round was measured
  std::string why;                              // skipped or inconclusive: what happened
};

enum class BisectOutcome {
  Found,     // one commit, decisively bad, whose parent is decisively not
  Ambiguous, // skipped or inconclusive commits leave several it may be
  NoStep,    // BAD is not decisively apart from GOOD: no step to look for
};

// "found", "ambiguous", "no-step"
const char* to_string(BisectOutcome outcome);

struct BisectReport {
  std::string bench;
  std::string metric;
  std::string params;              // the --param choices, "variant=blocked n=1,2"; "" for every combination
  std::string good_name, bad_name; // as the user named them
  std::vector<LineCommit> commits; // GOOD first, BAD last: the first-parent line between them
  BisectMeasured bad_against_good;
  std::optional<BisectStep> step;       // nullopt: NoStep
  std::vector<BisectMeasured> measured; // the commits between, in the order measured
  BisectOutcome outcome = BisectOutcome::NoStep;
  std::vector<std::size_t> candidates; // what the first bad commit may be, oldest first
  std::string located_event;           // the step.located event; empty for NoStep
};

// Resolves GOOD and BAD, measures and records as above. The caller holds a run::InterruptGuard: a
// signal ends the comparison measuring and then the bisection (ExitCode 128 + N, its runs kept).
// Throws UsageError for GOOD and BAD that are not a good .. bad pair of one first-parent line, and
// ej::Error when GOOD or BAD cannot be built or measured.
BisectReport run_bisect(store::Journal& journal, const measuring::Workspace& workspace,
                        const BisectRequest& request, measuring::RunObserver& observer);

// The verdict of the first commit known bad (candidates.back()) against GOOD; nullptr for NoStep.
const BisectMeasured* first_bad_measure(const BisectReport& report);
// Its series that moved as the step did; nullptr for NoStep.
const PairedVerdict* stepped_series(const BisectMeasured& measured, const BisectStep& step);

nlohmann::json to_json(const BisectReport& report);

} // namespace ej::evidence
