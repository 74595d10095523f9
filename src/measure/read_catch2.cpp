// catch2: Catch2's console benchmark table (grammar in metric_spec.h).
#include "measure/extract_common.h"
#include "measure/readers.h"
#include "util/error.h"
#include "util/strings.h"

#include <re2/re2.h>

#include <array>

namespace ej::measure {

namespace {

// The statistic of each of the two lines under a benchmark's name: mean, low mean, high mean;
// std dev, low std dev, high std dev.
constexpr std::array<std::string_view, 6> k_stats{"mean",    "low_mean",    "high_mean",
                                                  "std_dev", "low_std_dev", "high_std_dev"};

struct Catch2Arg {
  std::string name;
  std::size_t stat = 0;
};

std::optional<Catch2Arg> parse_arg(std::string_view arg)
{
  Catch2Arg out;
  const auto hash = arg.rfind('#');
  out.name = std::string(arg.substr(0, hash));
  if (hash == std::string_view::npos) {
    return out;
  }
  const auto stat = arg.substr(hash + 1);
  for (std::size_t i = 0; i < k_stats.size(); ++i) {
    if (k_stats[i] == stat) {
      out.stat = i;
      return out;
    }
  }
  return std::nullopt;
}

} // namespace

void check_catch2(const MetricSpec& spec)
{
  if (!parse_arg(spec.arg)) {
    throw UsageError(
        "metric '{}': catch2 reads NAME#STAT with STAT one of mean, low_mean, high_mean, std_dev, "
        "low_std_dev, high_std_dev",
        spec.name);
  }
}

std::vector<ExtractedValue> read_catch2(const MetricSpec& spec, std::string_view text)
{
  const auto arg = *parse_arg(spec.arg);
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
