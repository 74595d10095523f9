#pragma once

#include "core/bench_definition.h"

#include <string>
#include <string_view>

namespace ej::core {

// One thing a plan measures: a benchmark's metric, optionally at a headline combination of its
// sweep ("serve:tok_s@concurrency=1"). A plan's first measure is its headline: the one its summary
// and verdicts lead with.
struct PlanMeasure {
  std::string bench;
  std::string metric;   // empty: the benchmark's primary metric
  ParamValues headline; // empty: none of its own (the plan's --headline may apply)
};

// Parses "BENCH[:METRIC][@AXIS=V[,AXIS=V]]". Throws ej::UsageError saying what is wrong, with an
// example.
PlanMeasure parse_plan_measure(std::string_view text);
// The same form, normalised: "serve:tok_s@concurrency=1".
std::string to_string(const PlanMeasure& measure);

// Parses a combination "AXIS=V[,AXIS=V]" (what --headline takes); `what` names the option in the
// error. Empty text is no combination.
ParamValues parse_combination(std::string_view text, std::string_view what);

} // namespace ej::core
