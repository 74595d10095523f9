#include "render/svg_chart.h"

#include "render/number_format.h"
#include "render/svg_parts.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ej::render {

namespace {

using namespace svg;

std::string_view colour_of(const std::optional<core::Status>& status)
{
  if (!status) {
    return "#1565c0";
  }
  switch (*status) {
  case core::Status::Adopted:
    return "#2e7d32";
  case core::Status::Rejected:
    return "#c62828";
  case core::Status::Blocked:
    return "#ef6c00";
  case core::Status::Inconclusive:
    return "#757575";
  case core::Status::Superseded:
    return "#9e9e9e";
  case core::Status::Running:
    return "#6a1b9a";
  case core::Status::Proposed:
    return "#78909c";
  }
  return "#1565c0";
}

std::string unit_suffix(const ChartData& chart)
{
  return chart.unit.empty() ? "" : " " + chart.unit;
}

std::string_view legend_name(const std::optional<core::Status>& status)
{
  return status ? core::to_string(*status) : std::string_view("run");
}

// One entry per status colour drawn, in a fixed order, then the reference lines drawn.
void legend(std::string& out, const ChartData& chart, const std::vector<ReferenceLine>& lines)
{
  using core::Status;
  const std::optional<Status> order[] = {Status::Adopted,  Status::Rejected,     Status::Superseded,
                                         Status::Blocked,  Status::Inconclusive, Status::Running,
                                         Status::Proposed, std::nullopt};
  std::vector<std::optional<Status>> shown;
  for (const auto& status : order) {
    const auto drawn = std::any_of(chart.points.begin(), chart.points.end(), [&](const ChartPoint& p) {
      return p.status == status && std::isfinite(p.median);
    });
    if (drawn) {
      shown.push_back(status);
    }
  }
  constexpr double k_gap = 10;
  double width = 0;
  for (const auto& status : shown) {
    width += 12 + text_width(legend_name(status)) + k_gap;
  }
  for (const auto& line : lines) {
    width += 22 + text_width(line.name) + k_gap;
  }
  const double y = k_plot_bottom + 42;
  double x = k_left + width <= k_width ? k_left : 8; // all statuses and lines: from the left edge
  for (const auto& status : shown) {
    add(out, "<circle cx=\"{}\" cy=\"{}\" r=\"4.0\" fill=\"{}\"/>\n", px(x + 4), px(y - 4),
        colour_of(status));
    add(out, "<text x=\"{}\" y=\"{}\" font-size=\"11\">{}</text>\n", px(x + 12), px(y), legend_name(status));
    x += 12 + text_width(legend_name(status)) + k_gap;
  }
  for (const auto& line : lines) {
    x = legend_line(out, x, y, line.name, line.colour, true);
  }
}

// The baselines the points were judged against, when they differ: one dashed line that steps
// where the baseline moved, across the slots of the points it held for. nullopt when there is no
// such line to draw (the baseline is then one value, or none).
std::optional<double> step_baseline(std::string& out, const ChartData& chart, const Scale& scale,
                                    double spacing)
{
  std::optional<double> first;
  bool differ = false;
  for (const auto& point : chart.points) {
    if (finite(point.baseline)) {
      differ = differ || (first && *first != *point.baseline);
      first = first ? first : point.baseline;
    }
  }
  if (!differ) {
    return std::nullopt;
  }
  std::string path;
  std::optional<double> last;
  for (std::size_t i = 0; i < chart.points.size(); ++i) {
    const auto& value = chart.points[i].baseline;
    if (!finite(value)) {
      continue;
    }
    const double left = k_left + static_cast<double>(i) * spacing;
    const double right = left + spacing;
    if (!last) {
      path += fmt::format("M{} {}H{}", px(left), px(scale.y(*value)), px(right));
    } else {
      path += fmt::format("V{}H{}", px(scale.y(*value)), px(right));
    }
    last = value;
  }
  add(out, "<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n",
      path, k_baseline_colour);
  return last;
}

} // namespace

std::string escape_xml(std::string_view text)
{
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&apos;";
      break;
    default:
      // Control characters other than tab and newline are not allowed in XML 1.0 at all.
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') {
        out += ' ';
      } else {
        out += c;
      }
    }
  }
  return out;
}

std::string render_chart_svg(const ChartData& chart)
{
  std::string out;
  open_chart(out, chart.title,
             fmt::format("median {}{} per attempt, {}", chart.metric, at_text(chart.at),
                         better_text(chart.higher_is_better)));
  std::vector<double> values;
  for (const auto& point : chart.points) {
    add_finite(values, {point.median, point.low, point.high, point.baseline});
  }
  add_finite(values, {chart.baseline, chart.target});
  if (chart.points.empty() || values.empty()) {
    close_empty(out);
    return out;
  }
  const auto [min_it, max_it] = std::minmax_element(values.begin(), values.end());
  const Scale scale = make_scale(*min_it, *max_it);
  y_axis(out, scale, chart.unit);

  const auto n = chart.points.size();
  const double spacing = k_plot_width / static_cast<double>(n);
  const auto x_of = [&](std::size_t i) { return k_left + (static_cast<double>(i) + 0.5) * spacing; };
  double widest = 0;
  for (const auto& point : chart.points) {
    widest = std::max(widest, text_width(point.label));
  }
  const std::size_t label_every = label_step(widest, spacing);
  const double radius = n > 200 ? 1.5 : n > 50 ? 2.5 : 4;

  std::vector<ReferenceLine> lines;
  // The reference lines under the points: a point on the baseline stays visible.
  if (const auto stepped = step_baseline(out, chart, scale, spacing)) {
    lines.push_back({*stepped, "baseline", k_baseline_colour, 0, true});
  } else if (finite(chart.baseline)) {
    lines.push_back({*chart.baseline, "baseline", k_baseline_colour});
  } else if (const auto same = std::find_if(chart.points.begin(), chart.points.end(),
                                            [](const ChartPoint& p) { return finite(p.baseline); });
             same != chart.points.end()) {
    lines.push_back({*same->baseline, "baseline", k_baseline_colour}); // one baseline for every point
  }
  if (finite(chart.target)) {
    lines.push_back({*chart.target, "target", k_target_colour});
  }
  reference_lines(out, scale, lines);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& point = chart.points[i];
    const auto colour = colour_of(point.status);
    const auto x = px(x_of(i));
    double top = std::isfinite(point.median) ? scale.y(point.median) : k_plot_bottom;
    if (finite(point.low) && finite(point.high) && *point.low != *point.high) {
      add(out,
          "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{3}\" stroke-width=\"2\" "
          "opacity=\"0.6\"/>\n",
          x, px(scale.y(*point.low)), px(scale.y(*point.high)), colour);
      top = std::min(top, scale.y(std::max(*point.low, *point.high)));
    }
    if (std::isfinite(point.median)) {
      add(out, "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"><title>{}</title></circle>\n", x,
          px(scale.y(point.median)), px(radius), colour,
          escape_xml(point.label + ": " + format_number(point.median, 4) + unit_suffix(chart) +
                     (point.status ? fmt::format(" ({})", core::to_string(*point.status)) : "")));
      if (point.named) {
        add(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"10\" fill=\"{}\">{}</text>\n", x,
            px(std::max(top - radius - 3, k_top + 10)), colour, escape_xml(point.label));
      }
    }
    if (i % label_every == 0) {
      add(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\">{}</text>\n", x,
          px(k_plot_bottom + 16), escape_xml(point.label));
    }
  }
  legend(out, chart, lines);
  out += "</svg>\n";
  return out;
}

} // namespace ej::render
