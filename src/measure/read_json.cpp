// json: a JSON Pointer or dotted path (grammar in metric_spec.h).
#include "measure/extract_common.h"
#include "measure/json_document.h"
#include "measure/readers.h"
#include "measure/units.h"
#include "util/error.h"
#include "util/strings.h"

namespace ej::measure {

namespace {

std::vector<std::string> path_steps(std::string_view path)
{
  std::vector<std::string> steps;
  if (path.empty()) {
    return steps;
  }
  if (path.front() == '/') {
    // JSON Pointer: "/a~1b/0" is the steps "a/b" and "0".
    for (auto& step : util::split(path.substr(1), '/')) {
      std::string unescaped;
      for (std::size_t i = 0; i < step.size(); ++i) {
        if (step[i] == '~' && i + 1 < step.size()) {
          unescaped += step[i + 1] == '1' ? '/' : '~';
          ++i;
        } else {
          unescaped += step[i];
        }
      }
      steps.push_back(unescaped);
    }
    return steps;
  }
  return util::split(path, '.');
}

std::optional<std::size_t> parse_index(const std::string& step)
{
  if (step.empty() || step.size() > 9 || step.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return static_cast<std::size_t>(std::stoul(step));
}

// The last step of a JSON path, whose name may say the unit ("median_ttft_ms").
std::string_view last_path_step(std::string_view path)
{
  const auto cut = path.find_last_of(path.starts_with('/') ? '/' : '.');
  return cut == std::string_view::npos ? path : path.substr(cut + 1);
}

} // namespace

void check_json(const MetricSpec& spec)
{
  if (spec.arg.empty()) {
    return;
  }
  if (spec.arg.front() == '/') {
    try {
      nlohmann::json::json_pointer pointer(spec.arg);
    } catch (const nlohmann::json::exception& error) {
      throw UsageError("metric '{}': '{}' is not a JSON Pointer ({}): write it like /results/0/mean",
                       spec.name, spec.arg, error.what());
    }
    return;
  }
  if (spec.arg.front() == '$' || spec.arg.find_first_of("[]*") != std::string::npos) {
    throw UsageError("metric '{}': '{}' is JSONPath, which ej does not read: write a JSON Pointer "
                     "(/results/0/mean) or a dotted path (results.0.mean)",
                     spec.name, spec.arg);
  }
  if (spec.arg.front() == '.' || spec.arg.back() == '.' || spec.arg.find("..") != std::string::npos) {
    throw UsageError("metric '{}': the dotted path '{}' has an empty step: write it like results.0.mean",
                     spec.name, spec.arg);
  }
}

std::string unit_of_json(const MetricSpec& spec)
{
  const auto unit = unit_in_name(last_path_step(spec.arg));
  return unit ? unit->symbol : "";
}

std::vector<ExtractedValue> read_json(const MetricSpec& spec, std::string_view text)
{
  const auto document = parse_json_output(spec, text);
  const nlohmann::json* node = &document;
  const nlohmann::json* parent = nullptr;
  std::string walked;
  for (const auto& step : path_steps(spec.arg)) {
    const nlohmann::json* next = nullptr;
    if (node->is_object() && node->contains(step)) {
      next = &node->at(step);
    } else if (const auto index = parse_index(step); node->is_array() && index && *index < node->size()) {
      next = &node->at(*index);
    }
    if (next == nullptr) {
      throw Error(
          "metric '{}': the path '{}' has no '{}' at '{}', which is {}: fix the path (JSON Pointer like "
          "/results/0/mean or dotted like results.0.mean)",
          spec.name, spec.arg, step, walked.empty() ? "the top" : walked, describe_node(*node));
    }
    walked += "/" + step;
    parent = node;
    node = next;
  }
  // A format that says its unit next to the value: cargo-criterion's {"estimate": 5.1, "unit": "ns"}.
  std::string unit;
  if (parent != nullptr && parent->is_object() && parent->contains("unit") && (*parent)["unit"].is_string()) {
    unit = (*parent)["unit"].get<std::string>();
  }
  const std::string where = "the value at '" + (spec.arg.empty() ? std::string("/") : spec.arg) + "'";
  std::vector<ExtractedValue> values;
  if (node->is_array()) {
    for (const auto& element : *node) {
      values.push_back(detail::make_value("", json_number(spec, element, where), unit));
    }
    if (values.empty()) {
      throw Error("metric '{}': {} is an empty array: the program recorded no samples", spec.name, where);
    }
    return values;
  }
  values.push_back(detail::make_value("", json_number(spec, *node, where), unit));
  return values;
}

} // namespace ej::measure
