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

struct Walked {
  const nlohmann::json* node = nullptr;
  const nlohmann::json* parent = nullptr;
};

Walked walk(const MetricSpec& spec, std::string_view path, const nlohmann::json& document,
            std::string_view where)
{
  Walked walked{&document, nullptr};
  std::string steps;
  for (const auto& step : path_steps(path)) {
    const nlohmann::json* next = nullptr;
    const auto& node = *walked.node;
    if (node.is_object() && node.contains(step)) {
      next = &node.at(step);
    } else if (const auto index = parse_index(step); node.is_array() && index && *index < node.size()) {
      next = &node.at(*index);
    }
    if (next == nullptr) {
      throw Error("metric '{}': the path '{}'{} in {} has no '{}' at '{}', which is {}: fix the path (JSON "
                  "Pointer like "
                  "/results/0/mean or dotted like results.0.mean)",
                  spec.name, path, where, detail::source_name(spec), step, steps.empty() ? "the top" : steps,
                  describe_node(node));
    }
    steps += "/" + step;
    walked = {next, walked.node};
  }
  return walked;
}

// The number (or array of numbers) at path, appended to values under key.
void read_path(const MetricSpec& spec, std::string_view path, const nlohmann::json& document,
               const std::string& key, std::string_view record, std::vector<ExtractedValue>& values)
{
  const auto [node, parent] = walk(spec, path, document, record);
  // A format that says its unit next to the value: cargo-criterion's {"estimate": 5.1, "unit": "ns"}.
  std::string unit;
  if (parent != nullptr && parent->is_object() && parent->contains("unit") && (*parent)["unit"].is_string()) {
    unit = (*parent)["unit"].get<std::string>();
  }
  const std::string where =
      "the value at '" + (path.empty() ? std::string("/") : std::string(path)) + "'" + std::string(record);
  if (node->is_array()) {
    if (node->empty()) {
      throw Error("metric '{}': {} in {} is an empty array: the program recorded no samples", spec.name,
                  where, detail::source_name(spec));
    }
    for (const auto& element : *node) {
      values.push_back(detail::make_value(key, json_number(spec, element, where), unit));
    }
    return;
  }
  values.push_back(detail::make_value(key, json_number(spec, *node, where), unit));
}

void check_path(const MetricSpec& spec, const std::string& path)
{
  if (path.empty()) {
    return;
  }
  if (path.front() == '/') {
    try {
      nlohmann::json::json_pointer pointer(path);
    } catch (const nlohmann::json::exception& error) {
      throw UsageError("metric '{}': '{}' is not a JSON Pointer ({}): write it like /results/0/mean",
                       spec.name, path, error.what());
    }
    return;
  }
  if (path.front() == '$' || path.find_first_of("[]*") != std::string::npos) {
    throw UsageError("metric '{}': '{}' is JSONPath, which ej does not read: write a JSON Pointer "
                     "(/results/0/mean) or a dotted path (results.0.mean)",
                     spec.name, path);
  }
  if (path.front() == '.' || path.back() == '.' || path.find("..") != std::string::npos) {
    throw UsageError("metric '{}': the dotted path '{}' has an empty step: write it like results.0.mean",
                     spec.name, path);
  }
}

} // namespace

void check_json(const MetricSpec& spec)
{
  const auto [path, per] = detail::split_per(spec.arg);
  check_path(spec, std::string(path));
  if (spec.arg.find(";per=") != std::string::npos) {
    if (per.empty()) {
      throw UsageError("metric '{}': ';per=' needs the field that keys each record, e.g. "
                       "json:output_throughput;per=request_rate",
                       spec.name);
    }
    check_path(spec, std::string(per));
  }
}

std::string unit_of_json(const MetricSpec& spec)
{
  const auto unit = unit_in_name(last_path_step(detail::split_per(spec.arg).body));
  return unit ? unit->symbol : "";
}

std::vector<ExtractedValue> read_json(const MetricSpec& spec, std::string_view text)
{
  const auto [path, per] = detail::split_per(spec.arg);
  std::vector<ExtractedValue> values;
  if (per.empty()) {
    read_path(spec, path, parse_json_output(spec, text), "", "", values);
    return values;
  }
  // One series per record, keyed by its `per` field: SGLang's and vLLM's appended results.
  const auto records = parse_json_records(spec, text);
  for (std::size_t i = 0; i < records.size(); ++i) {
    const std::string record = fmt::format(" of record {}", i + 1);
    const auto& field = *walk(spec, per, records[i], record).node;
    const std::string value = field.is_string() ? field.get<std::string>() : field.dump();
    read_path(spec, path, records[i], std::string(per) + "=" + value, record, values);
  }
  return values;
}

} // namespace ej::measure
