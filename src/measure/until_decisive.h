#pragma once

// Stopping an interleaved comparison once its answer is clear: after every round, the repeated
// confidence interval of the per-round values (alpha_spending.h) is read against the minimum
// effect, so looking after each round does not raise the rate of false verdicts.

#include "measure/paired.h"
#include "measure/statistics.h"

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace ej::measure {

enum class Decision {
  GoOn,        // not decisive yet, rounds left
  Improved,    // the interval excludes no change on the better side and the estimate passes the min effect
  Regressed,   // the same on the worse side
  Equivalent,  // the interval lies wholly within the min effect: no change that matters
  Inconclusive // the planned rounds are spent without any of the above
};

// "go on", "improved", "regressed", "equivalent", "inconclusive"
std::string_view to_string(Decision decision);

// The minimum effect as bounds on the per-round values: for log ratios a change of min_effect_pct
// either way (log(1 - p / 100), log(1 + p / 100)), as compare() reads a change in percent; for
// differences min_effect_pct of |reference_level| (the reference's median) either way.
struct EffectBand {
  double low = 0;  // <= 0
  double high = 0; // >= 0
};
EffectBand effect_band(PairedScale scale, double min_effect_pct, double reference_level = 0);

struct UntilDecisiveOptions {
  Direction direction = Direction::LowerIsBetter; // of the metric; the per-round values keep its sign
  EffectBand min_effect;
  double alpha = 0.05;          // the false-verdict rate over all looks together, two-sided
  std::size_t max_rounds = 100; // the plan: 1 .. k_max_planned_rounds
};

struct DecisiveState {
  Decision decision = Decision::GoOn;
  std::size_t rounds = 0;
  double estimate = 0; // Hodges-Lehmann estimate of the per-round values (0 before any round)
  double low = 0;      // the look's repeated confidence interval; +-infinity while unbounded
  double high = 0;
  double confidence = 0; // its nominal confidence (1 while this look can decide nothing)
  // Inconclusive only: the rounds a plan would likely need for a decision, projecting the interval's
  // width as 1 / sqrt(rounds) with the estimate where it is; empty when no width would do (the
  // estimate sits on the min effect) or the interval is unbounded.
  std::optional<std::size_t> rounds_needed;
};

// Feed it the per-round values in round order; ask for the state after any round. A pure value:
// no clock, no randomness. Decisions follow compare()'s outcome on the repeated interval: improved
// and regressed need the interval to exclude 0 and the estimate to pass the min effect, equivalent
// needs the whole interval within it (impossible with a min effect of 0).
class UntilDecisive {
public:
  // Throws ej::Error for options out of range.
  explicit UntilDecisive(const UntilDecisiveOptions& options);

  // Throws ej::Error for a non-finite value, or once the planned rounds are spent.
  void add(double value);
  DecisiveState state() const;
  std::size_t rounds() const { return m_sorted.size(); }

private:
  UntilDecisiveOptions m_options;
  std::vector<double> m_sorted; // the values so far, ascending
};

} // namespace ej::measure
