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
  std::string group;                  // points of one group are joined by a line ("size=2" of a sweep)
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

// A plain SVG 1.1 line chart of the points (median marker, optional interval bar) with the
// baseline and target as labelled horizontal lines. Deterministic: fixed size (720x360), numbers
// with one decimal, text escaped for XML, no ids or timestamps. No points: a "no results yet"
// frame; equal values get a range around them; many points thin the x labels. Non-finite values
// are not drawn.
std::string render_chart_svg(const ChartData& chart);

// Text escaped for XML character data and attribute values.
std::string escape_xml(std::string_view text);

} // namespace ej::render
