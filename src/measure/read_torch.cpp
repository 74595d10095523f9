// torch: torch.utils.benchmark Measurement printouts (grammar in metric_spec.h).
#include "measure/extract_common.h"
#include "measure/readers.h"
#include "util/error.h"
#include "util/strings.h"

namespace ej::measure {

namespace {

constexpr std::string_view k_start = "<torch.utils.benchmark.utils.common.Measurement object at";

bool indented(std::string_view line)
{
  return !line.empty() && (line.front() == ' ' || line.front() == '\t');
}

} // namespace

std::vector<ExtractedValue> read_torch(const MetricSpec& spec, std::string_view text)
{
  std::vector<ExtractedValue> values;
  std::vector<std::string> titles;
  std::optional<std::string> title; // set inside a printout until its time is read
  for (const auto line : detail::text_lines(text)) {
    if (line.starts_with(k_start)) {
      title = "";
      continue;
    }
    if (!title) {
      continue;
    }
    // The title: "label: sub_label" or the statement, then "setup: ...", then the indented time.
    if (!indented(line)) {
      if (!line.starts_with("setup:")) {
        if (!title->empty()) {
          *title += ' ';
        }
        *title += util::trim(line);
      }
      continue;
    }
    auto figure = util::trim(line);
    if (figure.starts_with("Median:")) {
      figure = util::trim(figure.substr(7));
    }
    const auto number = detail::number_at(figure);
    if (number.length == 0) {
      continue;
    }
    if (!number.value) {
      throw Error("metric '{}': the time of '{}' is '{}', which is not a finite number", spec.name, *title,
                  std::string(figure));
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
