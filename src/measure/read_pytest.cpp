// pytest: pytest-benchmark --benchmark-json (grammar in metric_spec.h).
#include "measure/extract_common.h"
#include "measure/json_document.h"
#include "measure/readers.h"
#include "util/error.h"
#include "util/strings.h"

namespace ej::measure {

namespace {

struct PytestArg {
  std::string name;  // fullname (or name); empty for every benchmark
  std::string field; // a key of "stats": "data" when none is given
};

PytestArg parse_pytest_arg(std::string_view arg)
{
  const auto [name, field] = detail::split_hash(arg);
  return {std::string(name), std::string(field.value_or("data"))};
}

} // namespace

void check_pytest(const MetricSpec& spec)
{
  if (spec.arg.ends_with('#')) {
    throw UsageError(
        "metric '{}': '#' must be followed by a field of 'stats' (data, mean, median, min, ops, ...)",
        spec.name);
  }
}

std::string unit_of_pytest(const MetricSpec& spec)
{
  const auto field = parse_pytest_arg(spec.arg).field;
  if (field == "ops") {
    return "ops/s";
  }
  if (field == "rounds" || field == "iterations" || field == "iqr_outliers" || field == "stddev_outliers") {
    return "";
  }
  return "s";
}

std::vector<ExtractedValue> read_pytest(const MetricSpec& spec, std::string_view text)
{
  const auto document = parse_json_output(spec, text);
  const auto& benchmarks =
      tool_array(spec, document, "benchmarks", "pytest-benchmark's",
                 "run pytest with --benchmark-json=FILE and read it with 'pytest:@FILE'");
  const auto arg = parse_pytest_arg(spec.arg);
  std::vector<ExtractedValue> values;
  std::vector<std::string> names;
  for (const auto& benchmark : benchmarks) {
    const std::string fullname = benchmark.value("fullname", benchmark.value("name", ""));
    names.push_back(fullname);
    if (!arg.name.empty() && fullname != arg.name && benchmark.value("name", "") != arg.name) {
      continue;
    }
    const auto stats = benchmark.value("stats", nlohmann::json::object());
    if (!stats.is_object() || !stats.contains(arg.field)) {
      throw Error(
          "metric '{}': pytest-benchmark's '{}' in {} has no stats field '{}': use data (the rounds), mean, "
          "median, min, max, stddev or ops",
          spec.name, fullname, detail::source_name(spec), arg.field);
    }
    const auto& field = stats[arg.field];
    const std::string where = fmt::format("stats.{} of '{}'", arg.field, fullname);
    // Every round is a sample (stats.data); other fields are one figure each.
    if (field.is_array()) {
      for (const auto& round : field) {
        values.push_back(detail::make_value(fullname, json_number(spec, round, where), ""));
      }
    } else {
      values.push_back(detail::make_value(fullname, json_number(spec, field, where), ""));
    }
  }
  if (values.empty()) {
    throw Error("metric '{}': pytest-benchmark output in {} has no benchmark{}; it has: {}", spec.name,
                detail::source_name(spec), arg.name.empty() ? std::string() : " named '" + arg.name + "'",
                names.empty() ? "none" : util::join(names, ", "));
  }
  return values;
}

} // namespace ej::measure
