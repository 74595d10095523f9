#include "measure/until_decisive.h"

#include "measure/alpha_spending.h"
#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ej::measure {

std::string_view to_string(Decision decision)
{
  switch (decision) {
  case Decision::GoOn:
    return "go on";
  case Decision::Improved:
    return "improved";
  case Decision::Regressed:
    return "regressed";
  case Decision::Equivalent:
    return "equivalent";
  case Decision::Inconclusive:
    return "inconclusive";
  }
  return "inconclusive";
}

EffectBand effect_band(PairedScale scale, double min_effect_pct, double reference_level)
{
  if (!(min_effect_pct >= 0 && min_effect_pct < 100)) {
    throw Error("minimum effect {}% is invalid: use a percentage >= 0 and below 100, e.g. 1", min_effect_pct);
  }
  const double p = min_effect_pct / 100;
  if (scale == PairedScale::LogRatio) {
    return {std::log1p(-p), std::log1p(p)};
  }
  return {-p * std::abs(reference_level), p * std::abs(reference_level)};
}

UntilDecisive::UntilDecisive(const UntilDecisiveOptions& options) : m_options(options)
{
  if (!(options.min_effect.low <= 0 && options.min_effect.high >= 0)) {
    throw Error("minimum effect band [{}, {}] does not hold 0: give the smallest change that matters "
                "below and above no change",
                options.min_effect.low, options.min_effect.high);
  }
  obrien_fleming_boundaries(options.max_rounds, options.alpha); // validates, and computes once
  m_sorted.reserve(options.max_rounds);
}

void UntilDecisive::add(double value)
{
  if (!std::isfinite(value)) {
    throw Error("per-round value {} is not finite: a round's values must be finite numbers", value);
  }
  if (m_sorted.size() == m_options.max_rounds) {
    throw Error("all {} planned rounds are already in: plan more rounds to go on", m_options.max_rounds);
  }
  m_sorted.insert(std::upper_bound(m_sorted.begin(), m_sorted.end(), value), value);
}

DecisiveState UntilDecisive::state() const
{
  DecisiveState s;
  s.rounds = m_sorted.size();
  if (s.rounds == 0) {
    s.confidence = 1;
    s.low = -std::numeric_limits<double>::infinity();
    s.high = std::numeric_limits<double>::infinity();
    return s;
  }
  const SpendingBoundary& look =
      obrien_fleming_boundaries(m_options.max_rounds, m_options.alpha)[s.rounds - 1];
  s.confidence = 1 - 2 * look.tail;
  const Location location = paired_interval(m_sorted, s.confidence);
  s.estimate = location.estimate;
  s.low = location.low;
  s.high = location.high;

  // The per-round values are candidate against reference: below 0 is better when lower is.
  const bool lower_better = m_options.direction == Direction::LowerIsBetter;
  const EffectBand band = m_options.min_effect;
  const bool below = s.high < 0 && s.estimate < band.low; // moved down, beyond the min effect
  const bool above = s.low > 0 && s.estimate > band.high;
  if (below || above) {
    s.decision = below == lower_better ? Decision::Improved : Decision::Regressed;
  } else if (s.low >= band.low && s.high <= band.high && band.low < band.high) {
    s.decision = Decision::Equivalent;
  } else if (s.rounds < m_options.max_rounds) {
    s.decision = Decision::GoOn;
  } else {
    s.decision = Decision::Inconclusive;
    // The half-width that would decide: down to 0 when the estimate is beyond the min effect, to
    // the nearer edge of the band when it is within.
    const double half_width = (s.high - s.low) / 2;
    const bool outside = s.estimate < band.low || s.estimate > band.high;
    const double needed =
        outside ? std::abs(s.estimate) : std::min(s.estimate - band.low, band.high - s.estimate);
    if (std::isfinite(half_width) && needed > 0) {
      const double factor = half_width / needed;
      const double projected = std::ceil(static_cast<double>(s.rounds) * factor * factor);
      s.rounds_needed = std::max(s.rounds + 1, static_cast<std::size_t>(projected));
    }
  }
  return s;
}

} // namespace ej::measure
