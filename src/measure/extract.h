#pragma once

#include "measure/metric_spec.h"
#include "measure/text_source.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ej::measure {

class LineScanner;

// One value read from a repeat's output.
struct ExtractedValue {
  std::string key;  // which series: "" for regex/kv/json, the benchmark row, state or command otherwise
  double value = 0; // finite; meaningless when skipped
  std::string unit;
  bool aggregate = false; // gbench mean/median/stddev/cv rows: summaries, not samples
  bool skipped = false;   // nvbench skipped state, gbench row with an error
  // Not of the metric's quantity: the value keeps its own unit, or none, and is neither converted
  // nor labelled with the metric's (a Google Benchmark _cv row's %, a perf counter's count beside
  // task-clock's msec, a Criterion change estimate's %).
  bool own_unit = false;
  std::string note;                     // the skip reason, or the aggregate's name ("mean")
  std::optional<double> relative_stdev; // nvbench: the noise of a mean (0.01 = 1%)

  bool operator==(const ExtractedValue&) const = default;
};

struct ExtractInput {
  TextSource out;
  TextSource err;
  // The result file a metric reads (its @FILE), nullopt when the program wrote none; throws
  // ej::Error when the file cannot be read. Unset: no metric can read a file.
  std::function<std::optional<TextSource>(const MetricSpec& spec)> open_file;
  // The scanner that already read a metric's stream as the program printed it (LiveExtraction),
  // nullptr when none did. Unset: streams are read from out and err.
  std::function<LineScanner*(const MetricSpec& spec)> scanned = nullptr;
};

// The values of one metric in one repeat's output, in output order, all in one unit (see
// settle_units). Line-based readers (regex, kv) read the whole output piece by piece in bounded
// memory; the others load it, up to whole_text_limit(). Throws ej::Error when the output holds
// none, is malformed or too large, holds a number that is not finite, or a unit that does not
// convert to the metric's.
std::vector<ExtractedValue> extract(const MetricSpec& spec, const ExtractInput& input);

class ValueList;
// The same values, as compactly as the journal keeps them (value_list.h), for a repeat whose
// metric may print millions: a line-based reader fills the list as it reads. Throws as extract(),
// and when more than max_values_per_repeat() values were printed.
ValueList extract_list(const MetricSpec& spec, const ExtractInput& input);

// The largest output or result file a reader that needs it whole loads into memory: 256 MiB, or
// EJ_MAX_RESULT_SIZE (bytes, or with a K, M or G suffix). Throws ej::UsageError when that
// variable is not a size.
std::uint64_t whole_text_limit();

// Gives every value one unit: --unit, else the unit the format or key says (source_unit), else
// the first value's. A value in another known unit is converted, one without a known unit is
// labelled; a unit that does not convert is an ej::Error naming the metric and both units.
void settle_units(const MetricSpec& spec, std::vector<ExtractedValue>& values);

} // namespace ej::measure
