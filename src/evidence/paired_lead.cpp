#include "evidence/paired_lead.h"

#include "store/interleaved_queries.h"

#include <algorithm>
#include <cmath>

namespace ej::evidence {

namespace {

bool same_code(const core::GitContext& a, const core::GitContext& b)
{
  return !a.commit.empty() && a.commit == b.commit && a.dirty == b.dirty && a.diff_blob == b.diff_blob;
}

} // namespace

// An interval the rounds cannot bound is left out, as a test-less one is.
void put_paired(measure::Comparison& c, const PairedVerdict& v)
{
  const bool bounded = std::isfinite(v.low) && std::isfinite(v.high);
  c.n_reference = c.n_candidate = v.rounds;
  c.basis = measure::Basis::Test;
  c.u.reset();
  c.p_value = v.p_value;
  c.exact = v.exact;
  c.confidence = v.confidence;
  c.outcome = v.outcome;
  c.ratio = c.ratio_low = c.ratio_high = std::nullopt;
  c.change_pct = c.change_low_pct = c.change_high_pct = std::nullopt;
  c.shift = c.shift_low = c.shift_high = std::nullopt;
  if (v.scale == measure::PairedScale::LogRatio) {
    c.estimate = measure::Estimate::Ratio;
    c.ratio = std::exp(v.estimate);
    c.change_pct = (*c.ratio - 1) * 100;
    if (bounded) {
      c.ratio_low = std::exp(v.low);
      c.ratio_high = std::exp(v.high);
      c.change_low_pct = (*c.ratio_low - 1) * 100;
      c.change_high_pct = (*c.ratio_high - 1) * 100;
    }
  } else {
    c.estimate = measure::Estimate::Shift;
    c.shift = v.estimate;
    if (bounded) {
      c.shift_low = v.low;
      c.shift_high = v.high;
    }
  }
}

std::optional<PairedSides> paired_against(Reader& reader, const RunSet& candidate,
                                          const core::RunRecord& baseline)
{
  // Newest first: the latest session against the baseline is the attempt's latest word.
  for (auto run = candidate.runs.rbegin(); run != candidate.runs.rend(); ++run) {
    const auto reference_number = reader.compared_with(run->number);
    if (!reference_number) {
      continue;
    }
    // Both runs of the session restricted to the combinations the candidate was (ej compare 2:n=1).
    auto reference = reader.run_set(*reference_number, candidate.selector);
    if (!reference || reference->runs.empty() || reference->series.empty()) {
      continue; // nor a session that measured none of the combinations asked for
    }
    const auto& reference_run = reference->runs.front();
    if (reference_run.withdrawn() || !usable(reference_run) || !same_code(reference_run.git, baseline.git)) {
      continue;
    }
    const auto record = store::interleaved_comparison_of(reader.journal().db(), run->number);
    if (!record || record->design.stopped == core::SessionStop::Failed) {
      continue;
    }
    return PairedSides{reader.run_set(*run, candidate.selector), std::move(*reference),
                       judge_interleaved(reader.journal().db(), *record)};
  }
  return std::nullopt;
}

void use_paired(std::vector<SeriesComparison>& series, const InterleavedVerdict& verdict,
                const core::ParamValues& selector)
{
  for (auto& s : series) {
    // A comparison of selected combinations labels them without the axes chosen (compare_sets.h).
    const auto paired =
        std::find_if(verdict.series.begin(), verdict.series.end(), [&](const PairedVerdict& v) {
          const auto combination = paired_combination(v);
          return v.metric == s.metric && v.key == s.key && matches_selector(combination, selector) &&
                 params_without(combination, selector) == s.params;
        });
    if (paired != verdict.series.end() && paired->rounds > 0) {
      put_paired(s.comparison, *paired);
    }
  }
}

} // namespace ej::evidence
