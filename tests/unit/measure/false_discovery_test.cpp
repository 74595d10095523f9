#include "measure/false_discovery.h"
#include "util/error.h"

#include <catch2/catch.hpp>

#include <optional>
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

// Two tested series and one without a test. By hand from the definition (adjusted p(k) = min over
// j >= k of m * p(j) / j, m = 2 tested): 0.03125 (six rounds all one way, the exact signed-rank p
// 2/64) and 0.5 give 2 * 0.03125 / 1 = 0.0625 and 2 * 0.5 / 2 = 0.5, so 0.03125 is below 0.05 on
// its own but no discovery at q = 0.05 (it needs p <= 1 * 0.05 / 2 = 0.025); with 0.04 beside it,
// 2 * 0.04 / 2 = 0.04 <= 0.05 lifts both (the step-up: 0.0625 becomes min(0.0625, 0.04)). SciPy's
// false_discovery_control([0.03125, 0.5]) and ([0.03125, 0.04]) give the same by the formula of
// the test above; the last assertions check benjamini_hochberg_adjusted agrees.
TEST_CASE("A verdict's series pass false-discovery control among those with a test")
{
  const std::vector<std::optional<double>> alone{0.03125, std::nullopt, 0.5};
  CHECK(passes_false_discovery(alone, 0.05) == std::vector<bool>{false, true, false});
  const std::vector<std::optional<double>> together{0.03125, 0.04};
  CHECK(passes_false_discovery(together, 0.05) == std::vector<bool>{true, true});
  // One tested series is its own family: BH is the plain test at q.
  const std::vector<std::optional<double>> one{std::nullopt, 0.03125};
  CHECK(passes_false_discovery(one, 0.05) == std::vector<bool>{true, true});
  CHECK(passes_false_discovery(std::vector<std::optional<double>>{}, 0.05).empty());

  const auto a = benjamini_hochberg_adjusted(std::vector<double>{0.03125, 0.5});
  CHECK(a[0] == Approx(0.0625).epsilon(1e-12));
  CHECK(a[1] == Approx(0.5).epsilon(1e-12));
  const auto b = benjamini_hochberg_adjusted(std::vector<double>{0.03125, 0.04});
  CHECK(b[0] == Approx(0.04).epsilon(1e-12));
  CHECK(b[1] == Approx(0.04).epsilon(1e-12));
}
