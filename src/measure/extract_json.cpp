#include "measure/extract_json.h"

#include "measure/extract_common.h"
#include "util/error.h"
#include "util/strings.h"

#include <cmath>
#include <sstream>

namespace ej::measure {

namespace {

struct ParseFailure {
  std::size_t start = 0;  // where parsing started
  std::size_t offset = 0; // bytes from the start of the whole text
  std::string reason;
};

// The reason without nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 2: "
// prefix, whose position would be relative to where parsing started.
std::string short_reason(const std::string& what)
{
  const auto colon = what.find(": ");
  return colon == std::string::npos ? what : what.substr(colon + 2);
}

std::optional<nlohmann::json> try_parse(std::string_view text, std::size_t start, ParseFailure& failure)
{
  // A stream stops after the first complete value, so a log line after the JSON does no harm.
  std::istringstream in{std::string(text.substr(start))};
  nlohmann::json document;
  try {
    in >> document;
    return document;
  } catch (const nlohmann::json::parse_error& error) {
    failure.start = start;
    failure.offset = start + (error.byte > 0 ? error.byte - 1 : 0);
    failure.reason = short_reason(error.what());
    return std::nullopt;
  }
}

std::string describe_position(std::string_view text, std::size_t offset)
{
  offset = std::min(offset, text.size());
  std::size_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  const auto line_end = text.find('\n', line_start);
  const auto content = text.substr(line_start, line_end == std::string_view::npos ? std::string_view::npos
                                                                                  : line_end - line_start);
  return fmt::format("line {}, column {}: '{}'", line, offset - line_start + 1,
                     util::first_line(util::sanitize_utf8(content), 120));
}

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

std::string describe_node(const nlohmann::json& node)
{
  if (node.is_object()) {
    std::vector<std::string> keys;
    for (const auto& item : node.items()) {
      if (keys.size() == 20) {
        keys.push_back("...");
        break;
      }
      keys.push_back("'" + item.key() + "'");
    }
    return keys.empty() ? "an empty object" : "an object with keys " + util::join(keys, ", ");
  }
  if (node.is_array()) {
    return fmt::format("an array of {} elements (indexes 0 to {})", node.size(),
                       node.empty() ? 0 : node.size() - 1);
  }
  return fmt::format("the {} {}", node.type_name(), util::first_line(node.dump(), 60));
}

} // namespace

nlohmann::json parse_json_output(const MetricSpec& spec, std::string_view text)
{
  if (util::trim(text).empty()) {
    throw Error(
        "metric '{}': {} is empty, so it holds no JSON: check that the program ran its benchmark and was "
        "told to print JSON there{}",
        spec.name, detail::source_name(spec),
        spec.file.empty() ? " (or to write it to a file: '@FILE')" : "");
  }
  ParseFailure first;
  if (auto document = try_parse(text, 0, first)) {
    return std::move(*document);
  }
  // Output that starts with log lines: the document starts on a line opening with '{' or '['
  // (a log line may too: "[info] ..."). The attempt that read furthest explains the failure.
  ParseFailure failure = first;
  int attempts = 0;
  for (std::size_t pos = text.find('\n'); pos != std::string_view::npos && attempts < 100;
       pos = text.find('\n', pos + 1)) {
    if (pos + 1 < text.size() && (text[pos + 1] == '{' || text[pos + 1] == '[')) {
      ++attempts;
      ParseFailure attempt;
      if (auto document = try_parse(text, pos + 1, attempt)) {
        return std::move(*document);
      }
      if (attempt.offset - (pos + 1) > failure.offset - failure.start) {
        failure = attempt;
      }
    }
  }
  const auto at = text.substr(std::min(failure.offset, text.size()));
  const bool not_finite = at.starts_with("NaN") || at.starts_with("Infinity") || at.starts_with("-Infinity");
  throw Error("metric '{}': {} is not valid JSON ({}) at {}. {}", spec.name, detail::source_name(spec),
              failure.reason, describe_position(text, failure.offset),
              not_finite
                  ? "NaN and Infinity are not JSON numbers: make the program print finite numbers."
                  : "Make the program print only its JSON there, or write it to a file and read that with "
                    "'@FILE'.");
}

double json_number(const MetricSpec& spec, const nlohmann::json& value, std::string_view where)
{
  if (value.is_number()) {
    const double number = value.get<double>();
    if (!std::isfinite(number)) {
      throw Error("metric '{}': {} is {}, not a finite number", spec.name, where, number);
    }
    return number;
  }
  if (value.is_string()) {
    return detail::parse_number(spec, value.get<std::string>());
  }
  throw Error("metric '{}': {} is {}, not a number", spec.name, where, describe_node(value));
}

std::vector<ExtractedValue> extract_json_path(const MetricSpec& spec, const nlohmann::json& document)
{
  const nlohmann::json* node = &document;
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
    node = next;
  }
  const std::string where = "the value at '" + (spec.arg.empty() ? std::string("/") : spec.arg) + "'";
  std::vector<ExtractedValue> values;
  if (node->is_array()) {
    for (const auto& element : *node) {
      values.push_back(detail::make_value("", json_number(spec, element, where), spec.unit));
    }
    if (values.empty()) {
      throw Error("metric '{}': {} is an empty array: the program recorded no samples", spec.name, where);
    }
    return values;
  }
  values.push_back(detail::make_value("", json_number(spec, *node, where), spec.unit));
  return values;
}

} // namespace ej::measure
