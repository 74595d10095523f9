#pragma once

#include "core/records.h"
#include "core/run_records.h"
#include "evidence/evaluation.h"
#include "evidence/plan_measures.h"
#include "evidence/reader.h"
#include "render/html_explorer.h"
#include "render/svg_chart.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ej::evidence::document {

// A chart of a plan document: its file (relative to the document) and what it shows.
struct Chart {
  std::string file; // "eagle-fast-verify.svg"
  std::string alt;  // "tok_s per attempt"
  std::string svg;
};

// Collects the charts of a plan document as its attempts are judged: one per measure (each
// attempt's median at the measure's headline combination, with its interquartile range, against
// the baseline in force for it and the target), and the progress of the headline measure (the
// baseline's history and the best candidate over time). chart_file names the headline measure's
// chart; the others are named after it ("SLUG-verify_ms.svg", "SLUG-progress.svg").
class ChartsBuilder {
public:
  // `combinations`: also a chart per measure and combination of its sweep (the HTML report's).
  ChartsBuilder(const core::Plan& plan, const PlanMeasures& measures,
                const std::vector<core::BaselineRecord>& baselines, std::string chart_file,
                bool combinations = false);

  // An attempt, in order: its point on each measure's chart it measured at the headline.
  void add(Reader& reader, const core::Attempt& attempt, const std::optional<Evaluation>& evaluation);
  // The plan's time span, for the progress chart's axis.
  void saw_time(std::int64_t time_ms);

  // The headline measure's chart data (points named), for those that draw it themselves.
  render::ChartData headline_chart() const;
  // Every chart, the headline measure's first; the progress chart only when it has a step.
  std::vector<Chart> finish(Reader& reader) const;
  // A chart per measure and combination, in the order first measured ("tok_s at concurrency=2").
  std::vector<render::ReportChart> combination_charts() const;

private:
  struct Candidate {
    std::int64_t time_ms;
    double value;
    int attempt;
  };
  struct MeasureChart {
    const Measure* measure;
    render::ChartData data;
    std::vector<Candidate> candidates; // for the progress chart
  };
  std::optional<double> baseline_value(Reader& reader, int run, const Measure& measure) const;
  void add_combinations(const MeasureChart& chart, const RunSet& set, const core::Attempt& attempt);
  render::ChartData named(const MeasureChart& chart) const;
  render::ProgressData progress(Reader& reader) const;

  const core::Plan& m_plan;
  const PlanMeasures& m_measures;
  const std::vector<core::BaselineRecord>& m_baselines;
  std::string m_chart_file;
  std::vector<MeasureChart> m_charts;
  bool m_combinations = false;
  std::vector<std::pair<std::string, render::ChartData>> m_combination_charts; // by name, in order
  mutable std::map<std::pair<int, const Measure*>, std::optional<double>> m_baseline_values;
  std::int64_t m_first_ms = 0;
  std::int64_t m_last_ms = 0;
};

} // namespace ej::evidence::document
