#pragma once

#include "core/status.h"

#include <optional>
#include <string>
#include <vector>

namespace ej::render {

struct ChartPoint {
  std::string label; // under the x axis, e.g. "#3"
  double median = 0;
  std::optional<double> low; // interval drawn as a bar from low to high when both are set
  std::optional<double> high;
  std::optional<core::Status> status; // colours the point
};

struct ChartData {
  std::string title;
  std::string metric; // "verify_ms"
  std::string unit;   // "ms"; may be empty
  bool higher_is_better = true;
  std::vector<ChartPoint> points; // in the order they are drawn, left to right
  std::optional<double> baseline; // horizontal lines, labelled (no baseline line for a sweep: no one value)
  std::optional<double> target;
};

// A plain SVG 1.1 chart of the points (median marker coloured by status, optional interval bar),
// one per attempt (and combination), never joined by lines: attempts are different code, not a
// series. The baseline and target are dashed horizontal lines labelled right of the plot, the unit
// is said once (the y axis), and a legend names the colours and lines drawn. Deterministic: fixed
// size (720x360), numbers with one decimal, text escaped for XML, no ids or timestamps. No
// points: a "no results yet" frame; equal values get a range around them; x labels are thinned
// so they never overlap. Non-finite values are not drawn.
std::string render_chart_svg(const ChartData& chart);

// Text escaped for XML character data and attribute values.
std::string escape_xml(std::string_view text);

} // namespace ej::render
