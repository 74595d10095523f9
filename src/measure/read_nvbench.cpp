// nvbench: NVBench --json (grammar in metric_spec.h); its markdown is read_nvbench_markdown.cpp's.
#include "measure/extract_common.h"
#include "measure/json_document.h"
#include "measure/readers.h"
#include "util/error.h"
#include "util/strings.h"

#include <algorithm>

namespace ej::measure {

namespace {

constexpr std::string_view k_default_tag = "nv/cold/time/gpu/mean";

std::string text_of(const nlohmann::json& value)
{
  return value.is_string() ? value.get<std::string>() : value.dump();
}

// The text the user gave nvbench for a float axis value ("0.0003"), rather than the binary
// float it became ("0.00030000000000000003"); the value as stored when the axis lists none.
std::string float_input_string(const nlohmann::json& axis, const std::string& value)
{
  const auto number = detail::try_parse_number(value);
  if (!number || !axis.contains("values") || !axis["values"].is_array()) {
    return value;
  }
  for (const auto& listed : axis["values"]) {
    if (listed.is_object() && listed.contains("value") && listed["value"].is_number() &&
        listed["value"].get<double>() == *number && listed.contains("input_string") &&
        listed["input_string"].is_string()) {
      return listed["input_string"].get<std::string>();
    }
  }
  return value;
}

// pow2 axes are shown as nvbench shows them: "2^20" rather than "1048576"; float axes as given.
std::string axis_value_text(const nlohmann::json& benchmark, const nlohmann::json& axis_value)
{
  const std::string name = axis_value.value("name", "");
  std::string value = text_of(axis_value.value("value", nlohmann::json("")));
  const auto& axes = benchmark.contains("axes") && benchmark["axes"].is_array() ? benchmark["axes"]
                                                                                : nlohmann::json::array();
  for (const auto& axis : axes) {
    if (!axis.is_object() || axis.value("name", "") != name) {
      continue;
    }
    if (axis.value("type", "") == "float64" || axis_value.value("type", "") == "float64") {
      return name + "=" + float_input_string(axis, value);
    }
    if (axis.value("flags", "").find("pow2") == std::string::npos) {
      continue;
    }
    if (const auto number = detail::try_parse_number(value); number && *number >= 1) {
      int exponent = 0;
      double rest = *number;
      while (rest >= 2 && rest == static_cast<double>(static_cast<long long>(rest / 2)) * 2) {
        rest /= 2;
        ++exponent;
      }
      if (rest == 1) {
        return name + "=2^" + std::to_string(exponent);
      }
    }
  }
  return name + "=" + value;
}

// "copy_sweep[Device=0,T=U8,Elements=2^20]": the state as nvbench names it ("Device=0 T=U8
// Elements=2^20"), the same on one GPU or several, and the same as its markdown is keyed.
std::string state_key(const nlohmann::json& benchmark, const nlohmann::json& state)
{
  std::vector<std::string> parts;
  if (state.contains("device") && !state["device"].is_null()) {
    parts.push_back("Device=" + text_of(state["device"]));
  }
  if (state.contains("axis_values") && state["axis_values"].is_array()) {
    for (const auto& axis_value : state["axis_values"]) {
      parts.push_back(axis_value_text(benchmark, axis_value));
    }
  }
  const std::string name = benchmark.value("name", "");
  return parts.empty() ? name : name + "[" + util::join(parts, ",") + "]";
}

const nlohmann::json* find_summary(const nlohmann::json& state, std::string_view tag)
{
  if (!state.contains("summaries") || !state["summaries"].is_array()) {
    return nullptr;
  }
  for (const auto& summary : state["summaries"]) {
    if (summary.value("tag", "") == tag) {
      return &summary;
    }
  }
  return nullptr;
}

const nlohmann::json* summary_value(const nlohmann::json& summary)
{
  if (!summary.contains("data") || !summary["data"].is_array()) {
    return nullptr;
  }
  for (const auto& datum : summary["data"]) {
    if (datum.value("name", "") == "value" && datum.contains("value")) {
      return &datum["value"];
    }
  }
  return nullptr;
}

std::string unit_of_hint(std::string_view hint)
{
  if (hint == "duration") {
    return "s";
  }
  if (hint == "byte_rate") {
    return "B/s";
  }
  if (hint == "item_rate") {
    return "items/s";
  }
  if (hint == "bytes") {
    return "B";
  }
  return "";
}

// The noise nvbench reports next to a mean: ".../mean" has ".../stdev/relative".
std::optional<double> relative_stdev(const nlohmann::json& state, std::string_view tag)
{
  if (!tag.ends_with("/mean")) {
    return std::nullopt;
  }
  const std::string stdev_tag = std::string(tag.substr(0, tag.size() - 4)) + "stdev/relative";
  const auto* summary = find_summary(state, stdev_tag);
  const auto* value = summary != nullptr ? summary_value(*summary) : nullptr;
  if (value == nullptr) {
    return std::nullopt;
  }
  return detail::try_parse_number(text_of(*value)); // a "nan" noise is no noise figure, not an error
}

std::vector<std::string> tags_of(const nlohmann::json& state)
{
  std::vector<std::string> tags;
  for (const auto& summary : state.value("summaries", nlohmann::json::array())) {
    tags.push_back(summary.value("tag", ""));
  }
  return tags;
}

// NVBench's markdown has a "# Benchmark Results" heading; its --json never starts a line so.
bool is_markdown(std::string_view text)
{
  const auto lines = detail::text_lines(text);
  return std::any_of(lines.begin(), lines.end(),
                     [](std::string_view line) { return util::trim(line) == "# Benchmark Results"; });
}

// NVBench's --json document is an object: a log whose lines open with '[' (gtest's "[ RUN      ]")
// holds none, though a JSON array could start there.
bool has_object_start(std::string_view text)
{
  const auto lines = detail::text_lines(text);
  return std::any_of(lines.begin(), lines.end(),
                     [](std::string_view line) { return util::trim(line).starts_with('{'); });
}

} // namespace

std::vector<ExtractedValue> read_nvbench(const MetricSpec& spec, std::string_view text)
{
  if (is_markdown(text)) {
    return read_nvbench_markdown(spec, text);
  }
  if (!util::trim(text).empty() && !has_object_start(text)) {
    throw Error("metric '{}': {} holds neither NVBench's --json document (no line starts with '{{') nor "
                "its markdown ('# Benchmark Results' and its tables); its last lines were:\n{}\nRun the "
                "benchmark with --json FILE and read it with 'nvbench:@FILE', or read its markdown on stdout "
                "(or --md FILE)",
                spec.name, detail::source_name(spec), detail::output_tail(text));
  }
  const auto document = parse_json_output(spec, text);
  const auto& benchmarks = tool_array(spec, document, "benchmarks", "nvbench's",
                                      "run the benchmark with --json FILE and read it with 'nvbench:@FILE'");
  const auto slash = spec.arg.find('/');
  const std::string bench = spec.arg.substr(0, slash);
  const std::string tag =
      slash == std::string::npos ? std::string(k_default_tag) : spec.arg.substr(slash + 1);

  std::vector<ExtractedValue> values;
  std::vector<std::string> names;
  std::vector<std::string> seen_tags;
  bool found_tag = false;
  for (const auto& benchmark : benchmarks) {
    const std::string name = benchmark.value("name", "");
    names.push_back(name);
    if (!bench.empty() && name != bench) {
      continue;
    }
    for (const auto& state : benchmark.value("states", nlohmann::json::array())) {
      auto value = detail::make_value(state_key(benchmark, state), 0, "");
      if (state.value("is_skipped", false)) {
        value.skipped = true;
        value.note = state.value("skip_reason", "skipped");
        values.push_back(std::move(value));
        continue;
      }
      const auto* summary = find_summary(state, tag);
      const auto* raw = summary != nullptr ? summary_value(*summary) : nullptr;
      if (raw == nullptr) {
        if (seen_tags.empty()) {
          seen_tags = tags_of(state);
        }
        value.skipped = true;
        value.note = "no summary '" + tag + "' in this state";
        values.push_back(std::move(value));
        continue;
      }
      found_tag = true;
      value.value = detail::parse_number(spec, text_of(*raw));
      const std::string hint = summary->value("hint", "");
      if (hint == "percentage") {
        value.value *= 100; // a fraction (0.7 of the peak bandwidth), which the markdown prints as 70.00%
        value.unit = std::string(1, '%'); // not = "%": GCC 12 warns of a false overlap (-Wrestrict)
      } else {
        value.unit = unit_of_hint(hint); // settle_units converts it to the metric's
      }
      value.relative_stdev = relative_stdev(state, tag);
      values.push_back(std::move(value));
    }
  }
  if (!bench.empty() && std::find(names.begin(), names.end(), bench) == names.end()) {
    throw Error("metric '{}': the nvbench output in {} has no benchmark '{}'; it has: {}", spec.name,
                detail::source_name(spec), bench, names.empty() ? "none" : util::join(names, ", "));
  }
  if (!found_tag && !seen_tags.empty()) {
    throw Error("metric '{}': no state in {} has the summary '{}'; the states have: {}", spec.name,
                detail::source_name(spec), tag, util::join(seen_tags, ", "));
  }
  return detail::some_nvbench_states(spec, bench, std::move(values));
}

std::string unit_of_nvbench(const MetricSpec& spec)
{
  const std::string_view arg = spec.arg;
  const auto slash = arg.find('/');
  const std::string_view tag = slash == std::string::npos ? "" : arg.substr(slash + 1);
  if (tag.ends_with("/relative") || tag.ends_with("/utilization")) {
    return "%";
  }
  if (tag.empty() || tag.find("/time/") != std::string_view::npos || tag.ends_with("walltime")) {
    return "s";
  }
  if (tag.ends_with("bytes_per_second")) {
    return "B/s";
  }
  if (tag.ends_with("item_rate")) {
    return "items/s";
  }
  return "";
}

} // namespace ej::measure
