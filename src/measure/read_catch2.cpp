// catch2: Catch2's console benchmark table and its XML reporter (grammar in metric_spec.h).
#include "measure/extract_common.h"
#include "measure/readers.h"
#include "util/error.h"
#include "util/strings.h"

#include <pugixml.hpp>
#include <re2/re2.h>

#include <array>

namespace ej::measure {

namespace {

// The statistic of each of the two lines under a benchmark's name: mean, low mean, high mean;
// std dev, low std dev, high std dev.
constexpr std::array<std::string_view, 6> k_catch2_stats{"mean",    "low_mean",    "high_mean",
                                                         "std_dev", "low_std_dev", "high_std_dev"};

struct Catch2Arg {
  std::string name;
  std::size_t stat = 0;
};

std::optional<Catch2Arg> parse_catch2_arg(std::string_view arg)
{
  const auto [name, stat] = detail::split_hash(arg);
  Catch2Arg out;
  out.name = std::string(name);
  if (!stat) {
    return out;
  }
  for (std::size_t i = 0; i < k_catch2_stats.size(); ++i) {
    if (k_catch2_stats[i] == *stat) {
      out.stat = i;
      return out;
    }
  }
  return std::nullopt;
}

// The element and attribute of a <BenchmarkResults> that hold each statistic (ns).
struct XmlStat {
  std::string_view element;
  std::string_view attribute;
};
constexpr std::array<XmlStat, 6> k_xml_stats{{{"mean", "value"},
                                              {"mean", "lowerBound"},
                                              {"mean", "upperBound"},
                                              {"standardDeviation", "value"},
                                              {"standardDeviation", "lowerBound"},
                                              {"standardDeviation", "upperBound"}}};

bool is_xml(std::string_view text)
{
  const auto start = text.find_first_not_of(" \t\r\n");
  return start != std::string_view::npos && text[start] == '<';
}

// `-r xml`: <BenchmarkResults name="..."> holding <mean value=... lowerBound=... upperBound=.../> and
// <standardDeviation .../>, in Catch2 v2's <Catch> and v3's <Catch2TestRun> alike.
std::vector<ExtractedValue> read_catch2_xml(const MetricSpec& spec, const Catch2Arg& arg,
                                            std::string_view text)
{
  pugi::xml_document document;
  const auto parsed = document.load_buffer(text.data(), text.size());
  if (!parsed) {
    throw Error(
        "metric '{}': {} is not well-formed XML ({} at byte {}): is it Catch2's whole '-r xml' report, "
        "or was it cut short?",
        spec.name, detail::source_name(spec), parsed.description(), parsed.offset);
  }
  const auto& wanted = k_xml_stats[arg.stat];
  std::vector<ExtractedValue> values;
  std::vector<std::string> names;
  for (const auto& node : document.select_nodes("//BenchmarkResults")) {
    const auto results = node.node();
    const std::string name = results.attribute("name").value();
    names.push_back(name);
    if (!arg.name.empty() && arg.name != name) {
      continue;
    }
    const auto figure =
        results.child(std::string(wanted.element).c_str()).attribute(std::string(wanted.attribute).c_str());
    if (!figure) {
      throw Error("metric '{}': Catch2's benchmark '{}' in {} has no <{} {}=...>: expected a mean and a "
                  "standardDeviation, each with value, lowerBound and upperBound",
                  spec.name, name, detail::source_name(spec), wanted.element, wanted.attribute);
    }
    values.push_back(detail::make_value(name, detail::parse_number(spec, figure.value()), "ns"));
  }
  if (values.empty()) {
    if (names.empty()) {
      throw Error("metric '{}': {} is XML but holds no Catch2 <BenchmarkResults>: were the benchmarks run "
                  "(they are skipped with --skip-benchmarks, or hidden behind a tag)?",
                  spec.name, detail::source_name(spec));
    }
    throw Error("metric '{}': Catch2 ran no benchmark '{}' in {}; it ran: {}", spec.name, arg.name,
                detail::source_name(spec), util::join(names, ", "));
  }
  return values;
}

} // namespace

void check_catch2(const MetricSpec& spec)
{
  if (!parse_catch2_arg(spec.arg)) {
    throw UsageError(
        "metric '{}': catch2 reads NAME#STAT with STAT one of mean, low_mean, high_mean, std_dev, "
        "low_std_dev, high_std_dev",
        spec.name);
  }
}

std::vector<ExtractedValue> read_catch2(const MetricSpec& spec, std::string_view text)
{
  const auto arg = *parse_catch2_arg(spec.arg);
  if (is_xml(text)) {
    return read_catch2_xml(spec, arg, text);
  }
  // "Fibonacci 20      100      2     8.3712 ms", then "  41.731 us  41.25 us  42.622 us" twice.
  static const re2::RE2 k_row(R"(^(\S.*?)\s+(\d+)\s+(\d+)\s+([0-9.]+) (\S+)\s*$)");
  static const re2::RE2 k_figures(R"(^\s+([0-9.e+-]+) (\S+)\s+([0-9.e+-]+) (\S+)\s+([0-9.e+-]+) (\S+)\s*$)");
  const auto lines = detail::text_lines(text);
  std::vector<ExtractedValue> values;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string name;
    std::string samples;
    std::string iterations;
    std::string estimated;
    std::string unit;
    if (!re2::RE2::FullMatch(std::string(lines[i]), k_row, &name, &samples, &iterations, &estimated, &unit)) {
      continue;
    }
    const std::size_t line = i + 1 + arg.stat / 3;
    std::array<std::string, 6> figures;
    if (line >= lines.size() ||
        !re2::RE2::FullMatch(std::string(lines[line]), k_figures, &figures[0], &figures[1], &figures[2],
                             &figures[3], &figures[4], &figures[5])) {
      throw Error(
          "metric '{}': Catch2's benchmark '{}' in {} lacks its mean and std dev lines (three figures "
          "with units each): was the output cut short?",
          spec.name, name, detail::source_name(spec));
    }
    names.push_back(name);
    if (!arg.name.empty() && arg.name != name) {
      continue;
    }
    const auto at = (arg.stat % 3) * 2;
    values.push_back(detail::make_value(name, detail::parse_number(spec, figures[at]), figures[at + 1]));
  }
  if (values.empty()) {
    if (names.empty()) {
      throw Error("metric '{}': {} holds no Catch2 benchmark table ('benchmark name  samples  iterations  "
                  "estimated' and its rows); its last lines were:\n{}",
                  spec.name, detail::source_name(spec), detail::output_tail(text));
    }
    throw Error("metric '{}': Catch2 ran no benchmark '{}' in {}; it ran: {}", spec.name, arg.name,
                detail::source_name(spec), util::join(names, ", "));
  }
  return values;
}

} // namespace ej::measure
