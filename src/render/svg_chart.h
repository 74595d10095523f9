#pragma once

#include "core/status.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ej::render {

struct ChartPoint {
  std::string label; // under the x axis, e.g. "#3"
  double median = 0;
  std::optional<double> low; // interval drawn as a whisker from low to high when both are set
  std::optional<double> high;
  std::optional<core::Status> status;  // colours the point
  bool named = false;                  // its label is also written beside the point
  std::optional<double> baseline = {}; // the baseline in force for it: a line that steps where it moved
};

struct ChartData {
  std::string title;
  std::string metric;  // "verify_ms"
  std::string unit;    // "ms"; may be empty
  std::string at = {}; // "concurrency=1": the combination drawn, said in the subtitle; may be empty
  bool higher_is_better = true;
  std::vector<ChartPoint> points; // in the order they are drawn, left to right
  std::optional<double> baseline; // horizontal lines, labelled (no baseline line for a sweep: no one value)
  std::optional<double> target;
};

// A plain SVG 1.1 chart of the points (median marker coloured by status, optional interval
// whisker), one per attempt (and combination), never joined by lines: attempts are different code,
// not a series. Named points carry their label beside them. The baseline and target are dashed
// horizontal lines labelled right of the plot (a baseline given per point steps where it moved),
// the unit is said once (the y axis), and a legend names the colours and lines drawn.
// Deterministic: fixed size (720x360), numbers with one decimal, text escaped for XML, no ids or
// timestamps. No points: a "no results yet" frame; equal values get a range around them; x labels
// are thinned so they never overlap. Non-finite values are not drawn.
std::string render_chart_svg(const ChartData& chart);

// A value at a time: a baseline pinned, or a better candidate measured.
struct ProgressStep {
  std::int64_t time_ms = 0;
  double value = 0;
  std::string label; // "#11" for a candidate, "run #14" for a baseline; may be empty
};

// The progress of a measure over the campaign: the baseline's history and the best candidate so
// far, each a line that steps at the times it changed, against the target.
struct ProgressData {
  std::string title;
  std::string metric;
  std::string unit;
  std::string at;
  bool higher_is_better = true;
  std::vector<ProgressStep> baseline; // oldest first
  std::vector<ProgressStep> best;     // oldest first: each time the best candidate got better
  std::optional<double> target;
  std::int64_t start_ms = 0; // the time axis: from the first event of the plan...
  std::int64_t end_ms = 0;   // ...to its last
};

// The progress chart, in the same frame and style as render_chart_svg; dates under the x axis
// (UTC days). No step at all: a "no results yet" frame.
std::string render_progress_svg(const ProgressData& progress);

// Text escaped for XML character data and attribute values.
std::string escape_xml(std::string_view text);

} // namespace ej::render
