#pragma once

#include "evidence/reader.h"
#include "evidence/target_result.h"
#include "evidence/verdict.h"

#include <optional>
#include <string>
#include <vector>

namespace ej::evidence {

// An attempt judged on everything its runs measured: each benchmark it has runs of against that
// benchmark's own baseline, on the plan's measures of it (or its primary metric), and every target
// of the plan, met, not met or not measured.
struct Evaluation {
  std::string plan;
  // The plan's measures first, in its order, then the other benchmarks the attempt ran, newest first.
  std::vector<Verdict> verdicts;
  // Each benchmark the attempt ran that could not be judged. The baseline's own runs are not missing.
  struct Missing {
    std::string bench;
    std::string why; // "plan p has no baseline for benchmark verify; pin one with ..."
    bool no_baseline = false;
    std::vector<NextStep> next; // what would judge it (no baseline: pin one)
  };
  std::vector<Missing> missing;
  std::string why_not;                 // without a verdict: why the first set was not judged
  Unjudged unjudged = Unjudged::Other; // and of what kind
  std::vector<TargetResult> targets;   // every target of the plan, in its order
  std::optional<std::size_t> lead;     // the verdict that decides: the headline measure's, else the first

  const Verdict* lead_verdict() const { return lead ? &verdicts[*lead] : nullptr; }
  bool any_target_missed() const;
};

// nullopt when there is no such attempt.
std::optional<Evaluation> evaluate_attempt(Reader& reader, int attempt,
                                           Against against = Against::BaselineThen);

} // namespace ej::evidence
