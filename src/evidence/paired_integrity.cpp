#include "evidence/paired_integrity.h"

#include "evidence/paired_lead.h"
#include "evidence/series.h"
#include "store/run_queries.h"

namespace ej::evidence {

namespace {

// A paired series as the comparison the checks read: the paired estimate, interval and outcome,
// and the medians of each side's figures in the rounds.
SeriesComparison paired_as_comparison(const PairedVerdict& v)
{
  SeriesComparison s;
  s.metric = v.metric;
  s.params = paired_combination(v);
  s.key = v.key;
  s.unit = v.unit;
  s.quantity = quantity_of(v.metric, v.unit);
  s.comparison.reference_median = v.reference_median;
  s.comparison.candidate_median = v.candidate_median;
  put_paired(s.comparison, v);
  return s;
}

} // namespace

std::vector<std::string> paired_timer_disagreements(const std::vector<PairedVerdict>& series,
                                                    const std::string& primary)
{
  if (primary == "wall_s") {
    return {};
  }
  std::vector<SeriesComparison> judged;
  std::vector<SeriesComparison> wall;
  for (const auto& v : series) {
    if (v.rounds == 0) {
      continue;
    }
    if (v.metric == primary) {
      judged.push_back(paired_as_comparison(v));
    } else if (v.metric == "wall_s" && v.key.empty()) {
      wall.push_back(paired_as_comparison(v));
    }
  }
  return timer_disagreements(judged, wall);
}

Integrity paired_integrity(store::Database& db, const core::RunRecord& candidate,
                           const core::RunRecord& reference, const std::vector<PairedVerdict>& series,
                           const std::string& primary, const MetricRules& rules)
{
  const auto& same = rules.same_output;
  std::vector<SeriesSummary> candidate_series;
  std::vector<SeriesSummary> reference_series;
  if (!rules.floors.empty() || same.kind == core::SameOutput::Kind::Metric) {
    candidate_series = run_series(store::run_samples(db, candidate.number));
    reference_series = run_series(store::run_samples(db, reference.number));
  }
  std::optional<std::string> differs;
  if (same.kind == core::SameOutput::Kind::Metric) {
    differs = metric_differs(reference_series, candidate_series, same, "reference");
  } else if (same.kind != core::SameOutput::Kind::None) {
    differs = digests_differ({reference.outputs}, {candidate.outputs}, "reference");
  }
  auto flags = sides_floor_flags(reference_series, candidate_series, rules, "reference");
  if (rules.check_times) { // as a sequential verdict's (judge_integrity)
    for (auto& flag : paired_timer_disagreements(series, primary)) {
      flags.push_back(std::move(flag));
    }
  }
  return integrity_of(std::move(differs), std::move(flags));
}

} // namespace ej::evidence
