#include "measure/extract_text.h"

#include "measure/extract_common.h"
#include "measure/units.h"
#include "util/error.h"
#include "util/strings.h"

#include <re2/re2.h>

#include <array>
#include <charconv>
#include <cmath>

namespace ej::measure {

namespace {

bool is_blank(char c)
{
  return c == ' ' || c == '\t';
}

bool is_word_char(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool is_letter(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// A key found inside a line counts when it starts the line, or follows something that is not
// a plain word: "[INFO] rate=5" and "a=1 rate=5" match `rate`, "Peak output rate: 5" does not
// match `output rate`, whose value it is not.
bool key_starts_here(std::string_view line, std::size_t pos, std::string_view key)
{
  if (pos > 0 && is_word_char(line[pos - 1]) && is_word_char(key.front())) {
    return false;
  }
  std::size_t end = pos;
  while (end > 0 && is_blank(line[end - 1])) {
    --end;
  }
  std::size_t begin = end;
  while (begin > 0 && !is_blank(line[begin - 1])) {
    --begin;
  }
  if (begin == end) {
    return true; // only blanks before the key
  }
  if (end == pos) {
    return true; // glued to punctuation, e.g. "(rate=5)" or ",rate=5"
  }
  for (std::size_t i = begin; i < end; ++i) {
    if (!is_letter(line[i])) {
      return true;
    }
  }
  return false;
}

// The unit written after a number: glued ("3.2ms", "45%") or the next token ("12.5 ms") unless
// that token is the start of another pair or a remark.
std::string unit_after(std::string_view rest)
{
  std::size_t i = 0;
  const bool glued = !rest.empty() && !is_blank(rest.front());
  while (!glued && i < rest.size() && is_blank(rest[i])) {
    ++i;
  }
  std::size_t end = i;
  while (end < rest.size() && !is_blank(rest[end])) {
    ++end;
  }
  std::string_view token = rest.substr(i, end - i);
  while (!token.empty() && std::string_view(",;").find(token.back()) != std::string_view::npos) {
    token.remove_suffix(1);
  }
  // "avg 12.1 min 10.0 max 14.2": the next statistic's name, not minutes.
  if (token == "min" || token == "max") {
    return "";
  }
  if (token.empty() || token.find_first_of("=:") != std::string_view::npos ||
      std::string_view("([{<#\"'0123456789+-.,;").find(token.front()) != std::string_view::npos) {
    return "";
  }
  return std::string(token);
}

struct NumberAt {
  std::optional<double> value; // nullopt: not a finite number
  std::size_t length = 0;      // characters read (0 when nothing number-like)
};

bool is_digit(char c)
{
  return c >= '0' && c <= '9';
}

// Length of "63,845" or "1,234,567.5" style grouping at the start of text, 0 when there is none.
std::size_t grouped_length(std::string_view text)
{
  std::size_t i = 0;
  while (i < text.size() && i < 3 && is_digit(text[i])) {
    ++i;
  }
  if (i == 0) {
    return 0;
  }
  std::size_t groups = 0;
  while (i + 3 < text.size() && text[i] == ',' && is_digit(text[i + 1]) && is_digit(text[i + 2]) &&
         is_digit(text[i + 3]) && (i + 4 == text.size() || !is_digit(text[i + 4]))) {
    i += 4;
    ++groups;
  }
  return groups > 0 ? i : 0;
}

NumberAt number_at(std::string_view text)
{
  const std::size_t sign = text.starts_with('+') || text.starts_with('-') ? 1 : 0;
  std::string ungrouped;
  std::size_t grouped = grouped_length(text.substr(sign));
  std::string_view parsed = text;
  if (grouped > 0) {
    ungrouped = std::string(text.substr(0, sign + grouped));
    std::erase(ungrouped, ',');
    const std::size_t kept = ungrouped.size();
    ungrouped += text.substr(sign + grouped);
    parsed = ungrouped;
    grouped = sign + grouped - kept; // commas removed
  }
  const std::size_t skip = parsed.starts_with('+') ? 1 : 0;
  double value = 0;
  const auto [end, error] = std::from_chars(parsed.data() + skip, parsed.data() + parsed.size(), value);
  if (error != std::errc() && error != std::errc::result_out_of_range) {
    return {std::nullopt, 0};
  }
  const auto length = static_cast<std::size_t>(end - parsed.data()) + grouped;
  if (error == std::errc::result_out_of_range || !std::isfinite(value)) {
    return {std::nullopt, length};
  }
  return {value, length};
}

std::vector<std::string_view> text_lines(std::string_view text)
{
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == '\n' || text[i] == '\r') {
      if (i > start) {
        out.push_back(text.substr(start, i - start));
      }
      start = i + 1;
    }
  }
  return out;
}

} // namespace

std::unique_ptr<re2::RE2> compile_metric_pattern(std::string_view metric, std::string_view pattern)
{
  re2::RE2::Options options;
  options.set_log_errors(false);
  // Multi-line mode: output is read line by line by people, so ^ and $ mean line ends.
  auto regex = std::make_unique<re2::RE2>("(?m)" + std::string(pattern), options);
  if (!regex->ok()) {
    // The message of the pattern as written, without the (?m) ej added.
    const re2::RE2 as_written(std::string(pattern), options);
    throw UsageError("metric '{}': the pattern '{}' does not compile: {}", metric, pattern,
                     as_written.ok() ? regex->error() : as_written.error());
  }
  if (regex->NumberOfCapturingGroups() != 1) {
    throw UsageError(
        "metric '{}': the pattern '{}' has {} capture groups; it needs exactly one around the number "
        "(use (?:...) for other groups), e.g. 'verify: ([0-9.]+) ms'",
        metric, pattern, regex->NumberOfCapturingGroups());
  }
  return regex;
}

std::vector<ExtractedValue> extract_regex(const MetricSpec& spec, std::string_view text)
{
  const auto regex = compile_metric_pattern(spec.name, spec.arg);
  std::vector<ExtractedValue> values;
  const re2::StringPiece input(text.data(), text.size());
  std::array<re2::StringPiece, 2> groups;
  std::string known_unit; // the last unit text that parse_unit knew
  std::size_t pos = 0;
  while (pos <= input.size() && regex->Match(input, pos, input.size(), re2::RE2::UNANCHORED, groups.data(),
                                             static_cast<int>(groups.size()))) {
    if (groups[1].data() != nullptr) { // an optional group that took no part yields nothing
      const std::string_view captured(groups[1].data(), groups[1].size());
      // The unit printed after the number, whether the pattern matched it or not ("14.5 ms").
      // Only the next token matters: a bounded look, however long the line.
      const auto after = static_cast<std::size_t>(groups[1].data() - input.data()) + groups[1].size();
      auto rest = text.substr(after, 64);
      rest = rest.substr(0, rest.find_first_of("\r\n"));
      std::string unit = unit_after(rest);
      if (unit != known_unit && !parse_unit(unit)) {
        unit.clear();
      } else {
        known_unit = unit;
      }
      values.push_back(detail::make_value(
          "", detail::parse_number(spec, detail::without_digit_groups(captured)), std::move(unit)));
    }
    const auto end = static_cast<std::size_t>(groups[0].data() - input.data()) + groups[0].size();
    pos = groups[0].empty() ? end + 1 : end; // an empty match must still move on
  }
  if (values.empty()) {
    throw Error("metric '{}': the pattern '{}' matched nothing in {}; its last lines were:\n{}\n"
                "Check the pattern against this output (or read stderr with 'regex:stderr:...').",
                spec.name, spec.arg, detail::source_name(spec), detail::output_tail(text));
  }
  return values;
}

std::vector<ExtractedValue> extract_kv(const MetricSpec& spec, std::string_view text)
{
  const std::string_view key = spec.arg;
  std::vector<ExtractedValue> values;
  for (const auto line : text_lines(text)) {
    std::size_t from = 0;
    while (from < line.size()) {
      const auto pos = line.find(key, from);
      if (pos == std::string_view::npos) {
        break;
      }
      from = pos + 1;
      if (!key_starts_here(line, pos, key)) {
        continue;
      }
      std::size_t i = pos + key.size();
      while (i < line.size() && is_blank(line[i])) {
        ++i;
      }
      if (i == line.size() || (line[i] != '=' && line[i] != ':')) {
        continue; // the key is part of a longer name, or prose
      }
      ++i;
      while (i < line.size() && is_blank(line[i])) {
        ++i;
      }
      const auto number = number_at(line.substr(i));
      if (!number.value) {
        const auto word_end = line.find_first_of(" \t", i);
        const auto shown = line.substr(
            i, number.length > 0 ? number.length
                                 : (word_end == std::string_view::npos ? line.size() : word_end) - i);
        throw Error("metric '{}': the value of '{}' is '{}', which is {}; check the line '{}'", spec.name,
                    key, util::sanitize_utf8(shown),
                    number.length > 0 ? "not a finite number" : "not a number",
                    util::first_line(util::sanitize_utf8(line), 200));
      }
      const auto after = i + number.length;
      values.push_back(detail::make_value("", *number.value, unit_after(line.substr(after))));
      from = after;
    }
  }
  if (values.empty()) {
    throw Error(
        "metric '{}': no line of {} has '{}' followed by '=' or ':' and a number; its last lines were:\n{}\n"
        "Write the key exactly as printed (case, spaces, punctuation), or read stderr with 'kv:stderr:KEY'.",
        spec.name, detail::source_name(spec), key, detail::output_tail(text));
  }
  return values;
}

} // namespace ej::measure
