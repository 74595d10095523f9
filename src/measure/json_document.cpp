#include "measure/json_document.h"

#include "measure/extract_common.h"
#include "measure/readers.h"
#include "util/error.h"
#include "util/strings.h"

#include <algorithm>
#include <cmath>
#include <optional>

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

// Python's json module writes NaN, Infinity and -Infinity, which JSON lacks (SGLang's
// "request_rate": Infinity). They become the strings "NaN"..., so that the document reads and a
// metric whose value is one fails as not finite. Offsets of the quotes added are kept, to show
// errors at the place in the text as printed.
struct QuotedLiterals {
  std::string text;
  std::vector<std::size_t> added; // offsets in `text` of each quote added, ascending
};

QuotedLiterals quote_python_literals(std::string_view text)
{
  QuotedLiterals out;
  out.text.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out.text += c;
      if (c == '\\' && i + 1 < text.size()) {
        out.text += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      out.text += c;
      continue;
    }
    bool replaced = false;
    for (const std::string_view literal : {"-Infinity", "Infinity", "NaN"}) {
      const bool boundary_before =
          out.text.empty() || std::string_view(" \t\r\n:,[").find(out.text.back()) != std::string_view::npos;
      const auto end = i + literal.size();
      const bool boundary_after =
          end >= text.size() || std::string_view(" \t\r\n,]}").find(text[end]) != std::string_view::npos;
      if (boundary_before && boundary_after && text.substr(i, literal.size()) == literal) {
        out.added.push_back(out.text.size());
        out.text += '"';
        out.text += literal;
        out.added.push_back(out.text.size());
        out.text += '"';
        i = end - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) {
      out.text += c;
    }
  }
  return out;
}

std::optional<nlohmann::json> try_parse(std::string_view text, std::size_t start, ParseFailure& failure)
{
  // The whole rest of the text must be the document: "2023" followed by the rest of a log line's
  // date is not a number read, and text after the document is a mistake the user must see.
  const auto rest = text.substr(start);
  try {
    return nlohmann::json::parse(rest.begin(), rest.end());
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

// A '{', or a '[' and what a JSON array holds next: a log line's "[==========]", "[ RUN      ]" or
// "[info]" opens none, and is no document that fails to parse.
bool opens_document(std::string_view text, std::size_t pos)
{
  if (pos >= text.size() || (text[pos] != '{' && text[pos] != '[')) {
    return false;
  }
  if (text[pos] == '{') {
    return true;
  }
  const auto next = text.find_first_not_of(" \t\r\n", pos + 1);
  if (next == std::string_view::npos) {
    return false;
  }
  const auto rest = text.substr(next);
  return std::string_view("{[]\"-0123456789tfn").find(rest.front()) != std::string_view::npos ||
         rest.starts_with("NaN") || rest.starts_with("Infinity");
}

} // namespace

const nlohmann::json& tool_array(const MetricSpec& spec, const nlohmann::json& document,
                                 const std::string& key, std::string_view tool, std::string_view how)
{
  if (!document.is_object() || !document.contains(key) || !document[key].is_array()) {
    throw Error("metric '{}': {} is JSON but not {} (no '{}' array): {}", spec.name,
                detail::source_name(spec), tool, key, how);
  }
  return document[key];
}

bool has_json_start(std::string_view text)
{
  if (opens_document(text, text.find_first_not_of(" \t\r\n"))) {
    return true;
  }
  for (auto pos = text.find('\n'); pos != std::string_view::npos; pos = text.find('\n', pos + 1)) {
    if (opens_document(text, pos + 1)) {
      return true;
    }
  }
  return false;
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

nlohmann::json parse_json_output(const MetricSpec& spec, std::string_view text)
{
  if (util::trim(text).empty()) {
    throw Error(
        "metric '{}': {} is empty, so it holds no JSON: check that the program ran its benchmark and was "
        "told to print JSON there{}",
        spec.name, detail::source_name(spec),
        spec.file.empty() ? " (or to write it to a file: '@FILE')" : "");
  }
  const auto quoted = quote_python_literals(text);
  const std::string_view json = quoted.text;
  ParseFailure first;
  if (auto document = try_parse(json, 0, first)) {
    return std::move(*document); // a whole text that is one document, "12.5" included
  }
  if (!has_json_start(text)) {
    const auto& reader = reader_for(spec.kind);
    throw Error(
        "metric '{}': {} holds no JSON document (no line starts with '{{', or '[' and a value), where the {} "
        "reader expects {}; its last lines were:\n{}\nMake the program print its JSON there, or write it to "
        "a file and read that with '@FILE'.",
        spec.name, detail::source_name(spec), to_string(reader.kind), reader.help, detail::output_tail(text));
  }
  // A failure at the start counts only where a document starts there: "2023-05-21 ..." is a log
  // line whose date is no document with text after it.
  std::optional<ParseFailure> best;
  if (opens_document(json, json.find_first_not_of(" \t\r\n"))) {
    best = first;
  }
  // Output that starts with log lines: the document starts on a line opening with '{' or '['
  // (a log line may too: "[info] ..."). The attempt that read furthest explains the failure.
  int attempts = 0;
  for (std::size_t pos = json.find('\n'); pos != std::string_view::npos && attempts < 100;
       pos = json.find('\n', pos + 1)) {
    if (opens_document(json, pos + 1)) {
      ++attempts;
      ParseFailure attempt;
      if (auto document = try_parse(json, pos + 1, attempt)) {
        return std::move(*document);
      }
      if (!best || attempt.offset - attempt.start > best->offset - best->start) {
        best = attempt;
      }
    }
  }
  const ParseFailure failure = best.value_or(first); // has_json_start saw where one starts
  // Back to an offset in the text as printed, without the quotes added.
  const auto added_before = static_cast<std::size_t>(
      std::lower_bound(quoted.added.begin(), quoted.added.end(), failure.offset) - quoted.added.begin());
  const auto offset = failure.offset - added_before;
  if (failure.reason.find("; expected end of input") != std::string::npos) {
    const auto rest = util::trim(text.substr(std::min(offset, text.size())));
    if (rest.starts_with('{') || rest.starts_with('[')) {
      throw Error("metric '{}': {} holds more than one JSON document (JSON Lines, one record per line?); the "
                  "second starts at {}. Make the program write one document per run, or read one record.",
                  spec.name, detail::source_name(spec), describe_position(text, offset));
    }
    throw Error(
        "metric '{}': {} has text after its JSON document, at {}. Make the program print only its JSON "
        "there, or write it to a file and read that with '@FILE'.",
        spec.name, detail::source_name(spec), describe_position(text, offset));
  }
  throw Error("metric '{}': {} is not valid JSON ({}) at {}. Make the program print only its JSON there, or "
              "write it to a file and read that with '@FILE'.",
              spec.name, detail::source_name(spec), failure.reason, describe_position(text, offset));
}

std::vector<nlohmann::json> parse_json_records(const MetricSpec& spec, std::string_view text)
{
  const auto quoted = quote_python_literals(text);
  ParseFailure ignored;
  if (auto document = try_parse(quoted.text, 0, ignored)) {
    return {std::move(*document)};
  }
  std::vector<nlohmann::json> records;
  std::size_t number = 0;
  for (const auto& line : util::lines(quoted.text)) {
    ++number;
    const auto trimmed = util::trim(line);
    if (!trimmed.starts_with('{')) {
      continue; // a log line between records
    }
    try {
      records.push_back(nlohmann::json::parse(trimmed));
    } catch (const nlohmann::json::parse_error& error) {
      throw Error("metric '{}': the record on line {} of {} is not valid JSON ({}): '{}'. Each line of JSON "
                  "Lines must be one whole document; was the file cut short?",
                  spec.name, number, detail::source_name(spec), short_reason(error.what()),
                  util::first_line(util::sanitize_utf8(std::string(trimmed)), 120));
    }
  }
  if (records.empty()) {
    // Not records either: the single-document reading explains best what is wrong.
    return {parse_json_output(spec, text)};
  }
  return records;
}

double json_number(const MetricSpec& spec, const nlohmann::json& value, std::string_view where)
{
  if (value.is_number()) {
    const double number = value.get<double>();
    if (!std::isfinite(number)) {
      throw Error("metric '{}': {} in {} is {}, not a finite number", spec.name, where,
                  detail::source_name(spec), number);
    }
    return number;
  }
  if (value.is_string()) {
    return detail::parse_number(spec, value.get<std::string>());
  }
  throw Error("metric '{}': {} in {} is {}, not a number", spec.name, where, detail::source_name(spec),
              describe_node(value));
}

} // namespace ej::measure
