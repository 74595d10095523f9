// gbench-console: Google Benchmark's console table (grammar in metric_spec.h).
#include "measure/extract_common.h"
#include "measure/readers.h"
#include "util/error.h"
#include "util/strings.h"

#include <re2/re2.h>

#include <array>

namespace ej::measure {

namespace {

constexpr std::array<std::string_view, 4> k_aggregates{"_mean", "_median", "_stddev", "_cv"};

// "BM_Sum_mean" is an aggregate of "BM_Sum"; the suffix names it.
std::optional<std::string_view> aggregate_suffix(std::string_view name)
{
  for (const auto suffix : k_aggregates) {
    if (name.ends_with(suffix)) {
      return suffix;
    }
  }
  return std::nullopt;
}

} // namespace

void check_gbench_console(const MetricSpec& spec)
{
  const auto hash = spec.arg.rfind('#');
  const auto field =
      hash == std::string::npos ? std::string_view("real_time") : std::string_view(spec.arg).substr(hash + 1);
  if (field != "real_time" && field != "cpu_time") {
    throw UsageError("metric '{}': the console table has the fields real_time (Time) and cpu_time (CPU), not "
                     "'{}'; read counters from the JSON (gbench)",
                     spec.name, field);
  }
}

std::vector<ExtractedValue> read_gbench_console(const MetricSpec& spec, std::string_view text)
{
  const auto hash = spec.arg.rfind('#');
  const std::string bench = spec.arg.substr(0, hash);
  const bool cpu = hash != std::string::npos && spec.arg.substr(hash + 1) == "cpu_time";
  // "BM_Sum/1024   150 ns   140 ns   1000  items_per_second=6.8G/s"; BigO and RMS rows have
  // coefficients and percentages instead, and are left out as in the JSON.
  static const re2::RE2 k_row(
      R"(^(\S+)\s+([0-9.]+) (ns|us|ms|s)\s+([0-9.]+) (ns|us|ms|s)\s+(\d+)(?:\s.*)?$)");
  std::vector<ExtractedValue> values;
  std::vector<std::string> names;
  bool in_table = false;
  for (const auto line : detail::text_lines(text)) {
    if (line.starts_with("Benchmark ") && line.find(" Time ") != std::string_view::npos) {
      in_table = true;
      continue;
    }
    std::array<std::string, 5> cells;
    std::string iterations;
    if (!in_table || !re2::RE2::FullMatch(std::string(line), k_row, &cells[0], &cells[1], &cells[2],
                                          &cells[3], &cells[4], &iterations)) {
      continue;
    }
    const std::string& name = cells[0];
    names.push_back(name);
    const auto suffix = aggregate_suffix(name);
    const std::string run_name = suffix ? name.substr(0, name.size() - suffix->size()) : name;
    if (!detail::selects_gbench_row(name, run_name, bench)) {
      continue;
    }
    auto value = detail::make_value(name, detail::parse_number(spec, cells[cpu ? 3 : 1]), cells[cpu ? 4 : 2]);
    // An aggregate row named by the metric is its value (--benchmark_report_aggregates_only).
    if (suffix && name != bench) {
      value.aggregate = true;
      value.note = std::string(suffix->substr(1));
    }
    values.push_back(std::move(value));
  }
  if (values.empty()) {
    if (names.empty()) {
      throw Error(
          "metric '{}': {} holds no Google Benchmark table ('Benchmark  Time  CPU  Iterations' and its "
          "rows); its last lines were:\n{}",
          spec.name, detail::source_name(spec), detail::output_tail(text));
    }
    throw Error(
        "metric '{}': the Google Benchmark table in {} has no row named '{}' or of its family '{}/...'; "
        "its rows are: {}",
        spec.name, detail::source_name(spec), bench, bench, util::join(names, ", "));
  }
  return values;
}

} // namespace ej::measure
