// criterion: Criterion.rs estimates.json and sample.json, and cargo-criterion --message-format=json
// (grammar in metric_spec.h).
#include "measure/extract_common.h"
#include "measure/json_document.h"
#include "measure/readers.h"
#include "util/error.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <array>

namespace ej::measure {

namespace {

struct CriterionStat {
  std::string_view name;  // as written in ARG, and in estimates.json and cargo-criterion messages
  std::string_view title; // older Criterion's estimates.json
};

constexpr std::array<CriterionStat, 6> k_criterion_stats{{{"mean", "Mean"},
                                                          {"median", "Median"},
                                                          {"slope", "Slope"},
                                                          {"typical", "Typical"},
                                                          {"std_dev", "StdDev"},
                                                          {"median_abs_dev", "MedianAbsDev"}}};

struct CriterionArg {
  std::string id;
  std::string stat;        // "mean" when none is given
  bool stat_given = false; // sample.json holds samples only: read them unless a STAT was asked for
};

CriterionArg parse_criterion_arg(std::string_view arg)
{
  const auto [id, stat] = detail::split_hash(arg);
  return {std::string(id), std::string(stat.value_or("mean")), stat.has_value()};
}

// change/estimates.json, beside new/ and base/: the relative change of the mean and the median
// against the previous run (-0.0025 is 0.25% faster), no spread or slope; new/estimates.json
// always has std_dev and median_abs_dev.
bool is_change_file(const nlohmann::json& record)
{
  return record.size() == 2 && record.contains("mean") && record.contains("median") &&
         record["mean"].is_object() && record["mean"].contains("point_estimate");
}

// Whether FILE is a change/estimates.json by its path.
bool is_change_path(std::string_view file)
{
  return file.starts_with("change/") || file.find("/change/") != std::string_view::npos;
}

bool is_sample_file(const nlohmann::json& record)
{
  return !record.contains("reason") &&
         (record.contains("iters") || record.contains("times") || record.contains("sampling_mode"));
}

// sample.json: {"sampling_mode": ..., "iters": [...], "times": [...]}, times[i] the ns that
// iters[i] iterations took; each sample is the time of one iteration.
std::vector<ExtractedValue> sample_values(const MetricSpec& spec, const nlohmann::json& record)
{
  const auto iters = record.value("iters", nlohmann::json());
  const auto times = record.value("times", nlohmann::json());
  if (!iters.is_array() || !times.is_array() || iters.empty() || iters.size() != times.size()) {
    throw Error(
        "metric '{}': {} is not a whole Criterion sample.json: expected arrays 'iters' and 'times' of "
        "the same, non-zero length ('iters' is {}, 'times' is {})",
        spec.name, detail::source_name(spec), iters.is_null() ? "missing" : describe_node(iters),
        times.is_null() ? "missing" : describe_node(times));
  }
  std::vector<ExtractedValue> values;
  for (std::size_t i = 0; i < iters.size(); ++i) {
    const auto where = fmt::format("sample {} of sample.json", i);
    const double count = json_number(spec, iters[i], where);
    if (count <= 0) {
      throw Error("metric '{}': {} in {} counts {} iterations: expected a positive count", spec.name, where,
                  detail::source_name(spec), count);
    }
    values.push_back(detail::make_value("", json_number(spec, times[i], where) / count, "ns"));
  }
  return values;
}

const CriterionStat* find_criterion_stat(std::string_view name)
{
  for (const auto& stat : k_criterion_stats) {
    if (stat.name == name) {
      return &stat;
    }
  }
  return nullptr;
}

// An estimate: {"point_estimate": N} (estimates.json, in ns) or {"estimate": N, "unit": "ns"}.
ExtractedValue estimate_value(const MetricSpec& spec, const nlohmann::json& estimate, const std::string& key,
                              std::string_view where)
{
  if (!estimate.is_object()) {
    throw Error("metric '{}': {} in {} is {}, not an estimate", spec.name, where, detail::source_name(spec),
                describe_node(estimate));
  }
  if (estimate.contains("point_estimate")) {
    return detail::make_value(key, json_number(spec, estimate["point_estimate"], where), "ns");
  }
  if (!estimate.contains("estimate")) {
    throw Error("metric '{}': {} in {} has no 'point_estimate' or 'estimate'", spec.name, where,
                detail::source_name(spec));
  }
  return detail::make_value(key, json_number(spec, estimate["estimate"], where),
                            estimate.value("unit", "ns"));
}

} // namespace

void check_criterion(const MetricSpec& spec)
{
  const auto stat = parse_criterion_arg(spec.arg).stat;
  if (stat != "samples" && find_criterion_stat(stat) == nullptr) {
    throw UsageError(
        "metric '{}': criterion has no estimate '{}': use mean, median, slope, typical, std_dev, "
        "median_abs_dev or samples (cargo-criterion's measured values per iteration)",
        spec.name, stat);
  }
}

std::string unit_of_criterion(const MetricSpec& spec)
{
  return is_change_path(spec.file) ? "%" : "ns";
}

std::vector<ExtractedValue> read_criterion(const MetricSpec& spec, std::string_view text)
{
  const auto arg = parse_criterion_arg(spec.arg);
  const auto* stat = find_criterion_stat(arg.stat);
  std::vector<ExtractedValue> values;
  std::vector<std::string> ids;
  for (const auto& record : parse_json_records(spec, text)) {
    if (!record.is_object()) {
      continue;
    }
    // sample.json: the samples of one benchmark, no id (the directory names it).
    if (is_sample_file(record)) {
      if (arg.stat_given && arg.stat != "samples") {
        throw Error(
            "metric '{}': {} is a sample.json, which holds samples, not the '{}' estimate: drop '#{}' "
            "to read every sample, or read the estimate from estimates.json beside it",
            spec.name, detail::source_name(spec), arg.stat, arg.stat);
      }
      auto samples = sample_values(spec, record);
      values.insert(values.end(), samples.begin(), samples.end());
      continue;
    }
    // change/estimates.json: relative changes, stored as percentages in a unit of their own (a
    // metric reading stdout cannot know from its path that they are not times).
    if (is_change_file(record)) {
      if (stat == nullptr || (stat->name != "mean" && stat->name != "median")) {
        throw Error(
            "metric '{}': {} is Criterion's change/estimates.json, which holds the change of the mean "
            "and the median only: read #mean or #median, or new/estimates.json for '{}'",
            spec.name, detail::source_name(spec), arg.stat);
      }
      const auto where = fmt::format("the '{}' change in {}", stat->name, detail::source_name(spec));
      auto value = estimate_value(spec, record[std::string(stat->name)], "", where);
      value.value *= 100;
      value.unit = std::string(1, '%'); // not = "%": GCC 12 warns of a false overlap (-Wrestrict)
      value.own_unit = true;
      values.push_back(std::move(value));
      continue;
    }
    // estimates.json: the estimates of one benchmark, no id (the directory names it).
    if (!record.contains("reason")) {
      if (stat == nullptr) {
        throw Error("metric '{}': {} is an estimates.json, which holds estimates, not samples: read #mean, "
                    "#median or #slope",
                    spec.name, detail::source_name(spec));
      }
      const std::string key =
          record.contains(stat->name) ? std::string(stat->name) : std::string(stat->title);
      if (!record.contains(key)) {
        throw Error("metric '{}': {} has no estimate '{}': is it Criterion's estimates.json?", spec.name,
                    detail::source_name(spec), stat->name);
      }
      values.push_back(estimate_value(spec, record[key], "", "the '" + key + "' estimate"));
      continue;
    }
    if (record.value("reason", "") != "benchmark-complete") {
      continue; // group-complete and other messages
    }
    const std::string id = record.value("id", "");
    ids.push_back(id);
    if (!arg.id.empty() && arg.id != id) {
      continue;
    }
    if (stat != nullptr) {
      if (!record.contains(stat->name) || record[stat->name].is_null()) {
        throw Error("metric '{}': cargo-criterion's '{}' in {} has no '{}' estimate", spec.name, id,
                    detail::source_name(spec), stat->name);
      }
      values.push_back(
          estimate_value(spec, record[stat->name], id, fmt::format("'{}' of {}", stat->name, id)));
      continue;
    }
    // Every measurement, per iteration: measured_values[i] / iteration_count[i].
    const auto measured = record.value("measured_values", nlohmann::json::array());
    const auto counts = record.value("iteration_count", nlohmann::json::array());
    if (measured.empty() || measured.size() != counts.size()) {
      throw Error("metric '{}': cargo-criterion's '{}' in {} has no measured_values matching its "
                  "iteration_count",
                  spec.name, id, detail::source_name(spec));
    }
    for (std::size_t i = 0; i < measured.size(); ++i) {
      const auto where = fmt::format("measurement {} of {}", i, id);
      const double count = json_number(spec, counts[i], where);
      values.push_back(
          detail::make_value(id, json_number(spec, measured[i], where) / count, record.value("unit", "ns")));
    }
  }
  if (values.empty()) {
    throw Error("metric '{}': {} holds no Criterion estimates{}; {}", spec.name, detail::source_name(spec),
                arg.id.empty() ? std::string() : " for '" + arg.id + "'",
                ids.empty() ? std::string("read target/criterion/NAME/new/estimates.json or sample.json, or "
                                          "cargo-criterion --message-format=json")
                            : "it has: " + util::join(ids, ", "));
  }
  return values;
}

} // namespace ej::measure
