#pragma once

#include "measure/metric_spec.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ej::measure {

// One value read from a repeat's output.
struct ExtractedValue {
  std::string key;  // which series: "" for regex/kv/json, the benchmark row, state or command otherwise
  double value = 0; // finite; meaningless when skipped
  std::string unit;
  bool aggregate = false;               // gbench mean/median/stddev/cv rows: summaries, not samples
  bool skipped = false;                 // nvbench skipped state, gbench row with an error
  bool ratio = false;                   // gbench cv rows: a ratio among times, kept out of the unit
  std::string note;                     // the skip reason, or the aggregate's name ("mean")
  std::optional<double> relative_stdev; // nvbench: the noise of a mean (0.01 = 1%)

  bool operator==(const ExtractedValue&) const = default;
};

struct ExtractInput {
  std::string_view out;
  std::string_view err;
  // Contents of a file relative to the benchmark's working directory, nullopt when absent.
  std::function<std::optional<std::string>(const std::string& relative_path)> read_file;
};

// The values of one metric in one repeat's output, in output order, all in one unit (see
// settle_units). Throws ej::Error when the output holds none, is malformed, holds a number that
// is not finite, or a unit that does not convert to the metric's.
std::vector<ExtractedValue> extract(const MetricSpec& spec, const ExtractInput& input);

// Gives every value one unit: --unit, else the unit the format or key says (source_unit), else
// the first value's. A value in another known unit is converted, one without a known unit is
// labelled; a unit that does not convert is an ej::Error naming the metric and both units.
void settle_units(const MetricSpec& spec, std::vector<ExtractedValue>& values);

} // namespace ej::measure
