// gbench: Google Benchmark JSON (grammar in metric_spec.h).
#include "measure/extract_common.h"
#include "measure/json_document.h"
#include "measure/readers.h"
#include "measure/units.h"
#include "util/error.h"
#include "util/strings.h"

#include <fmt/format.h>

namespace ej::measure {

namespace {

bool is_time_field(std::string_view field)
{
  return field == "real_time" || field == "cpu_time";
}

// A Google Benchmark row that the spec asks for: by full name, or by run name so that
// "BM_Sum" also selects its aggregates "BM_Sum_mean", "BM_Sum_stddev"..., or as the family the
// name starts ("BM_Sum" selects "BM_Sum/8" and "BM_Sum/1024").
bool selects(const nlohmann::json& row, std::string_view bench)
{
  const std::string name = row.value("name", "");
  return detail::selects_gbench_row(name, row.value("run_name", name), bench);
}

ExtractedValue gbench_value(const MetricSpec& spec, const nlohmann::json& row, std::string_view bench,
                            std::string_view field)
{
  const std::string name = row.value("name", "");
  auto value = detail::make_value(name, 0, "");
  // An aggregate row the metric names itself ("BM_Sum_median") is its value: with
  // --benchmark_report_aggregates_only there is nothing else.
  value.aggregate = row.value("run_type", "iteration") == "aggregate" && name != bench;
  if (value.aggregate) {
    value.note = row.value("aggregate_name", "");
  }
  const std::string where = fmt::format("'{}' of '{}'", field, name);
  value.value = json_number(spec, row[std::string(field)], where);
  // A coefficient of variation sits in real_time, but its "aggregate_unit": "percentage" says it is
  // a fraction of the times (0.088 is 8.8%), not a time.
  if (row.value("aggregate_unit", "time") == "percentage") {
    value.value *= 100;
    value.unit = std::string(1, '%'); // not = "%": GCC 12 warns of a false overlap (-Wrestrict)
    value.own_unit = true;
  } else if (is_time_field(field)) {
    value.unit = row.value("time_unit", "ns"); // settle_units converts it to the metric's
  }
  return value;
}

} // namespace

void check_gbench(const MetricSpec& spec)
{
  if (spec.arg.ends_with('#')) {
    throw UsageError("metric '{}': '#' must be followed by a field (real_time, cpu_time or a counter)",
                     spec.name);
  }
}

std::string unit_of_gbench(const MetricSpec& spec)
{
  const auto hash = spec.arg.rfind('#');
  const std::string_view field =
      hash == std::string::npos ? std::string_view("real_time") : std::string_view(spec.arg).substr(hash + 1);
  if (is_time_field(field)) {
    return "ns";
  }
  const auto unit = unit_in_name(field); // user counters: "bytes_per_second"
  return unit ? unit->symbol : "";
}

std::vector<ExtractedValue> read_gbench(const MetricSpec& spec, std::string_view text)
{
  const auto document = parse_json_output(spec, text);
  const auto& rows = tool_array(spec, document, "benchmarks", "Google Benchmark's",
                                "run the benchmark with --benchmark_format=json, or --benchmark_out=FILE and "
                                "read it with 'gbench:@FILE'");
  const auto hash = spec.arg.rfind('#');
  const std::string bench = spec.arg.substr(0, hash);
  const std::string field = hash == std::string::npos ? "real_time" : spec.arg.substr(hash + 1);

  std::vector<ExtractedValue> values;
  std::vector<std::string> names;
  for (const auto& row : rows) {
    names.push_back(row.value("name", ""));
    if (!selects(row, bench)) {
      continue;
    }
    if (row.value("error_occurred", false)) {
      auto value = detail::make_value(row.value("name", ""), 0, "");
      value.skipped = true;
      value.note = row.value("error_message", "error");
      values.push_back(std::move(value));
      continue;
    }
    if (!row.contains(field)) {
      continue; // complexity rows (BigO, RMS) carry coefficients, not times
    }
    values.push_back(gbench_value(spec, row, bench, field));
  }
  if (values.empty()) {
    throw Error("metric '{}': the Google Benchmark output in {} has no row{} with '{}'; its rows are: {}",
                spec.name, detail::source_name(spec),
                bench.empty() ? std::string()
                              : fmt::format(" named '{}' or of its family '{}/...'", bench, bench),
                field, names.empty() ? "none" : util::join(names, ", "));
  }
  return values;
}

} // namespace ej::measure
