// kv: "KEY: value unit" and "KEY=value" lines (grammar in metric_spec.h).
#include "measure/extract_common.h"
#include "measure/readers.h"
#include "measure/units.h"
#include "util/error.h"
#include "util/strings.h"

namespace ej::measure {

namespace {

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
  while (end > 0 && detail::is_blank(line[end - 1])) {
    --end;
  }
  std::size_t begin = end;
  while (begin > 0 && !detail::is_blank(line[begin - 1])) {
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

// Where the value after `key` and its '=' or ':' starts in line, searching from `from` (moved
// past the key); nullopt when the line holds the key no more.
std::optional<std::size_t> value_start(std::string_view line, std::string_view key, std::size_t& from)
{
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
    while (i < line.size() && detail::is_blank(line[i])) {
      ++i;
    }
    if (i == line.size() || (line[i] != '=' && line[i] != ':')) {
      continue; // the key is part of a longer name, or prose
    }
    ++i;
    while (i < line.size() && detail::is_blank(line[i])) {
      ++i;
    }
    return i;
  }
  return std::nullopt;
}

} // namespace

void check_kv(const MetricSpec& spec)
{
  if (detail::split_per(spec.arg).body.empty() || spec.arg.find('\n') != std::string::npos) {
    throw UsageError("metric '{}': kv needs the key as printed, on one line: write e.g. "
                     "--metric 'tok_s=kv:Output token throughput (tok/s)'",
                     spec.name);
  }
}

std::string unit_of_kv(const MetricSpec& spec)
{
  const auto unit = unit_in_name(detail::split_per(spec.arg).body);
  return unit ? unit->symbol : "";
}

std::vector<ExtractedValue> read_kv(const MetricSpec& spec, std::string_view text)
{
  const auto [key, per] = detail::split_per(spec.arg);
  std::optional<std::string> block; // the last value of the `per` key printed
  std::vector<ExtractedValue> values;
  for (const auto line : detail::text_lines(text)) {
    if (!per.empty()) {
      std::size_t from = 0;
      if (const auto i = value_start(line, per, from)) {
        block = std::string(per) + "=" + std::string(util::trim(line.substr(*i)));
      }
    }
    std::size_t from = 0;
    while (const auto i = value_start(line, key, from)) {
      const auto number = detail::number_at(line.substr(*i));
      if (!number.value) {
        const auto word_end = line.find_first_of(" \t", *i);
        const auto shown = line.substr(
            *i, number.length > 0 ? number.length
                                  : (word_end == std::string_view::npos ? line.size() : word_end) - *i);
        throw Error("metric '{}': the value of '{}' is '{}', which is {}; check the line '{}'", spec.name,
                    key, util::sanitize_utf8(shown),
                    number.length > 0 ? "not a finite number" : "not a number",
                    util::first_line(util::sanitize_utf8(line), 200));
      }
      if (!per.empty() && !block) {
        throw Error(
            "metric '{}': '{}' is printed before any '{}' line in {}, so its value has no key: check the "
            "key after ';per=' against the line '{}'",
            spec.name, key, per, detail::source_name(spec), util::first_line(util::sanitize_utf8(line), 200));
      }
      const auto after = *i + number.length;
      values.push_back(
          detail::make_value(block.value_or(""), *number.value, detail::unit_after(line.substr(after))));
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
