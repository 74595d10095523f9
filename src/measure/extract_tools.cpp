#include "measure/extract_tools.h"

#include "measure/extract_common.h"
#include "measure/extract_json.h"
#include "util/error.h"
#include "util/strings.h"

namespace ej::measure {

namespace {

bool is_time_field(std::string_view field)
{
  return field == "real_time" || field == "cpu_time";
}

// A Google Benchmark row that the spec asks for: by full name, or by run name so that
// "BM_Sum" also selects its aggregates "BM_Sum_mean", "BM_Sum_stddev"...
bool selects(const nlohmann::json& row, std::string_view bench)
{
  if (bench.empty()) {
    return true;
  }
  const std::string name = row.value("name", "");
  return name == bench || row.value("run_name", name) == bench;
}

ExtractedValue gbench_value(const MetricSpec& spec, const nlohmann::json& row, std::string_view field)
{
  const std::string name = row.value("name", "");
  auto value = detail::make_value(name, 0, "");
  value.aggregate = row.value("run_type", "iteration") == "aggregate";
  if (value.aggregate) {
    value.note = row.value("aggregate_name", "");
  }
  const std::string where = "'" + std::string(field) + "' of '" + name + "'";
  value.value = json_number(spec, row[std::string(field)], where);
  // A coefficient of variation is a ratio even though it sits in real_time.
  const bool ratio = row.value("aggregate_unit", "time") == "percentage";
  if (ratio) {
    value.ratio = true;
  } else if (is_time_field(field)) {
    value.unit = row.value("time_unit", "ns"); // settle_units converts it to the metric's
  }
  return value;
}

std::vector<std::string> commands_of(const nlohmann::json& results)
{
  std::vector<std::string> commands;
  for (std::size_t i = 0; i < results.size(); ++i) {
    commands.push_back(fmt::format("{}: '{}'", i, results[i].value("command", "")));
  }
  return commands;
}

// hyperfine's ARG: an exact command string first, then a 0-based index.
std::vector<std::size_t> select_commands(const MetricSpec& spec, const nlohmann::json& results)
{
  std::vector<std::size_t> chosen;
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (spec.arg.empty() || results[i].value("command", "") == spec.arg) {
      chosen.push_back(i);
    }
  }
  if (chosen.empty() && !spec.arg.empty() && spec.arg.find_first_not_of("0123456789") == std::string::npos &&
      spec.arg.size() < 9 && std::stoul(spec.arg) < results.size()) {
    chosen.push_back(std::stoul(spec.arg));
  }
  if (chosen.empty()) {
    throw Error(
        "metric '{}': hyperfine results have no command '{}'; select one by its exact text or index: {}",
        spec.name, spec.arg, util::join(commands_of(results), ", "));
  }
  return chosen;
}

} // namespace

std::vector<ExtractedValue> extract_gbench(const MetricSpec& spec, const nlohmann::json& document)
{
  if (!document.is_object() || !document.contains("benchmarks") || !document["benchmarks"].is_array()) {
    throw Error(
        "metric '{}': {} is JSON but not Google Benchmark's (no 'benchmarks' array): run the benchmark "
        "with --benchmark_format=json, or --benchmark_out=FILE and read it with 'gbench:@FILE'",
        spec.name, detail::source_name(spec));
  }
  const auto hash = spec.arg.rfind('#');
  const std::string bench = spec.arg.substr(0, hash);
  const std::string field = hash == std::string::npos ? "real_time" : spec.arg.substr(hash + 1);

  std::vector<ExtractedValue> values;
  std::vector<std::string> names;
  for (const auto& row : document["benchmarks"]) {
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
    values.push_back(gbench_value(spec, row, field));
  }
  if (values.empty()) {
    throw Error("metric '{}': Google Benchmark output has no row{} with '{}'; its rows are: {}", spec.name,
                bench.empty() ? std::string() : " named '" + bench + "'", field,
                names.empty() ? "none" : util::join(names, ", "));
  }
  return values;
}

std::vector<ExtractedValue> extract_hyperfine(const MetricSpec& spec, const nlohmann::json& document)
{
  if (!document.is_object() || !document.contains("results") || !document["results"].is_array()) {
    throw Error("metric '{}': {} is JSON but not hyperfine's (no 'results' array): run hyperfine with "
                "--export-json FILE and read it with 'hyperfine:@FILE'",
                spec.name, detail::source_name(spec));
  }
  const auto& results = document["results"];
  std::vector<ExtractedValue> values;
  for (const auto index : select_commands(spec, results)) {
    const auto& result = results[index];
    const std::string command = result.value("command", "");
    if (!result.contains("times") || !result["times"].is_array()) {
      throw Error("metric '{}': hyperfine result '{}' has no 'times' array: use hyperfine 1.10 or newer",
                  spec.name, command);
    }
    const auto& times = result["times"];
    const auto exit_codes = result.value("exit_codes", nlohmann::json::array());
    for (std::size_t i = 0; i < times.size(); ++i) {
      const std::string where = fmt::format("time {} of '{}'", i, command);
      auto value = detail::make_value(command, json_number(spec, times[i], where), "s");
      // With --ignore-failure a failed run still has a time, but it measured something else.
      if (i < exit_codes.size() && exit_codes[i].is_number_integer() && exit_codes[i].get<long long>() != 0) {
        value.skipped = true;
        value.note = fmt::format("exit code {}", exit_codes[i].get<long long>());
      }
      values.push_back(std::move(value));
    }
  }
  if (values.empty()) {
    throw Error("metric '{}': hyperfine recorded no times{}", spec.name,
                spec.arg.empty() ? std::string() : " for '" + spec.arg + "'");
  }
  return values;
}

} // namespace ej::measure
