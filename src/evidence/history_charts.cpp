#include "evidence/history_charts.h"

#include "evidence/history_reading.h"
#include "evidence/plan_measures.h"
#include "evidence/wording.h"
#include "run/env_diff.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <numeric>

namespace ej::evidence {

namespace {

std::string short_id(const std::string& commit)
{
  return commit.substr(0, 7);
}

// The changes a history chart marks, with their short names: what moves a benchmark's speed
// without a commit.
std::optional<std::string> marked_change(const std::string& what)
{
  if (what == "host") {
    return "host";
  }
  if (what == "NVIDIA driver") {
    return "driver";
  }
  if (what == "CUDA driver") {
    return "CUDA";
  }
  if (what == "GPU clocks policy") {
    return "clocks";
  }
  return std::nullopt;
}

std::optional<render::HistoryChartMarker> environment_marker(Reader& reader, const HistoryPoint& before,
                                                             const HistoryPoint& after, std::size_t index)
{
  if (before.environment == after.environment || before.environment.empty() || after.environment.empty()) {
    return std::nullopt;
  }
  const auto* a = reader.environment(before.environment);
  const auto* b = reader.environment(after.environment);
  if (a == nullptr || b == nullptr) {
    return std::nullopt;
  }
  std::vector<std::string> names;
  std::vector<std::string> details;
  for (const auto& change : run::diff_environments(*a, *b)) {
    if (const auto name = marked_change(change.what)) {
      if (std::find(names.begin(), names.end(), *name) == names.end()) {
        names.push_back(*name);
      }
      details.push_back(run::format_change(change));
    }
  }
  if (names.empty()) {
    return std::nullopt;
  }
  return render::HistoryChartMarker{render::HistoryMarkerKind::Environment, index, util::join(names, ", "),
                                    "environment changed at " + short_id(after.commit) + ": " +
                                        util::join(details, "; ")};
}

} // namespace

render::HistoryChartData history_chart(const History& history, Reader& reader, const std::string& line_name)
{
  render::HistoryChartData chart;
  chart.title = history.bench + ": " + history.metric;
  chart.metric = history.metric;
  chart.unit = history.unit;
  chart.at = history.params.empty() || history.key.empty() ? history.params + history.key
                                                           : history.params + " " + history.key;
  chart.line = line_name;
  chart.higher_is_better = history.direction == measure::Direction::HigherIsBetter;
  for (const auto& point : history.points) {
    chart.points.push_back({short_id(point.commit), point.median, point.interval.low, point.interval.high});
  }
  std::size_t first = 0;
  const auto segment_to = [&](std::size_t end) {
    if (end <= first) {
      return;
    }
    double sum = 0;
    for (std::size_t i = first; i < end; ++i) {
      sum += history.points[i].median;
    }
    chart.segments.push_back({first, end - 1, sum / static_cast<double>(end - first)});
    first = end;
  };
  for (const auto& step : history.steps) {
    segment_to(step.point);
    auto detail = fmt::format("{} in ({}, {}]: {}", describe_step(step), short_id(step.good),
                              short_id(step.bad), change_text(step.change, history.unit));
    if (const auto interval = interval_text(step.change, history.unit); !interval.empty()) {
      detail += " " + interval;
    }
    chart.markers.push_back(
        {step.regression ? render::HistoryMarkerKind::Regression : render::HistoryMarkerKind::Step,
         step.point, short_id(step.bad), std::move(detail)});
    if (step.acknowledged) {
      chart.markers.push_back({render::HistoryMarkerKind::Acknowledged, step.point, "acknowledged",
                               fmt::format("acknowledged at {}: {}", short_id(step.acknowledged->commit),
                                           step.acknowledged->reason)});
    }
  }
  segment_to(history.points.size());
  for (std::size_t i = 1; i < history.points.size(); ++i) {
    if (auto marker = environment_marker(reader, history.points[i - 1], history.points[i], i)) {
      chart.markers.push_back(std::move(*marker));
    }
  }
  return chart;
}

std::vector<render::ReportChart> plan_history_charts(Reader& reader, const std::string& plan,
                                                     std::span<const LineCommit> line,
                                                     const std::string& line_name)
{
  std::vector<render::ReportChart> out;
  for (const auto& measure : reader.measures(plan).measures) {
    const auto input = read_history_input(reader, measure.bench, 0, measure.metric, line);
    if (!input) {
      continue;
    }
    HistoryOptions options;
    options.metric = measure.metric;
    options.selector = measure.headline;
    for (const auto& history : build_histories(*input, options)) {
      if (history.points.empty()) {
        continue;
      }
      const auto chart = history_chart(history, reader, line_name);
      out.push_back(
          {chart.title + (chart.at.empty() ? "" : " at " + chart.at), render::render_history_svg(chart)});
    }
  }
  return out;
}

} // namespace ej::evidence
