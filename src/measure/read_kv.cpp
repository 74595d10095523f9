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

namespace {

// Reads kv values piece by piece: only lines that hold the key (or the ';per=' key) are looked
// at, found by searching the whole piece, so a long log costs a scan and no split into lines.
class KvScanner final : public LineScanner {
public:
  explicit KvScanner(const MetricSpec& spec) : m_spec(spec)
  {
    const auto split = detail::split_per(spec.arg);
    m_key = split.body;
    m_per = split.per;
  }

  void read(std::string_view text) override
  {
    std::size_t next_key = text.find(m_key);
    std::size_t next_per = m_per.empty() ? std::string_view::npos : text.find(m_per);
    std::size_t pos = 0;
    while (true) {
      const std::size_t hit = std::min(next_key, next_per);
      if (hit == std::string_view::npos) {
        return;
      }
      const auto before = text.substr(0, hit).find_last_of("\r\n");
      const std::size_t line_start = before == std::string_view::npos ? 0 : before + 1;
      const auto line_end = std::min(text.find_first_of("\r\n", hit), text.size());
      read_line(text.substr(line_start, line_end - line_start));
      pos = line_end + 1;
      if (pos >= text.size()) {
        return;
      }
      if (next_key < pos) {
        next_key = text.find(m_key, pos);
      }
      if (next_per < pos) {
        next_per = text.find(m_per, pos);
      }
    }
  }

  ValueList finish_list(const TextSource& output) override
  {
    if (m_values.empty()) {
      throw Error(
          "metric '{}': no line of {} has '{}' followed by '=' or ':' and a number; its last lines "
          "were:\n{}\nWrite the key exactly as printed (case, spaces, punctuation), or read stderr with "
          "'kv:stderr:KEY'.",
          m_spec.name, detail::source_name(m_spec), m_key, detail::source_tail(output));
    }
    return detail::within_limit(m_spec, std::move(m_values));
  }

private:
  void read_line(std::string_view line)
  {
    if (!m_per.empty()) {
      std::size_t from = 0;
      if (const auto i = value_start(line, m_per, from)) {
        m_block = std::string(m_per) + "=" + std::string(util::trim(line.substr(*i)));
      }
    }
    std::size_t from = 0;
    while (const auto i = value_start(line, m_key, from)) {
      const auto number = detail::number_at(line.substr(*i));
      if (!number.value) {
        const auto word_end = line.find_first_of(" \t", *i);
        const auto shown = line.substr(
            *i, number.length > 0 ? number.length
                                  : (word_end == std::string_view::npos ? line.size() : word_end) - *i);
        throw Error("metric '{}': the value of '{}' in {} is '{}', which is {}; check the line '{}'",
                    m_spec.name, m_key, detail::source_name(m_spec), util::sanitize_utf8(shown),
                    number.length > 0 ? "not a finite number" : "not a number",
                    util::first_line(util::sanitize_utf8(line), 200));
      }
      if (!m_per.empty() && !m_block) {
        throw Error(
            "metric '{}': '{}' is printed before any '{}' line in {}, so its value has no key: check the "
            "key after ';per=' against the line '{}'",
            m_spec.name, m_key, m_per, detail::source_name(m_spec),
            util::first_line(util::sanitize_utf8(line), 200));
      }
      const auto after = *i + number.length;
      m_values.add(m_block ? std::string_view(*m_block) : std::string_view(), *number.value,
                   detail::unit_after(line.substr(after)));
      from = after;
    }
  }

  const MetricSpec& m_spec;
  std::string_view m_key;
  std::string_view m_per;
  std::optional<std::string> m_block; // the last value of the `per` key printed
  ValueList m_values{max_values_per_repeat()};
};

} // namespace

std::unique_ptr<LineScanner> scan_kv(const MetricSpec& spec)
{
  return std::make_unique<KvScanner>(spec);
}

} // namespace ej::measure
