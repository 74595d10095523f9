// perf-stat: `perf stat` default output, in any locale's number format, and its `-x SEP` CSV
// (grammar in metric_spec.h).
#include "measure/extract_common.h"
#include "measure/readers.h"
#include "util/error.h"
#include "util/strings.h"

namespace ej::measure {

namespace {

struct Counter {
  std::string event; // as printed: "cycles:u", "cpu_core/cycles/", "task-clock"; "elapsed", "user", "sys"
  std::string value; // as printed: "1,036,537", "2.132,56", "<not counted>"
  std::string unit;  // "msec" for task-clock, "s" for the times, else empty (a count)
};

std::vector<std::string> words(std::string_view line)
{
  std::vector<std::string> out;
  for (auto& word : util::split(line, ' ')) {
    if (!word.empty()) {
      out.push_back(std::move(word));
    }
  }
  return out;
}

std::optional<Counter> counter_of(std::string_view line)
{
  const auto hash = line.find('#');
  const auto body = util::trim(line.substr(0, hash));
  if (body.empty()) {
    return std::nullopt;
  }
  if (body.starts_with("<not counted>") || body.starts_with("<not supported>")) {
    const auto close = body.find('>');
    const auto rest = words(body.substr(close + 1));
    if (rest.empty()) {
      return std::nullopt;
    }
    return Counter{rest.back(), std::string(body.substr(0, close + 1)), ""};
  }
  const auto parts = words(body);
  if (parts.size() < 2 || parts[0].find_first_not_of("0123456789.,") != std::string::npos) {
    return std::nullopt;
  }
  if (parts.size() == 4 && parts[1] == "seconds" && parts[2] == "time" && parts[3] == "elapsed") {
    return Counter{"elapsed", parts[0], "s"};
  }
  if (parts.size() == 3 && parts[1] == "seconds" && (parts[2] == "user" || parts[2] == "sys")) {
    return Counter{parts[2], parts[0], "s"};
  }
  if (parts.size() == 2) {
    return Counter{parts[1], parts[0], ""};
  }
  if (parts.size() == 3) {
    return Counter{parts[2], parts[0], parts[1]}; // "1.27 msec task-clock:u"
  }
  return std::nullopt;
}

// perf prints numbers in the user's locale: "1,036,537" and "0.0025" in English, "4.595.014.128"
// and "0,254" in German. The decimal mark is the one in the elapsed time, which always has one.
char decimal_mark(const std::vector<Counter>& counters)
{
  for (const auto& counter : counters) {
    if (counter.event == "elapsed") {
      return counter.value.find(',') != std::string::npos ? ',' : '.';
    }
  }
  return '.';
}

std::string plain_number(const std::string& text, char decimal)
{
  std::string out;
  for (char c : text) {
    if (c == decimal) {
      out += '.';
    } else if (c != ',' && c != '.') {
      out += c;
    }
  }
  return out;
}

bool selects(const std::string& event, std::string_view wanted)
{
  if (wanted.empty() || event == wanted) {
    return true;
  }
  // "cycles" also selects "cycles:u", "cpu_core/cycles/" and "cpu_atom/cycles/".
  const auto colon = event.rfind(':');
  const std::string bare = colon == std::string::npos ? event : event.substr(0, colon);
  if (bare == wanted) {
    return true;
  }
  const auto slash = bare.find('/');
  return slash != std::string::npos && bare.ends_with('/') &&
         bare.substr(slash + 1, bare.size() - slash - 2) == wanted;
}

// `perf stat -x SEP` rows: value SEP unit SEP event SEP run-time SEP pct [SEP metric SEP metric-unit].
// A row starts with the counter (digits) or "<not counted>"/"<not supported>" and the separator;
// the separator is the character after the first such row's counter.
std::optional<char> csv_separator(std::string_view line)
{
  std::size_t at = 0;
  if (line.starts_with("<not counted>") || line.starts_with("<not supported>")) {
    at = line.find('>') + 1;
  } else {
    at = line.find_first_not_of("0123456789.");
    if (at == 0 || at == std::string_view::npos) {
      return std::nullopt;
    }
  }
  if (at >= line.size()) {
    return std::nullopt;
  }
  const char c = line[at];
  // The separators perf is given in practice (not ':', which events hold: "cycles:u"); a blank or
  // a letter after a number is prose.
  if (std::string_view(",;|\t").find(c) == std::string_view::npos) {
    return std::nullopt;
  }
  return c;
}

// The counters of -x CSV, or nullopt when no line is one; throws when a counter row lacks its
// event column.
std::optional<std::vector<Counter>> csv_counters(const MetricSpec& spec, std::string_view text)
{
  std::optional<char> separator;
  std::vector<Counter> counters;
  for (const auto line : detail::text_lines(text)) {
    if (line.starts_with('#')) {
      continue; // "# started on ..."
    }
    if (!separator) {
      separator = csv_separator(line);
    }
    if (!separator || csv_separator(line) != separator) {
      continue; // metric rows (",,,,,2.7,%  tma_..."), and lines that are not perf's
    }
    const auto fields = util::split(line, *separator);
    if (fields.size() < 3 || util::trim(fields[2]).empty()) {
      throw Error(
          "metric '{}': perf stat's CSV row '{}' in {} has no event (expected value{}unit{}event{}...): "
          "was the output cut short?",
          spec.name, line, detail::source_name(spec), *separator, *separator, *separator);
    }
    counters.push_back(
        Counter{std::string(util::trim(fields[2])), fields[0], std::string(util::trim(fields[1]))});
  }
  if (counters.empty()) {
    return std::nullopt;
  }
  return counters;
}

} // namespace

std::vector<ExtractedValue> read_perf_stat(const MetricSpec& spec, std::string_view text)
{
  std::vector<Counter> counters;
  bool in_stats = false;
  for (const auto line : detail::text_lines(text)) {
    if (line.find("Performance counter stats for") != std::string_view::npos) {
      in_stats = true;
      continue;
    }
    if (in_stats) {
      if (auto counter = counter_of(line)) {
        counters.push_back(std::move(*counter));
      }
    }
  }
  if (!in_stats) {
    if (auto csv = csv_counters(spec, text)) {
      counters = std::move(*csv); // -x SEP prints plain numbers: '.' is the decimal mark
    }
  }
  const char decimal = in_stats ? decimal_mark(counters) : '.';
  std::vector<ExtractedValue> values;
  std::vector<std::string> events;
  for (const auto& counter : counters) {
    events.push_back(counter.event);
    if (!selects(counter.event, spec.arg)) {
      continue;
    }
    auto value = detail::make_value(counter.event, 0, counter.unit);
    // A count has no unit, and must not take task-clock's msec when no event is named.
    value.own_unit = counter.unit.empty();
    if (counter.value.starts_with('<')) {
      value.skipped = true;
      value.note = counter.value;
    } else {
      value.value = detail::parse_number(spec, plain_number(counter.value, decimal));
    }
    values.push_back(std::move(value));
  }
  if (values.empty()) {
    if (counters.empty()) {
      throw Error("metric '{}': {} holds no 'Performance counter stats for ...' block of perf stat, nor "
                  "rows of its -x CSV (value,unit,event,...); its last lines were:\n{}\n(perf stat prints to "
                  "stderr: read it with 'perf-stat:stderr:EVENT', or write it with -o FILE and read '@FILE')",
                  spec.name, detail::source_name(spec), detail::output_tail(text));
    }
    throw Error("metric '{}': perf stat in {} counted no event '{}'; it counted: {}", spec.name,
                detail::source_name(spec), spec.arg, util::join(events, ", "));
  }
  return values;
}

} // namespace ej::measure
