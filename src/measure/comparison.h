#pragma once

#include "measure/statistics.h"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ej::measure {

enum class Outcome { Improved, Regressed, NoChange, Inconclusive };

// "improved", "regressed", "no change", "inconclusive"
std::string_view to_string(Outcome outcome);

struct CompareOptions {
  Direction direction = Direction::LowerIsBetter;
  double min_effect_pct = 0.0; // the smallest change that matters, in percent of the reference median
  double alpha = 0.05;         // significance level of the two-sided Mann-Whitney U test
  double confidence = 0.95;    // of the Hodges-Lehmann interval
};

// Below this many samples on either side the outcome is always inconclusive.
inline constexpr std::size_t k_min_samples = 4;
// Below this many samples a comparison carries a warning that the test has little power.
inline constexpr std::size_t k_few_samples = 9;

// Every percentage is signed so that positive means better for the metric's direction.
struct Comparison {
  std::size_t n_reference = 0;
  std::size_t n_candidate = 0;
  double reference_median = 0;
  double candidate_median = 0;
  std::optional<double> ratio;           // candidate median / reference median (raw, not signed)
  std::optional<double> change_pct;      // median change in % of the reference median
  std::optional<double> shift_pct;       // Hodges-Lehmann shift in % of the reference median
  std::optional<double> change_low_pct;  // the shift's confidence interval in % of the reference
  std::optional<double> change_high_pct; // median (low <= high, both signed like change_pct)
  double shift = 0;                      // Hodges-Lehmann shift candidate - reference, in the metric's unit
  double shift_low = 0;                  // its distribution-free confidence interval, same unit
  double shift_high = 0;
  double confidence = 0.95;
  double u = 0; // Mann-Whitney U of the candidate: pairs candidate > reference + half the ties
  double p_value = 1;
  bool exact = false; // p-value from the exact U distribution (small samples without ties)
  Outcome outcome = Outcome::Inconclusive;
  std::vector<std::string> warnings; // sentences for the user, in a fixed order
};

// Compares a candidate's raw samples against the reference (baseline) samples.
// Outcome: improved/regressed when p < alpha and the median change is beyond min_effect_pct in
// that direction (the Hodges-Lehmann shift agreeing in sign); no change when the shift's interval
// lies within +-min_effect_pct; otherwise inconclusive, and always inconclusive below
// k_min_samples on either side. A reference median of 0 (or so near 0 that a percentage overflows)
// leaves the ratio and percentages empty and decides on the raw shift (a threshold of 0). Throws ej::Error on
// empty or non-finite samples or options out of range.
Comparison compare(std::span<const double> reference, std::span<const double> candidate,
                   const CompareOptions& options);

// One line for listings: "+3.5% improved [2.9, 4.1] p=0.002" (median change, outcome, interval of
// the shift in %, p-value).
std::string short_verdict(const Comparison& comparison);

} // namespace ej::measure
