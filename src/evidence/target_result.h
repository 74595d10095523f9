#pragma once

#include "core/bench_definition.h"
#include "core/target.h"
#include "evidence/run_set.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ej::evidence {

enum class TargetState { Met, NotMet, NotMeasured };

// One target of a plan evaluated on an attempt's runs of the benchmark that measures its metric.
struct TargetResult {
  core::Target target;
  std::string bench; // the benchmark evaluated; empty when not measured
  std::string unit;
  TargetState state = TargetState::NotMeasured;
  // The median that decided: at the headline combination when there is one, else the worst of
  // the combinations (the one furthest from meeting it).
  std::optional<double> value;
  std::string where;               // value's combination and key; "" without axes
  bool at_headline = false;        // decided at the headline combination alone
  std::size_t judged = 0;          // combinations evaluated
  std::vector<std::string> met_at; // the combinations that meet it

  // "verify_ms 12.50 ms meets < 15", "verify_ms 30.00 ms misses < 15", "verify_ms < 15 not measured";
  // over a sweep without a headline "verify_ms meets < 15 only at size=2".
  std::string text() const;
  // "yes", "no", "at size=2" (where it is met over a sweep) or "—": a table cell.
  std::string cell() const;
};

// Evaluates the target on the series of `set` that hold its metric: at the headline combination
// when the set has it (`headline` may name axes the set lacks: those are ignored), else at every
// combination (met when met at all of them).
TargetResult evaluate_target(const core::Target& target, const RunSet& set,
                             const core::ParamValues& headline);
// A target no run of the attempt measures.
TargetResult unmeasured_target(const core::Target& target);

// The bound as said after the metric: "< 15".
std::string bound_text(const core::Target& target);

} // namespace ej::evidence
