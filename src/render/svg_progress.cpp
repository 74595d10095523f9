#include "render/number_format.h"
#include "render/svg_chart.h"
#include "render/svg_parts.h"
#include "util/time.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ej::render {

namespace {

using namespace svg;

constexpr std::int64_t k_day_ms = 86'400'000;

struct TimeAxis {
  std::int64_t start = 0;
  std::int64_t end = 1;

  double x(std::int64_t time) const
  {
    return k_left + 12 +
           static_cast<double>(time - start) / static_cast<double>(end - start) * (k_plot_width - 24);
  }
};

// Dates under the x axis: whole days, about six of them.
void time_ticks(std::string& out, const TimeAxis& axis)
{
  const auto first_day = axis.start / k_day_ms;
  const auto last_day = axis.end / k_day_ms;
  const auto step = std::max<std::int64_t>(1, (last_day - first_day + 5) / 6);
  for (auto day = first_day; day <= last_day; day += step) {
    const auto time = day * k_day_ms;
    if (time < axis.start - k_day_ms / 2) {
      continue;
    }
    const auto x = px(axis.x(std::max(time, axis.start)));
    add(out, "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#eeeeee\"/>\n", x, px(k_top),
        px(k_plot_bottom));
    add(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\">{}</text>\n", x,
        px(k_plot_bottom + 16), util::format_date(time).substr(5));
  }
}

// A line that holds each value from its time to the next one's, and the last to the end; a dot
// and a label at each step.
void steps(std::string& out, const std::vector<ProgressStep>& values, const TimeAxis& axis,
           const Scale& scale, std::string_view colour, bool label_below)
{
  std::string path;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto x = axis.x(values[i].time_ms);
    const auto y = scale.y(values[i].value);
    path += i == 0 ? fmt::format("M{} {}", px(x), px(y)) : fmt::format("H{}V{}", px(x), px(y));
  }
  path += fmt::format("H{}", px(axis.x(axis.end)));
  add(out, "<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>\n", path, colour);
  for (const auto& step : values) {
    const auto x = axis.x(step.time_ms);
    const auto y = scale.y(step.value);
    auto text = format_number(step.value, 4);
    if (!step.label.empty()) {
      text = step.label + " " + text;
    }
    add(out, "<circle cx=\"{}\" cy=\"{}\" r=\"3.5\" fill=\"{}\"><title>{}: {}</title></circle>\n", px(x),
        px(y), colour, escape_xml(util::format_date(step.time_ms)), escape_xml(text));
    add(out, "<text x=\"{}\" y=\"{}\" font-size=\"10\" fill=\"{}\">{}</text>\n", px(x + 5),
        px(label_below ? y + 14 : y - 6), colour, escape_xml(text));
  }
}

} // namespace

std::string render_progress_svg(const ProgressData& progress)
{
  std::string out;
  open_chart(out, progress.title,
             fmt::format("{}{}: the baseline and the best candidate over time, {}", progress.metric,
                         at_text(progress.at), better_text(progress.higher_is_better)));
  std::vector<double> values;
  for (const auto* list : {&progress.baseline, &progress.best}) {
    for (const auto& step : *list) {
      if (std::isfinite(step.value)) {
        values.push_back(step.value);
      }
    }
  }
  if (values.empty()) {
    close_empty(out);
    return out;
  }
  if (progress.target && std::isfinite(*progress.target)) {
    values.push_back(*progress.target);
  }
  const auto [min_it, max_it] = std::minmax_element(values.begin(), values.end());
  const Scale scale = make_scale(*min_it, *max_it);
  y_axis(out, scale, progress.unit);
  TimeAxis axis;
  axis.start = progress.start_ms;
  axis.end = std::max(progress.end_ms, progress.start_ms + k_day_ms);
  time_ticks(out, axis);

  std::vector<ReferenceLine> lines;
  if (progress.target && std::isfinite(*progress.target)) {
    lines.push_back({*progress.target, "target", k_target_colour});
  }
  // The better line's labels go on its better side, the other's on the other: they never cross.
  if (!progress.baseline.empty()) {
    steps(out, progress.baseline, axis, scale, k_baseline_colour, progress.higher_is_better);
    lines.push_back({progress.baseline.back().value, "baseline", k_baseline_colour, 0, true});
  }
  if (!progress.best.empty()) {
    steps(out, progress.best, axis, scale, k_candidate_colour, !progress.higher_is_better);
    lines.push_back({progress.best.back().value, "best", k_candidate_colour, 0, true});
  }
  reference_lines(out, scale, lines);
  const double y = k_plot_bottom + 42;
  double x = k_left;
  if (!progress.baseline.empty()) {
    x = legend_line(out, x, y, "baseline", k_baseline_colour, false);
  }
  if (!progress.best.empty()) {
    x = legend_line(out, x, y, "best candidate so far", k_candidate_colour, false);
  }
  if (progress.target && std::isfinite(*progress.target)) {
    legend_line(out, x, y, "target", k_target_colour, true);
  }
  out += "</svg>\n";
  return out;
}

} // namespace ej::render
