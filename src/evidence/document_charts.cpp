#include "evidence/document_charts.h"

#include "core/numbering.h"
#include "evidence/document_parts.h"
#include "measure/statistics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace ej::evidence::document {

namespace {

// Up to this many points, every point is named by its number; beyond, the adopted ones and the best.
constexpr std::size_t k_all_named = 40;

std::string without_extension(const std::string& file)
{
  const auto dot = file.rfind('.');
  return dot == std::string::npos ? file : file.substr(0, dot);
}

bool better(bool higher, double a, double b)
{
  return higher ? a > b : a < b;
}

// An attempt's point: the median of its values, their quartiles as the whiskers.
render::ChartPoint attempt_point(const core::Attempt& attempt, const measure::Summary& stats)
{
  render::ChartPoint point;
  point.label = core::number_label(attempt.number);
  point.median = stats.median;
  point.low = stats.q1;
  point.high = stats.q3;
  point.status = attempt.status;
  return point;
}

} // namespace

ChartsBuilder::ChartsBuilder(const core::Plan& plan, const PlanMeasures& measures,
                             const std::vector<core::BaselineRecord>& baselines, std::string chart_file,
                             bool combinations)
    : m_plan(plan), m_measures(measures), m_baselines(baselines), m_chart_file(std::move(chart_file)),
      m_combinations(combinations)
{
  for (const auto& m : measures.measures) {
    MeasureChart chart;
    chart.measure = &m;
    chart.data.title = plan.title;
    chart.data.metric = m.metric;
    chart.data.unit = m.unit;
    chart.data.at = core::describe(m.headline);
    chart.data.higher_is_better = m.higher_is_better;
    for (const auto& target : measures.targets) {
      if (target.metric == m.metric && (target.bench.empty() || target.bench == m.bench)) {
        chart.data.target = target.value;
        break;
      }
    }
    m_charts.push_back(std::move(chart));
  }
}

void ChartsBuilder::saw_time(std::int64_t time_ms)
{
  m_first_ms = m_first_ms == 0 ? time_ms : std::min(m_first_ms, time_ms);
  m_last_ms = std::max(m_last_ms, time_ms);
}

std::optional<double> ChartsBuilder::baseline_value(Reader& reader, int run, const Measure& measure) const
{
  const auto key = std::pair(run, &measure);
  if (const auto found = m_baseline_values.find(key); found != m_baseline_values.end()) {
    return found->second;
  }
  std::optional<double> value;
  // A withdrawn baseline is no reference: no line is drawn at it.
  if (const auto* set = reader.baseline_set(run); set != nullptr && !set->runs.front().withdrawn()) {
    value = value_at(set->series, measure.metric, measure.headline);
  }
  m_baseline_values.emplace(key, value);
  return value;
}

void ChartsBuilder::add(Reader& reader, const core::Attempt& attempt,
                        const std::optional<Evaluation>& evaluation)
{
  for (auto& chart : m_charts) {
    const auto& m = *chart.measure;
    const RunSet* set = nullptr;
    if (evaluation) {
      for (const auto& v : evaluation->verdicts) {
        if (v.candidate.bench == m.bench && v.metric == m.metric) {
          set = &v.candidate; // the same runs, read once
        }
      }
    }
    std::optional<RunSet> read;
    if (set == nullptr && (read = reader.attempt_set(attempt.number, m.bench))) {
      set = &*read;
    }
    if (set == nullptr) {
      continue;
    }
    if (m_combinations) {
      add_combinations(chart, *set, attempt);
    }
    const auto* series = series_at(set->series, m.metric, m.headline);
    if (series == nullptr) {
      continue;
    }
    const auto stats = measure::summarize(series->values);
    auto point = attempt_point(attempt, stats);
    const auto baseline = baseline_for(m_baselines, m.bench, set->time_ms(), Against::BaselineThen);
    bool is_baseline = false;
    if (baseline) {
      point.baseline = baseline_value(reader, *baseline, m);
    }
    for (const auto& pin : m_baselines) {
      for (const auto& run : set->runs) {
        is_baseline = is_baseline || (pin.bench == m.bench && pin.run == run.number);
      }
    }
    chart.data.points.push_back(std::move(point));
    if (!is_baseline) {
      chart.candidates.push_back({set->time_ms(), stats.median, attempt.number});
    }
  }
}

void ChartsBuilder::add_combinations(const MeasureChart& chart, const RunSet& set,
                                     const core::Attempt& attempt)
{
  const auto& m = *chart.measure;
  for (const auto& series : set.series) {
    if (series.metric != m.metric || series.values.empty() || !series.key.empty()) {
      continue;
    }
    const auto name = series.params.empty() ? m.metric : m.metric + " at " + series.params;
    auto it = std::find_if(m_combination_charts.begin(), m_combination_charts.end(),
                           [&](const auto& entry) { return entry.first == name; });
    if (it == m_combination_charts.end()) {
      auto data = chart.data;
      data.points.clear();
      data.at = series.params;
      m_combination_charts.emplace_back(name, std::move(data));
      it = m_combination_charts.end() - 1;
    }
    auto point = attempt_point(attempt, measure::summarize(series.values));
    point.named = true;
    it->second.points.push_back(std::move(point));
  }
}

std::vector<render::ReportChart> ChartsBuilder::combination_charts() const
{
  std::vector<render::ReportChart> out;
  for (const auto& [name, data] : m_combination_charts) {
    out.push_back({name, render::render_chart_svg(data)});
  }
  return out;
}

render::ChartData ChartsBuilder::named(const MeasureChart& chart) const
{
  auto data = chart.data;
  // A sweep's baseline has no one value; points judged against one carry it.
  if (data.points.size() <= k_all_named) {
    for (auto& point : data.points) {
      point.named = true;
    }
    return data;
  }
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < data.points.size(); ++i) {
    auto& point = data.points[i];
    point.named = point.status == core::Status::Adopted;
    if (std::isfinite(point.median) &&
        (!best || better(data.higher_is_better, point.median, data.points[*best].median))) {
      best = i;
    }
  }
  if (best) {
    data.points[*best].named = true;
  }
  return data;
}

render::ChartData ChartsBuilder::headline_chart() const
{
  return m_charts.empty() ? render::ChartData{} : named(m_charts.front());
}

render::ProgressData ChartsBuilder::progress(Reader& reader) const
{
  render::ProgressData out;
  if (m_charts.empty()) {
    return out;
  }
  const auto& chart = m_charts.front();
  const auto& m = *chart.measure;
  out.title = m_plan.title;
  out.metric = m.metric;
  out.unit = m.unit;
  out.at = core::describe(m.headline);
  out.higher_is_better = m.higher_is_better;
  out.target = chart.data.target;
  out.start_ms = m_first_ms;
  out.end_ms = m_last_ms;
  for (const auto& pin : m_baselines) {
    if (pin.bench != m.bench) {
      continue;
    }
    if (const auto value = baseline_value(reader, pin.run, m)) {
      out.baseline.push_back({pin.time_ms, *value, ""});
    }
  }
  auto candidates = chart.candidates;
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.time_ms < b.time_ms; });
  for (const auto& c : candidates) {
    if (std::isfinite(c.value) &&
        (out.best.empty() || better(m.higher_is_better, c.value, out.best.back().value))) {
      out.best.push_back({c.time_ms, c.value, core::number_label(c.attempt)});
    }
  }
  return out;
}

std::vector<Chart> ChartsBuilder::finish(Reader& reader) const
{
  std::vector<Chart> out;
  const auto stem = without_extension(m_chart_file);
  std::set<std::string> metrics;
  for (const auto& chart : m_charts) {
    const auto& m = *chart.measure;
    // The headline measure's chart keeps the name documents always linked; the others are named
    // after their metric (and benchmark, when two measure one metric).
    std::string file = m_chart_file;
    if (!out.empty()) {
      file = stem + "-" + (metrics.count(m.metric) > 0 ? m.bench + "-" : "") + m.metric + ".svg";
    }
    metrics.insert(m.metric);
    out.push_back({file, m.metric + " per attempt", render::render_chart_svg(named(chart))});
  }
  if (out.empty()) {
    render::ChartData empty;
    empty.title = m_plan.title;
    out.push_back({m_chart_file, "per attempt", render::render_chart_svg(empty)});
    return out;
  }
  const auto data = progress(reader);
  if (!data.baseline.empty() || !data.best.empty()) {
    out.push_back({stem + "-progress.svg", data.metric + " over time", render::render_progress_svg(data)});
  }
  return out;
}

} // namespace ej::evidence::document
