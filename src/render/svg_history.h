#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

// A benchmark's history as a chart: the HTML report draws one per benchmark and metric.
namespace ej::render {

struct HistoryChartPoint {
  std::string commit; // short id: under the x axis and in the point's tooltip
  double median = 0;
  std::optional<double> low; // the median's interval: a whisker when both are set
  std::optional<double> high;
};

// A level between two change points: a line at its mean across the points it holds.
struct HistoryChartSegment {
  std::size_t first = 0; // index into the points, inclusive
  std::size_t last = 0;
  double mean = 0;
};

enum class HistoryMarkerKind { Regression, Step, Acknowledged, Environment };

// A vertical line just before a point: the level moved (or the environment changed, or a step was
// acknowledged) between it and the point before.
struct HistoryChartMarker {
  HistoryMarkerKind kind = HistoryMarkerKind::Step;
  std::size_t point = 0; // at least 1
  std::string label;     // short, written above the data: "f00ba12", "acknowledged", "driver, CUDA"
  std::string detail;    // its tooltip: the change and its interval, the reason, what changed
};

struct HistoryChartData {
  std::string title;  // "decode: time_ms"
  std::string metric; // "time_ms"
  std::string unit;
  std::string at;   // "variant=naive": the combination drawn; may be empty
  std::string line; // the branch followed, said in the subtitle
  bool higher_is_better = false;
  std::vector<HistoryChartPoint> points; // in line order, one per commit measured
  std::vector<HistoryChartSegment> segments;
  std::vector<HistoryChartMarker> markers; // in any order
};

// A plain SVG 1.1 chart in the frame and style of render_chart_svg (svg_chart.h): the points evenly
// spaced in line order with their intervals, each segment's mean as a line, and the markers as
// vertical lines whose labels take up to three rows above the data (a label finding no room is left
// out; the line and its tooltip stay). A legend names what is drawn. Deterministic: fixed size,
// numbers with one decimal, text escaped, no ids or timestamps. No points: a "no results yet" frame.
std::string render_history_svg(const HistoryChartData& chart);

} // namespace ej::render
