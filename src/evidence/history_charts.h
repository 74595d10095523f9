#pragma once

#include "evidence/history.h"
#include "evidence/reader.h"
#include "render/html_explorer.h"
#include "render/svg_history.h"

#include <span>
#include <string>
#include <vector>

// The history charts of the HTML report (ej report): a plan's benchmarks commit by commit.
namespace ej::evidence {

// The chart of one history followed along `line_name`: its points, the mean of each segment
// between change points, a marker at each change point labelled with its first commit measured, at
// each acknowledged step, and where the environment fingerprint's host, NVIDIA driver, CUDA driver
// or GPU clocks policy changed between two points (their newest runs' fingerprints, read with
// `reader`).
render::HistoryChartData history_chart(const History& history, Reader& reader, const std::string& line_name);

// One chart per measure of the plan (benchmark and metric), at its headline combination (each
// combination when it has none), along `line`; a measure whose benchmark has no usable run, or
// no point on the line, has none.
std::vector<render::ReportChart> plan_history_charts(Reader& reader, const std::string& plan,
                                                     std::span<const LineCommit> line,
                                                     const std::string& line_name);

} // namespace ej::evidence
