#include "render/svg_history.h"

#include "render/number_format.h"
#include "render/svg_chart.h"
#include "render/svg_parts.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ej::render {

namespace {

using namespace svg;

constexpr std::string_view k_point_colour = "#1565c0";
constexpr std::string_view k_segment_colour = "#455a64";
constexpr std::size_t k_label_rows = 3;
constexpr double k_label_gap = 6; // between two labels of a row

std::string_view marker_colour(HistoryMarkerKind kind)
{
  switch (kind) {
  case HistoryMarkerKind::Regression:
    return "#c62828";
  case HistoryMarkerKind::Step:
    return "#2e7d32";
  case HistoryMarkerKind::Acknowledged:
    return "#6a1b9a";
  case HistoryMarkerKind::Environment:
    return "#ef6c00";
  }
  return "#c62828";
}

std::string_view marker_name(HistoryMarkerKind kind)
{
  switch (kind) {
  case HistoryMarkerKind::Regression:
    return "regression";
  case HistoryMarkerKind::Step:
    return "other step";
  case HistoryMarkerKind::Acknowledged:
    return "acknowledged";
  case HistoryMarkerKind::Environment:
    return "environment changed";
  }
  return "";
}

bool marker_dashed(HistoryMarkerKind kind)
{
  return kind == HistoryMarkerKind::Environment || kind == HistoryMarkerKind::Acknowledged;
}

// The rows of labels above the data: each label goes in the first row where it overlaps no other.
class LabelRows {
public:
  // The label's left edge, or nullopt when no row has room for it.
  std::optional<std::pair<double, std::size_t>> place(double x, double width)
  {
    double left = x + 3; // right of its line...
    if (left + width > k_plot_right - 2) {
      left = x - 3 - width; // ...or left of it near the plot's right edge
    }
    left = std::max(left, k_left + 2);
    for (std::size_t row = 0; row < k_label_rows; ++row) {
      const bool free = std::none_of(m_taken[row].begin(), m_taken[row].end(), [&](const auto& span) {
        return left < span.second + k_label_gap && span.first < left + width + k_label_gap;
      });
      if (free) {
        m_taken[row].emplace_back(left, left + width);
        return std::pair(left, row);
      }
    }
    return std::nullopt;
  }

private:
  std::vector<std::pair<double, double>> m_taken[k_label_rows];
};

void history_legend(std::string& out, const HistoryChartData& chart)
{
  constexpr std::string_view k_points = "median, 95% interval";
  std::vector<HistoryMarkerKind> kinds;
  for (const auto kind : {HistoryMarkerKind::Regression, HistoryMarkerKind::Step,
                          HistoryMarkerKind::Acknowledged, HistoryMarkerKind::Environment}) {
    if (std::any_of(chart.markers.begin(), chart.markers.end(),
                    [&](const HistoryChartMarker& m) { return m.kind == kind; })) {
      kinds.push_back(kind);
    }
  }
  double width =
      12 + text_width(k_points) + 10 + (chart.segments.empty() ? 0 : 22 + text_width("level") + 10);
  for (const auto kind : kinds) {
    width += 22 + text_width(marker_name(kind)) + 10;
  }
  const double y = k_plot_bottom + 42;
  double x = k_left + width <= k_width ? k_left : 8; // every entry: from the left edge
  add(out, "<circle cx=\"{}\" cy=\"{}\" r=\"3.0\" fill=\"{}\"/>\n", px(x + 4), px(y - 4), k_point_colour);
  add(out, "<text x=\"{}\" y=\"{}\" font-size=\"11\">{}</text>\n", px(x + 12), px(y), k_points);
  x += 12 + text_width(k_points) + 10;
  if (!chart.segments.empty()) {
    x = legend_line(out, x, y, "level", k_segment_colour, false);
  }
  for (const auto kind : kinds) {
    x = legend_line(out, x, y, marker_name(kind), marker_colour(kind), marker_dashed(kind));
  }
}

} // namespace

std::string render_history_svg(const HistoryChartData& chart)
{
  std::string out;
  open_chart(out, chart.title,
             fmt::format("median {}{} per commit along {}, {}", chart.metric, at_text(chart.at), chart.line,
                         better_text(chart.higher_is_better)));
  std::vector<double> values;
  for (const auto& point : chart.points) {
    add_finite(values, {point.median, point.low, point.high});
  }
  if (chart.points.empty() || values.empty()) {
    close_empty(out);
    return out;
  }
  // The data keeps clear of the rows of labels at the top of the plot.
  const auto [min_it, max_it] = std::minmax_element(values.begin(), values.end());
  Scale scale = make_scale(*min_it, *max_it);
  if (!chart.markers.empty()) {
    const double band = static_cast<double>(k_label_rows) * k_line_height + 6;
    scale.high += (scale.high - scale.low) * band / (k_plot_height - band);
  }
  y_axis(out, scale, chart.unit);

  const auto n = chart.points.size();
  const double spacing = k_plot_width / static_cast<double>(n);
  const auto x_of = [&](std::size_t i) { return k_left + (static_cast<double>(i) + 0.5) * spacing; };
  const auto unit = chart.unit.empty() ? std::string() : " " + chart.unit;

  // Markers first, under the data; their labels in rows at the top, in the order of the line.
  auto markers = chart.markers;
  std::stable_sort(markers.begin(), markers.end(),
                   [](const auto& a, const auto& b) { return a.point < b.point; });
  LabelRows rows;
  for (const auto& marker : markers) {
    if (marker.point == 0 || marker.point >= n) {
      continue;
    }
    const double x = k_left + static_cast<double>(marker.point) * spacing;
    const auto colour = marker_colour(marker.kind);
    add(out,
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{3}\" stroke-width=\"1.5\"{4}>"
        "<title>{5}</title></line>\n",
        px(x), px(k_top), px(k_plot_bottom), colour, marker_dashed(marker.kind) ? " stroke-dasharray=\"4 3\"" : "",
        escape_xml(marker.detail));
    if (const auto place = rows.place(x, text_width(marker.label))) {
      add(out, "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"{}\">{}</text>\n", px(place->first),
          px(k_top + k_line_height * static_cast<double>(place->second + 1)), colour,
          escape_xml(marker.label));
    }
  }
  for (const auto& segment : chart.segments) {
    if (segment.first > segment.last || segment.last >= n || !std::isfinite(segment.mean)) {
      continue;
    }
    const auto y = px(scale.y(segment.mean));
    add(out,
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2\"><title>{}</title>"
        "</line>\n",
        px(x_of(segment.first) - spacing / 2), y, px(x_of(segment.last) + spacing / 2), y, k_segment_colour,
        escape_xml(fmt::format("level {}{} from {} to {}", format_number(segment.mean, 4), unit,
                               chart.points[segment.first].commit, chart.points[segment.last].commit)));
  }
  double widest = 0;
  for (const auto& point : chart.points) {
    widest = std::max(widest, text_width(point.commit));
  }
  const std::size_t label_every = label_step(widest, spacing);
  const double radius = n > 200 ? 1.5 : n > 50 ? 2.5 : 3.5;
  for (std::size_t i = 0; i < n; ++i) {
    const auto& point = chart.points[i];
    const auto x = px(x_of(i));
    if (finite(point.low) && finite(point.high) && *point.low != *point.high) {
      add(out,
          "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{3}\" stroke-width=\"1.5\" "
          "opacity=\"0.5\"/>\n",
          x, px(scale.y(*point.low)), px(scale.y(*point.high)), k_point_colour);
    }
    if (std::isfinite(point.median)) {
      add(out, "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"><title>{}</title></circle>\n", x,
          px(scale.y(point.median)), px(radius), k_point_colour,
          escape_xml(point.commit + ": " + format_number(point.median, 4) + unit));
    }
    // The last label only where it cannot run past the plot's right edge.
    if (i % label_every == 0 && x_of(i) + text_width(point.commit) / 2 <= k_width) {
      add(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\">{}</text>\n", x,
          px(k_plot_bottom + 16), escape_xml(point.commit));
    }
  }
  history_legend(out, chart);
  out += "</svg>\n";
  return out;
}

} // namespace ej::render
