// torch: torch.utils.benchmark Measurement printouts (grammar in metric_spec.h).
#include "measure/extract_common.h"
#include "measure/readers.h"
#include "measure/units.h"
#include "util/error.h"
#include "util/strings.h"

namespace ej::measure {

namespace {

constexpr std::string_view k_start = "<torch.utils.benchmark.utils.common.Measurement object at";

std::size_t indent_of(std::string_view line)
{
  const auto first = line.find_first_not_of(" \t");
  return first == std::string_view::npos ? line.size() : first;
}

bool indented(std::string_view line)
{
  return indent_of(line) > 0;
}

// "  379.29 us" or "  Median: 162.08 us": the figure, without "Median:".
std::string_view figure_of(std::string_view line)
{
  auto figure = util::trim(line);
  if (figure.starts_with("Median:")) {
    figure = util::trim(figure.substr(7));
  }
  return figure;
}

// "  1 measurement, 100 runs , 1 thread", "  424 measurements, 1000 runs per measurement, 1 thread".
bool is_stats_line(std::string_view line)
{
  const auto trimmed = util::trim(line);
  const auto number = detail::number_at(trimmed);
  return number.length > 0 && trimmed.substr(number.length).starts_with(" measurement");
}

// A time line of a printout whose "<...Measurement object at ...>" line is missing (as users paste
// them): a time in a time unit, then (past an "IQR:" line) the statistics line.
bool is_bare_time_line(const std::vector<std::string_view>& lines, std::size_t i)
{
  if (!indented(lines[i])) {
    return false;
  }
  const auto figure = figure_of(lines[i]);
  const auto number = detail::number_at(figure);
  if (number.length == 0) {
    return false;
  }
  const auto unit = parse_unit(detail::unit_after(figure.substr(number.length)));
  if (!unit || unit->dimension != Dimension::Time) {
    return false;
  }
  std::size_t next = i + 1;
  if (next < lines.size() && util::trim(lines[next]).starts_with("IQR:")) {
    ++next;
  }
  return next < lines.size() && is_stats_line(lines[next]);
}

// The title of a printout without its first line: the nearest line above its time that is less
// indented, past its setup ("setup: ..." and the lines under it); "" when a previous printout's
// statistics come first.
std::string bare_title(const std::vector<std::string_view>& lines, std::size_t time_line)
{
  const auto indent = indent_of(lines[time_line]);
  for (std::size_t i = time_line; i-- > 0;) {
    if (is_stats_line(lines[i])) {
      return "";
    }
    if (indent_of(lines[i]) >= indent || util::trim(lines[i]).starts_with("setup:")) {
      continue;
    }
    return std::string(util::trim(lines[i]));
  }
  return "";
}

} // namespace

std::vector<ExtractedValue> read_torch(const MetricSpec& spec, std::string_view text)
{
  std::vector<ExtractedValue> values;
  std::vector<std::string> titles;
  std::optional<std::string> title; // set inside a printout until its time is read
  const auto lines = detail::text_lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto line = lines[i];
    if (line.starts_with(k_start)) {
      title = "";
      continue;
    }
    if (!title) {
      if (!is_bare_time_line(lines, i)) {
        continue;
      }
      title = bare_title(lines, i);
    } else if (!indented(line)) {
      // The title: "label: sub_label" or the statement, then "setup: ...", then the indented time.
      if (!line.starts_with("setup:")) {
        if (!title->empty()) {
          *title += ' ';
        }
        *title += util::trim(line);
      }
      continue;
    }
    const auto figure = figure_of(line);
    const auto number = detail::number_at(figure);
    if (number.length == 0) {
      continue;
    }
    if (!number.value) {
      throw Error("metric '{}': the time of '{}' in {} is '{}', which is not a finite number", spec.name,
                  *title, detail::source_name(spec), std::string(figure));
    }
    titles.push_back(*title);
    if (spec.arg.empty() || spec.arg == *title) {
      values.push_back(
          detail::make_value(*title, *number.value, detail::unit_after(figure.substr(number.length))));
    }
    title.reset();
  }
  if (values.empty()) {
    if (titles.empty()) {
      throw Error("metric '{}': {} holds no torch.utils.benchmark Measurement (print(timer.timeit(N)) or "
                  "print(timer.blocked_autorange())); its last lines were:\n{}",
                  spec.name, detail::source_name(spec), detail::output_tail(text));
    }
    throw Error("metric '{}': no Measurement in {} is titled '{}'; the titles are: {}", spec.name,
                detail::source_name(spec), spec.arg, util::join(titles, ", "));
  }
  return values;
}

} // namespace ej::measure
