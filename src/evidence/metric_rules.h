#pragma once

#include "core/bench_definition.h"
#include "measure/bench_metrics.h"
#include "measure/metric_spec.h"
#include "measure/statistics.h"

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

// How a benchmark revision's metrics are judged.
namespace ej::evidence {

// Direction and minimum effect of every metric of a benchmark revision.
struct MetricRules {
  std::map<std::string, measure::Direction> directions; // as stored with the revision
  // Metrics whose direction was inferred, not given with --better: the unit their values came in
  // decides it when that unit says one (a regex's tok/s that no name announced).
  std::set<std::string> unit_decides;
  std::string primary = "wall_s";
  double min_effect_pct = 0;
  double clock_drop_pct = 10;     // a repeat this far below its combination's SM clock is throttled
  bool exclude_throttled = false; // judged without throttled repeats
  core::SameOutput same_output;   // what must equal the reference's (ej bench add --same-output)
  bool checked = false;           // a --check command runs after measured repeats
  // Its reported times are its own process's (--check-times, the default): held against wall_s.
  bool check_times = true;
  // Physical bounds (--floor), each with the unit of its metric's values.
  struct Floor {
    core::MetricFloor floor;
    std::string unit;
  };
  std::vector<Floor> floors;

  // Whether anything holds the benchmark's result to account (--check, --same-output): without,
  // a benchmark that skips its work looks faster too.
  bool guarded() const { return checked || same_output.kind != core::SameOutput::Kind::None; }

  // The direction of a metric's series stored in `unit` (measure::judged_better's rule).
  measure::Direction direction_of(const std::string& metric, std::string_view unit) const;
};

// The rules of a stored definition; wall_s (always recorded) is lower-is-better.
MetricRules rules_of(const core::BenchDefinition& definition);

} // namespace ej::evidence
