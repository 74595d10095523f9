// perf-stat: `perf stat` default output, in any locale's number format (grammar in metric_spec.h).
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
  const char decimal = decimal_mark(counters);
  std::vector<ExtractedValue> values;
  std::vector<std::string> events;
  for (const auto& counter : counters) {
    events.push_back(counter.event);
    if (!selects(counter.event, spec.arg)) {
      continue;
    }
    auto value = detail::make_value(counter.event, 0, counter.unit);
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
      throw Error("metric '{}': {} holds no 'Performance counter stats for ...' block of perf stat; its last "
                  "lines were:\n{}\n(perf stat prints to stderr: read it with 'perf-stat:stderr:EVENT', or "
                  "write it with -o FILE and read '@FILE')",
                  spec.name, detail::source_name(spec), detail::output_tail(text));
    }
    throw Error("metric '{}': perf stat in {} counted no event '{}'; it counted: {}", spec.name,
                detail::source_name(spec), spec.arg, util::join(events, ", "));
  }
  return values;
}

} // namespace ej::measure
