#pragma once

#include <cstddef>
#include <optional>
#include <vector>

// How small a change a rank test could see: the minimum detectable effect at a given power, and the
// robust spread and drift that feed it. Knows nothing of ej: plain numbers in, plain numbers out.
namespace ej::measure {

enum class Pairing {
  Paired,    // rounds of an interleaved comparison: the signed-rank test on per-round values
  TwoSample, // two runs measured apart: the Mann-Whitney test on their samples
};

// The smallest true shift (on the scale of sigma) that a two-sided rank test at `alpha` detects with
// probability `power` from n values (rounds; or repeats a side): Noether's approximation with the
// t distribution's quantiles on n - 1 degrees of freedom instead of the normal's (with the normal's,
// ten rounds detect it 70% of the time, not 80%: tests/perf/detectable_effect_bench):
// (t[1-alpha/2] + t[power]) * sigma / sqrt(n * 3/pi), with sqrt(2) more for two independent samples
// (2n - 2 degrees of freedom). 3/pi is the rank tests' efficiency against the t test under normal
// noise. Returns 0 when n < 2.
double detectable_effect(double sigma, std::size_t n, Pairing pairing, double alpha = 0.05,
                         double power = 0.8);

// The fewest values (rounds; or repeats a side), from 2 up to `most`, at which detectable_effect
// is at most `effect`: the search inverts that same formula, so the t quantiles' dependence on n is
// kept exactly. nullopt when `most` values do not suffice, or when effect or sigma is not positive.
std::optional<std::size_t> values_needed(double sigma, double effect, Pairing pairing, std::size_t most,
                                         double alpha = 0.05, double power = 0.8);

// The noise (sigma per value) that a rank interval of `half_width` at `confidence` from n values
// implies under the same approximation: half_width = t[(1 + confidence) / 2] * sigma / sqrt(n * 3/pi)
// (sqrt(2) more for two samples; for samples of unequal sizes give n = 2ab / (a + b)). The noise a
// verdict observed, where no calibration measured it. 0 when n < 2.
double sigma_from_interval(double half_width, double n, Pairing pairing, double confidence = 0.95);

// The quantile of Student's t distribution with `dof` degrees of freedom (0.5 <= p < 1), by the
// Cornish-Fisher expansion around the normal quantile: within 0.2% of the exact value from 5
// degrees of freedom on at the quantiles used here.
double t_quantile(double p, double dof);

// The sample standard deviation (n - 1). 0 with fewer than two values.
double sample_sigma(const std::vector<double>& values);

// The standard deviation as the scaled median absolute deviation (1.4826 * MAD): a single outlier
// moves it little. 0 with fewer than two values.
double robust_sigma(std::vector<double> values);

// The Theil-Sen slope of values over their index (the median of every pairwise slope), times the
// span of the index: how far the level moved from the first value to the last, robust to single
// outliers. 0 with fewer than two values.
double level_drift(const std::vector<double>& values);

// The standard error of level_drift under noise alone: the least-squares slope's, sigma * (n - 1) *
// sqrt(12 / (n (n^2 - 1))), with sigma from successive differences (sd / sqrt 2), which a steady
// drift does not inflate. A drift within two of these is what noise alone draws. 0 with fewer than
// three values.
double level_drift_error(const std::vector<double>& values);

} // namespace ej::measure
