#include "measure/false_discovery.h"
#include "util/error.h"

#include <catch2/catch.hpp>

#include <vector>

using namespace ej::measure;

// SciPy 1.10.1 (the machine's) predates scipy.stats.false_discovery_control (1.11): the adjusted
// values were computed with NumPy 1.24.2 by R's p.adjust(p, "BH") formula,
//   o = numpy.argsort(p, kind="stable"); m = len(p)
//   adj = numpy.minimum(numpy.minimum.accumulate((m * p[o] / numpy.arange(1, m + 1))[::-1])[::-1], 1)
// and the discoveries by hand: sorted, the p-values 0.0001, 0.005, 0.010, 0.030, ... meet the
// step-up thresholds k * 0.05 / 10 = 0.005, 0.010, 0.015, 0.020, ... up to rank 3 only (0.030 >
// 0.020, and no later p(k) <= k * 0.005 either: 0.049 > 0.040), so exactly the three smallest are
// discoveries at q = 0.05, although seven are below 0.05 on their own.
TEST_CASE("Benjamini-Hochberg finds the discoveries of a hand-computed example")
{
  const std::vector<double> p{0.010, 0.040, 0.030, 0.005, 0.200, 0.041, 0.600, 0.049, 0.039, 0.0001};
  const std::vector<bool> expected{true, false, false, true, false, false, false, false, false, true};
  CHECK(benjamini_hochberg(p, 0.05) == expected);

  const std::vector<double> adjusted_expected{0.03333333333333333,
                                              0.05857142857142857,
                                              0.05857142857142857,
                                              0.025,
                                              0.2222222222222222,
                                              0.05857142857142857,
                                              0.6,
                                              0.06125,
                                              0.05857142857142857,
                                              0.001};
  const auto adjusted = benjamini_hochberg_adjusted(p);
  REQUIRE(adjusted.size() == adjusted_expected.size());
  for (std::size_t i = 0; i < adjusted.size(); ++i) {
    CHECK(adjusted[i] == Approx(adjusted_expected[i]).epsilon(1e-12));
  }
  // At q = 0.06 the 0.039, 0.040 and 0.041 join (adjusted 0.0586), 0.049 does not (0.06125).
  CHECK(benjamini_hochberg(p, 0.06) ==
        std::vector<bool>{true, true, true, true, false, true, false, false, true, true});
}

TEST_CASE("Benjamini-Hochberg rejects p-values that are not probabilities and levels out of range")
{
  CHECK(benjamini_hochberg(std::vector<double>{}, 0.05).empty());
  CHECK(benjamini_hochberg(std::vector<double>{0.04}, 0.05) == std::vector<bool>{true});
  CHECK_THROWS_AS(benjamini_hochberg(std::vector<double>{1.5}, 0.05), ej::Error);
  CHECK_THROWS_AS(benjamini_hochberg(std::vector<double>{0.5}, 0.0), ej::Error);
  CHECK_THROWS_AS(benjamini_hochberg_adjusted(std::vector<double>{-0.1}), ej::Error);
}
