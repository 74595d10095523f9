#include "measure/power.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

// Expected figures from Python's statistics.NormalDist (inv_cdf(0.975) + inv_cdf(0.8) =
// 2.801585218112968) in Noether's formula z * sigma / sqrt(n * 3 / pi), times sqrt(2) for two samples.
TEST_CASE("the detectable effect of a rank test follows Noether's approximation")
{
  using ej::measure::detectable_effect;
  using ej::measure::Pairing;
  CHECK(detectable_effect(0.01, 10, Pairing::Paired) == Approx(0.009066050759535248).epsilon(1e-9));
  CHECK(detectable_effect(0.01, 20, Pairing::Paired) == Approx(0.006410665970648823).epsilon(1e-9));
  CHECK(detectable_effect(0.01, 50, Pairing::Paired) == Approx(0.004054461157156883).epsilon(1e-9));
  CHECK(detectable_effect(0.01, 20, Pairing::TwoSample) == Approx(0.009066050759535248).epsilon(1e-9));
  CHECK(detectable_effect(0.01, 0, Pairing::Paired) == 0);
  // Four times the values, half the effect.
  CHECK(detectable_effect(1, 80, Pairing::Paired) == Approx(detectable_effect(1, 20, Pairing::Paired) / 2));
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
