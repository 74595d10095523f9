#include "evidence/bisect_step.h"

#include "util/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ej::evidence {

namespace {

// Half the step of one series, as a minimum effect in percent (measure::effect_band's reading):
// for log ratios the change whose log is half the step's; for differences half the step as a share
// of the reference's level.
double half_step_pct(const PairedVerdict& series)
{
  const double half = series.estimate / 2;
  if (series.scale == measure::PairedScale::LogRatio) {
    return std::abs(std::expm1(half)) * 100;
  }
  return series.reference_level > 0 ? std::abs(half) / series.reference_level * 100 : 100.0;
}

} // namespace

std::optional<BisectStep> step_of(const InterleavedVerdict& verdict)
{
  std::optional<BisectStep> step;
  double half = 0;
  for (const auto& series : verdict.series) {
    if (series.metric != verdict.primary ||
        (series.outcome != measure::Outcome::Regressed && series.outcome != measure::Outcome::Improved)) {
      continue;
    }
    if (step && step->outcome != series.outcome) {
      throw Error("{} stepped both ways between GOOD and BAD ({} {} and {} {}): bisect one combination at a "
                  "time with --param AXIS=V",
                  verdict.primary, paired_combination(step->series), paired_outcome_text(step->outcome),
                  paired_combination(series), paired_outcome_text(series.outcome));
    }
    if (!step) {
      step = BisectStep{series.outcome, 0, series};
      half = half_step_pct(series);
    }
    half = std::min(half, half_step_pct(series));
  }
  if (step) {
    // One decimal: the band is said in messages and recorded with each comparison.
    step->min_effect_pct = std::min(99.0, std::round(std::max(half, verdict.min_effect_pct) * 10) / 10);
  }
  return step;
}

CommitClass classify(const InterleavedVerdict& verdict, const BisectStep& step)
{
  const auto opposite =
      step.outcome == measure::Outcome::Regressed ? measure::Outcome::Improved : measure::Outcome::Regressed;
  bool any = false;
  bool all_good = true;
  for (const auto& series : verdict.series) {
    if (series.metric != verdict.primary) {
      continue;
    }
    any = true;
    // On the figures: a commit that also changed the benchmark's output still has its speed.
    const auto outcome = series.outcome_on_figures();
    if (outcome == step.outcome) {
      return CommitClass::Bad;
    }
    all_good = all_good && (outcome == measure::Outcome::NoChange || outcome == opposite);
  }
  return any && all_good ? CommitClass::Good : CommitClass::Inconclusive;
}

std::string change_text(const PairedVerdict& series)
{
  return fmt::format("{} [{}, {}]", paired_change_text(series, series.estimate),
                     paired_change_text(series, series.low), paired_change_text(series, series.high));
}

std::string change_text(const core::LocatedStep& located)
{
  PairedVerdict series;
  series.scale = located.log_ratio ? measure::PairedScale::LogRatio : measure::PairedScale::Difference;
  series.unit = located.unit;
  series.estimate = located.estimate;
  series.low = located.low;
  series.high = located.high;
  return change_text(series);
}

} // namespace ej::evidence
