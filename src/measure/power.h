#pragma once

#include <cstddef>
#include <vector>

// How small a change a rank test could see: the minimum detectable effect at a given power, and the
// robust spread and drift that feed it. Knows nothing of ej: plain numbers in, plain numbers out.
namespace ej::measure {

enum class Pairing {
  Paired,    // rounds of an interleaved comparison: the signed-rank test on per-round values
  TwoSample, // two runs measured apart: the Mann-Whitney test on their samples
};

// The smallest true shift (on the scale of sigma) that a two-sided rank test at `alpha` detects with
// probability `power` from n values (rounds; or repeats a side), by Noether's normal approximation:
// (z[1-alpha/2] + z[power]) * sigma / sqrt(n * 3/pi), with sqrt(2) more for two independent samples.
// 3/pi is the rank tests' efficiency against the t test under normal noise. Returns 0 when n is 0.
double detectable_effect(double sigma, std::size_t n, Pairing pairing, double alpha = 0.05,
                         double power = 0.8);

// The standard deviation as the scaled median absolute deviation (1.4826 * MAD): a single outlier
// moves it little. 0 with fewer than two values.
double robust_sigma(std::vector<double> values);

// The Theil-Sen slope of values over their index (the median of every pairwise slope), times the
// span of the index: how far the level moved from the first value to the last, robust to single
// outliers. 0 with fewer than two values.
double level_drift(const std::vector<double>& values);

} // namespace ej::measure
