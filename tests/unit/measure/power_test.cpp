#include "measure/power.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

// Student's t quantiles as SciPy 1.10 gives them: scipy.stats.t.ppf(0.975, 9) = 2.2621571627409915,
// t.ppf(0.975, 19) = 2.093024054408263, t.ppf(0.975, 49) = 2.009575234489209, t.ppf(0.8, 9) =
// 0.8834038596, t.ppf(0.8, 19) = 0.8609506; the expansion is held to 0.1% of them.
TEST_CASE("the t quantile's expansion agrees with SciPy's within a tenth of a percent")
{
  using ej::measure::t_quantile;
  CHECK(t_quantile(0.975, 9) == Approx(2.2621571627409915).epsilon(1e-3));
  CHECK(t_quantile(0.975, 19) == Approx(2.093024054408263).epsilon(1e-3));
  CHECK(t_quantile(0.975, 49) == Approx(2.009575234489209).epsilon(1e-3));
  CHECK(t_quantile(0.8, 9) == Approx(0.8834038596).epsilon(1e-3));
  CHECK(t_quantile(0.8, 19) == Approx(0.8609506).epsilon(1e-3));
}

// Expected figures from Python (statistics.NormalDist for the normal quantiles, the same expansion
// for t): (t[0.975] + t[0.8]) * sigma / sqrt(n * 3 / pi) on n - 1 degrees of freedom; two samples:
// times sqrt(2) on 2n - 2.
TEST_CASE("the detectable effect of a rank test follows Noether's approximation with t quantiles")
{
  using ej::measure::detectable_effect;
  using ej::measure::Pairing;
  CHECK(detectable_effect(0.01, 10, Pairing::Paired) == Approx(0.010178346822335522).epsilon(1e-9));
  CHECK(detectable_effect(0.01, 20, Pairing::Paired) == Approx(0.006759339192741284).epsilon(1e-9));
  CHECK(detectable_effect(0.01, 50, Pairing::Paired) == Approx(0.004136963481923559).epsilon(1e-9));
  CHECK(detectable_effect(0.01, 10, Pairing::TwoSample) == Approx(0.013559834813186568).epsilon(1e-9));
  CHECK(detectable_effect(0.01, 50, Pairing::TwoSample) == Approx(0.00579156217580022).epsilon(1e-9));
  CHECK(detectable_effect(0.01, 1, Pairing::Paired) == 0);
}

TEST_CASE("the sample standard deviation divides by n - 1")
{
  CHECK(ej::measure::sample_sigma({1, 2, 3, 4, 100}) == Approx(43.617656975128774)); // statistics.stdev
  CHECK(ej::measure::sample_sigma({7}) == 0);
}

TEST_CASE("the robust spread is the scaled median absolute deviation, moved little by an outlier")
{
  CHECK(ej::measure::robust_sigma({1, 2, 3, 4, 100}) == Approx(1.4826));
  CHECK(ej::measure::robust_sigma({5}) == 0);
  CHECK(ej::measure::robust_sigma({2, 2, 2}) == 0);
}

TEST_CASE("the level's drift is the Theil-Sen slope over the series, robust to a single outlier")
{
  CHECK(ej::measure::level_drift({0, 1, 2, 3, 4, 50, 6}) == Approx(6.0));
  CHECK(ej::measure::level_drift({3, 3, 3, 3}) == 0);
  CHECK(ej::measure::level_drift({4, 2}) == Approx(-2.0));
  CHECK(ej::measure::level_drift({1}) == 0);
}

TEST_CASE("the drift's standard error is the least-squares slope's, from successive differences")
{
  // Alternating 0, 1: successive differences +-1 (sd 1.0541 over 9 steps), so sigma = sd / sqrt 2;
  // times (n - 1) sqrt(12 / (n (n^2 - 1))) with n = 10. A steady climb has no spread of steps: 0.
  const std::vector<double> zigzag{0, 1, 0, 1, 0, 1, 0, 1, 0, 1};
  const double sd = std::sqrt((9 - 1.0 / 9) * 9 / 8 / 9 * 1.0); // sample sd of 5 x +1 and 4 x -1
  CHECK(ej::measure::level_drift_error(zigzag) ==
        Approx(sd / std::sqrt(2.0) * 9 * std::sqrt(12.0 / (10 * 99))));
  CHECK(ej::measure::level_drift_error({1, 2, 3, 4, 5}) == Approx(0).margin(1e-12));
  CHECK(ej::measure::level_drift_error({1, 2}) == 0);
}

// Expected figures from Python with mpmath 1.3 (exact t quantiles: the regularized incomplete beta
// function inverted with findroot, which gives t.ppf(0.975, 9) = 2.2621571628 as SciPy does), counting
// n up from 2 until (t[0.975] + t[0.8]) * sigma / sqrt(n * 3/pi) (sqrt(2) more, 2n - 2 degrees of
// freedom, for two samples) is at most the effect. Each case is at least 0.3% from the next n's
// boundary, more than the expansion's error.
TEST_CASE("the values needed to detect an effect are the fewest whose detectable effect reaches it")
{
  using ej::measure::Pairing;
  using ej::measure::values_needed;
  CHECK(values_needed(0.02, std::log(1.01), Pairing::Paired, 1000) == 36u);
  CHECK(values_needed(0.01, 0.005, Pairing::Paired, 1000) == 35u);
  CHECK(values_needed(0.01, 0.01, Pairing::Paired, 1000) == 11u);
  CHECK(values_needed(0.05, 0.02, Pairing::TwoSample, 1000) == 104u);
  // More than the most allowed, or nothing to detect: no answer rather than a wrong one.
  CHECK_FALSE(values_needed(0.01, 0.005, Pairing::Paired, 34));
  CHECK_FALSE(values_needed(0.01, 0, Pairing::Paired, 1000));
  CHECK_FALSE(values_needed(0, 0.01, Pairing::Paired, 1000));
}

// The half-width of a 95% interval from 20 rounds at sigma 0.01, t.ppf(0.975, 19) * 0.01 /
// sqrt(20 * 3/pi) = 0.0047893164 (mpmath, as above): the noise it implies is that sigma again.
TEST_CASE("the noise an interval implies inverts the interval's width under the same approximation")
{
  using ej::measure::Pairing;
  using ej::measure::sigma_from_interval;
  CHECK(sigma_from_interval(0.0047893164179322645, 20, Pairing::Paired) == Approx(0.01).epsilon(1e-3));
  const double two_sample =
      ej::measure::t_quantile(0.975, 38) * 0.01 * std::sqrt(2.0) / std::sqrt(20 * 3 / std::numbers::pi);
  CHECK(sigma_from_interval(two_sample, 20, Pairing::TwoSample) == Approx(0.01).epsilon(1e-9));
  CHECK(sigma_from_interval(0.01, 1, Pairing::Paired) == 0);
}
