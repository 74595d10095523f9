#pragma once

#include "measure/statistics.h"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ej::measure {

// Mixed is never the outcome of one comparison: it summarises several (a sweep whose candidate
// improved at some combinations and regressed at others).
enum class Outcome { Improved, Regressed, NoChange, Inconclusive, Mixed };

// "improved", "regressed", "no change", "inconclusive", "mixed"
std::string_view to_string(Outcome outcome);

// What a comparison rests on: a test needs k_min_samples a side.
enum class Basis { SingleFigures, TooFewSamples, Test };

// How the change is estimated. Ratio for metrics whose samples are all positive (times,
// throughputs): the Hodges-Lehmann shift of the log values turned back into a ratio, which can
// never pass -100%. Shift for metrics that can be zero or negative: the Hodges-Lehmann shift in
// the metric's own unit.
enum class Estimate { Ratio, Shift };

struct CompareOptions {
  Direction direction = Direction::LowerIsBetter;
  double min_effect_pct = 0.0; // the smallest change that matters, in percent of the reference
  double alpha = 0.05;         // significance level of the two-sided Mann-Whitney U test
  double confidence = 0.95;    // of the Hodges-Lehmann interval
  double noisy_cv = 0.10;      // a side whose coefficient of variation passes this gets a warning
};

// Below this many samples on either side there is no test and the outcome is inconclusive.
inline constexpr std::size_t k_min_samples = 4;
// Below this many samples a comparison carries a warning that the test has little power.
inline constexpr std::size_t k_few_samples = 9;

// Every change is signed as the value moved: a time that fell from 27.8 to 11.5 ms is -58.6%,
// whatever the direction; the outcome says whether that is better.
struct Comparison {
  std::size_t n_reference = 0;
  std::size_t n_candidate = 0;
  double reference_median = 0;
  double candidate_median = 0;
  Basis basis = Basis::Test;
  Estimate estimate = Estimate::Ratio;
  // Estimate::Ratio: candidate / reference (exp of the Hodges-Lehmann shift of log values) and, with
  // a test, its distribution-free interval; change_pct = (ratio - 1) * 100, likewise its bounds.
  std::optional<double> ratio;
  std::optional<double> ratio_low;
  std::optional<double> ratio_high;
  std::optional<double> change_pct;
  std::optional<double> change_low_pct;
  std::optional<double> change_high_pct;
  // Estimate::Shift: the Hodges-Lehmann shift candidate - reference in the metric's unit and, with a
  // test, its interval. Empty with Estimate::Ratio (not computed: it is a different estimate).
  std::optional<double> shift;
  std::optional<double> shift_low;
  std::optional<double> shift_high;
  std::optional<double> median_ratio; // candidate median / reference median, when defined
  double confidence = 0.95;
  std::optional<double> u; // Mann-Whitney U of the candidate (pairs candidate > reference + half the ties)
  std::optional<double> p_value; // two-sided; empty without a test
  bool exact = false;            // p-value from the exact permutation distribution
  Outcome outcome = Outcome::Inconclusive;
  std::vector<std::string> warnings; // sentences for the user, in a fixed order
};

// Compares a candidate's raw samples against the reference (baseline) samples.
// Outcome, with a test (k_min_samples or more a side): improved/regressed when p < alpha and the
// estimate moved beyond min_effect_pct in the better/worse direction; no change when the
// estimate's interval lies within +-min_effect_pct; otherwise inconclusive. Without a test always
// inconclusive. Throws ej::Error on empty or non-finite samples or options out of range.
Comparison compare(std::span<const double> reference, std::span<const double> candidate,
                   const CompareOptions& options);

} // namespace ej::measure
