#include "measure/comparison.h"

#include "util/error.h"

#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace ej::measure;

// Reference values: SciPy 1.10.1 / NumPy 1.24.2 (see mann_whitney_test.cpp and
// hodges_lehmann_test.cpp for the same samples). The ratio estimate is worked out in NumPy as
//   ld = np.sort(np.subtract.outer(np.log(cand), np.log(ref)).ravel())
//   (np.exp(np.median(ld)) - 1) * 100, and the interval (np.exp(ld[k - 1]) - 1) * 100,
//   (np.exp(ld[len(ld) - k]) - 1) * 100 with k the interval rank of the raw shift.

namespace {

const std::vector<double> k_reference{10.0457, 9.844,   10.1126, 10.1411, 9.7073,
                                      9.8047,  10.0192, 9.9526,  9.9975,  9.872};
const std::vector<double> k_candidate{9.8319, 9.8167, 9.7099, 9.8691, 9.7701, 9.5711,
                                      9.7553, 9.5562, 9.8318, 9.6925, 9.6723, 9.5979};

CompareOptions lower_is_better(double min_effect_pct = 0.0)
{
  CompareOptions options;
  options.direction = Direction::LowerIsBetter;
  options.min_effect_pct = min_effect_pct;
  return options;
}

CompareOptions higher_is_better()
{
  CompareOptions options;
  options.direction = Direction::HigherIsBetter;
  return options;
}

bool mentions(const Comparison& c, std::string_view text)
{
  for (const auto& warning : c.warnings) {
    if (warning.find(text) != std::string::npos) {
      return true;
    }
  }
  return false;
}

} // namespace

TEST_CASE("A faster candidate is an improvement, its change signed as the time moved")
{
  const auto c = compare(k_reference, k_candidate, lower_is_better());
  CHECK(c.n_reference == 10);
  CHECK(c.n_candidate == 12);
  CHECK(c.reference_median == Approx(9.97505).epsilon(1e-14));
  CHECK(c.candidate_median == Approx(9.7326).epsilon(1e-14));
  CHECK(c.basis == Basis::Test);
  CHECK(c.estimate == Estimate::Ratio);
  REQUIRE(c.ratio);
  CHECK(*c.ratio == Approx(0.9760479016795115).epsilon(1e-12));
  REQUIRE(c.change_pct);
  CHECK(*c.change_pct == Approx(-2.39520983204885).epsilon(1e-10));
  // Interval rank 30 (the raw shift's interval is [-0.3469, -0.1122]).
  CHECK(*c.change_low_pct == Approx(-3.462352283615455).epsilon(1e-10));
  CHECK(*c.change_high_pct == Approx(-1.1443491386784022).epsilon(1e-10));
  CHECK(*c.ratio_low == Approx(1 - 0.03462352283615455).epsilon(1e-12));
  CHECK(*c.median_ratio == Approx(9.7326 / 9.97505).epsilon(1e-12));
  CHECK_FALSE(c.shift); // another estimate: not computed
  CHECK(*c.u == 12.0);
  CHECK(c.exact);
  CHECK(*c.p_value == Approx(0.0008319853521091911).epsilon(1e-10));
  CHECK(c.outcome == Outcome::Improved);
  CHECK(c.warnings.empty());
}

TEST_CASE("The same change is a regression for a higher-is-better metric, with the same sign")
{
  const auto c = compare(k_reference, k_candidate, higher_is_better());
  CHECK(*c.change_pct == Approx(-2.39520983204885).epsilon(1e-10));
  CHECK(*c.change_low_pct == Approx(-3.462352283615455).epsilon(1e-10));
  CHECK(*c.change_high_pct == Approx(-1.1443491386784022).epsilon(1e-10));
  CHECK(c.outcome == Outcome::Regressed);
}

TEST_CASE("A significant change smaller than the minimum effect is no change when the interval fits")
{
  // Interval [-3.46%, -1.14%] lies within +-5%.
  const auto c = compare(k_reference, k_candidate, lower_is_better(5.0));
  CHECK(c.outcome == Outcome::NoChange);
}

TEST_CASE("A change below the minimum effect whose interval reaches past it is inconclusive")
{
  // Change -2.40%, within 3%, but the interval reaches -3.46%.
  const auto c = compare(k_reference, k_candidate, lower_is_better(3.0));
  CHECK(c.outcome == Outcome::Inconclusive);
}

TEST_CASE("A change beyond the minimum effect stays an improvement")
{
  CHECK(compare(k_reference, k_candidate, lower_is_better(2.0)).outcome == Outcome::Improved);
}

TEST_CASE("Tied integer samples get the ratio of the shifted logs and its interval")
{
  const std::vector<double> reference{100, 106, 103, 106, 104, 105, 105, 101, 102, 103,
                                      103, 100, 103, 101, 105, 104, 106, 105, 102, 106,
                                      102, 102, 106, 102, 100, 103, 105, 101, 103, 100};
  const std::vector<double> candidate{102, 101, 100, 99,  101, 102, 104, 101, 99,  103, 102, 102, 98,
                                      100, 103, 103, 101, 103, 103, 100, 104, 100, 99,  102, 102};
  const auto c = compare(reference, candidate, lower_is_better());
  CHECK(*c.u == 200.0);
  CHECK(*c.p_value < 0.01); // its exact value is mann_whitney_test's to check
  CHECK(*c.change_pct == Approx(-1.9047619047618647).epsilon(1e-9));
  // NumPy, interval rank 260: the raw shift's [-3, -1] as ratios of the tied values.
  CHECK(*c.change_low_pct == Approx(-2.857142857142869).epsilon(1e-9));
  CHECK(*c.change_high_pct == Approx(-0.9615384615384359).epsilon(1e-9));
  CHECK(c.outcome == Outcome::Improved);
}

TEST_CASE("A higher throughput with a large sample is an improvement by the approximation")
{
  const std::vector<double> reference{
      50.6789, 50.0676, 50.2891, 50.6313, 48.5428, 49.6803, 49.5296, 49.3611, 49.7249, 51.4949,
      49.1342, 50.9683, 48.3171, 49.6651, 50.1628, 50.5862, 50.7112, 50.7933, 49.6513, 49.5376,
      50.858,  49.8087, 48.7243, 48.8667, 49.0805, 50.4972, 50.1424, 50.6905, 49.5727, 50.1585,
      50.6256, 49.6907, 50.4568, 49.3381, 49.6369, 49.6183, 48.8042, 50.487,  49.5306, 50.0125,
      50.4807, 50.4465, 50.6654, 49.9015, 49.5767, 49.9203, 48.3127, 48.5529, 48.6773, 49.0028,
      50.3998, 49.0945, 49.6218, 51.2992, 49.6437, 50.7375, 49.0664, 49.7946, 49.05,   49.661};
  const std::vector<double> candidate{
      51.1403, 48.5727, 50.7344, 50.5377, 49.7059, 48.8539, 50.3721, 49.7705, 50.5327, 50.3219,
      51.9018, 50.0606, 49.2765, 50.4793, 50.52,   51.6592, 51.1351, 50.6569, 51.7633, 49.1112,
      49.6602, 49.3734, 49.9102, 48.9233, 50.9352, 50.0778, 48.8292, 49.2844, 50.6135, 51.1381,
      52.2967, 53.2139, 50.7144, 49.3105, 48.168,  50.5677, 49.4871, 49.8846, 49.6879, 50.1592,
      51.366,  50.457,  50.1414, 49.2643, 48.6253, 49.8137, 50.2462, 52.0679, 50.4303, 51.2827,
      49.8007, 49.1151, 49.3349, 49.5748, 52.4285, 49.4786, 51.1385, 49.3971, 51.2316, 50.685,
      50.1434, 50.2592, 49.6452, 50.7461, 49.845,  49.0744, 49.0221, 50.4726, 51.8791, 50.46};
  const auto c = compare(reference, candidate, higher_is_better());
  CHECK_FALSE(c.exact);
  CHECK(*c.p_value == Approx(0.036627707277578664).epsilon(1e-9));
  // NumPy, interval rank 1680.
  CHECK(*c.change_pct == Approx(0.6819896137068016).epsilon(1e-9));
  CHECK(*c.change_low_pct == Approx(0.039385504501798785).epsilon(1e-7));
  CHECK(*c.change_high_pct == Approx(1.3661350785698856).epsilon(1e-9));
  CHECK(c.outcome == Outcome::Improved);
}

TEST_CASE("A time that fell from 27.8 to 11.5 ms is -58.7%, and its interval never passes -100%")
{
  const std::vector<double> reference{27.8, 27.9, 27.7, 28.0, 27.85, 27.75};
  const std::vector<double> candidate{11.5, 11.6, 11.4, 11.55, 11.45, 11.5};
  const auto c = compare(reference, candidate, lower_is_better());
  CHECK(*c.change_pct == Approx(-58.685816015397876).epsilon(1e-10));
  CHECK(*c.p_value == Approx(0.0021645021645021645).epsilon(1e-10)); // SciPy, exact
  CHECK(c.outcome == Outcome::Improved);
  // A thousandfold drop: the shift of the raw values would be -99.9% of the median and its
  // interval could pass -100%; a ratio cannot.
  const std::vector<double> tiny{0.01, 0.011, 0.012, 0.013, 0.014};
  const std::vector<double> big{10, 20, 30, 40, 50};
  const auto drop = compare(big, tiny, lower_is_better());
  CHECK(*drop.change_low_pct > -100);
  CHECK(*drop.change_high_pct > -100);
  CHECK(*drop.change_pct > -100);
}

TEST_CASE("Identical samples are no change, without dividing by zero")
{
  const std::vector<double> same(6, 4.0);
  const auto c = compare(same, same, lower_is_better());
  CHECK(*c.p_value == 1.0);
  CHECK(*c.ratio == 1.0);
  CHECK(*c.change_pct == 0.0);
  CHECK(c.outcome == Outcome::NoChange);
  CHECK(mentions(c, "the reference has only 6 samples"));
  CHECK(mentions(c, "the candidate has only 6 samples"));
}

TEST_CASE("One figure per side gives the change and no test")
{
  const auto c = compare(std::vector<double>{92.6}, std::vector<double>{96.1}, higher_is_better());
  CHECK(c.basis == Basis::SingleFigures);
  CHECK(c.outcome == Outcome::Inconclusive);
  CHECK_FALSE(c.p_value);
  CHECK_FALSE(c.u);
  CHECK_FALSE(c.change_low_pct);
  CHECK_FALSE(c.ratio_low);
  CHECK(*c.ratio == Approx(96.1 / 92.6).epsilon(1e-12));
  CHECK(*c.change_pct == Approx((96.1 / 92.6 - 1) * 100).epsilon(1e-10));
  CHECK(c.warnings.empty()); // the basis says it
}

TEST_CASE("Three samples give the change but too few for a test, however large the difference")
{
  const std::vector<double> reference{10, 11, 12, 13, 14, 15, 16, 17, 18};
  const std::vector<double> candidate{1, 2, 3};
  const auto c = compare(reference, candidate, lower_is_better());
  CHECK(c.basis == Basis::TooFewSamples);
  CHECK(c.outcome == Outcome::Inconclusive);
  CHECK_FALSE(c.p_value);
  CHECK_FALSE(c.change_low_pct);
  REQUIRE(c.change_pct);
  CHECK(*c.change_pct < -80);
}

TEST_CASE("Metrics that can be zero or negative are compared by the shift in their unit")
{
  const std::vector<double> reference{-1, 0, 0, 0, 1};
  const std::vector<double> candidate{5, 6, 7, 8, 9};
  const auto c = compare(reference, candidate, lower_is_better(5.0));
  CHECK(c.estimate == Estimate::Shift);
  CHECK_FALSE(c.ratio);
  CHECK_FALSE(c.change_pct);
  CHECK_FALSE(c.median_ratio); // the reference median is 0
  CHECK(*c.shift == 7.0);      // NumPy: np.median of the pairwise differences
  REQUIRE(c.shift_low);
  CHECK(*c.shift_low <= 7.0);
  CHECK(*c.shift_high >= 7.0);
  CHECK(*c.p_value < 0.05);
  CHECK(c.outcome == Outcome::Regressed);
}

TEST_CASE("Ratios too far apart to represent are refused rather than printed as infinities")
{
  const std::vector<double> reference{5e-324, 5e-324, 5e-324, 5e-324, 5e-324};
  const std::vector<double> candidate{1e300, 1e300, 1e300, 1e300, 1e300};
  CHECK_THROWS_WITH(compare(reference, candidate, lower_is_better()), Catch::Contains("rescale the metric"));
}

TEST_CASE("All-zero samples on both sides are no change")
{
  const std::vector<double> zeros(5, 0.0);
  const auto c = compare(zeros, zeros, lower_is_better());
  CHECK(c.estimate == Estimate::Shift);
  CHECK(c.outcome == Outcome::NoChange);
  CHECK(*c.shift == 0.0);
}

TEST_CASE("Non-finite or missing samples are rejected, naming the side and the sample")
{
  const std::vector<double> good{1, 2, 3, 4};
  const std::vector<double> bad{1, std::numeric_limits<double>::quiet_NaN(), 3};
  CHECK_THROWS_WITH(compare(good, bad, lower_is_better()),
                    Catch::Contains("sample 2 of the candidate") && Catch::Contains("nan"));
  const std::vector<double> infinite{-std::numeric_limits<double>::infinity()};
  CHECK_THROWS_WITH(compare(infinite, good, lower_is_better()),
                    Catch::Contains("sample 1 of the reference") && Catch::Contains("-inf"));
  CHECK_THROWS_WITH(compare(std::vector<double>{}, good, lower_is_better()),
                    Catch::Contains("no samples for the reference"));
}

TEST_CASE("Differences that overflow are rejected rather than compared as infinities")
{
  const std::vector<double> reference{-1e308, -1e308, -1e308, -1e308};
  const std::vector<double> candidate{1e308, 1e308, 1e308, 1e308};
  CHECK_THROWS_AS(compare(reference, candidate, lower_is_better()), ej::Error);
}

TEST_CASE("Options out of range are rejected")
{
  auto options = lower_is_better();
  options.alpha = 0;
  CHECK_THROWS_WITH(compare(k_reference, k_candidate, options), Catch::Contains("alpha"));
  options = lower_is_better();
  options.confidence = 1.5;
  CHECK_THROWS_WITH(compare(k_reference, k_candidate, options), Catch::Contains("confidence"));
  CHECK_THROWS_WITH(compare(k_reference, k_candidate, lower_is_better(-1)),
                    Catch::Contains("minimum effect"));
  options = lower_is_better();
  options.noisy_cv = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(compare(k_reference, k_candidate, options), Catch::Contains("noise threshold"));
}

TEST_CASE("Ten thousand samples per side are compared with the approximation")
{
  std::mt19937_64 random(1);
  std::normal_distribution<double> reference_noise(100.0, 2.0);
  std::normal_distribution<double> candidate_noise(99.0, 2.0);
  std::vector<double> reference(10000);
  std::vector<double> candidate(10000);
  for (auto& x : reference) {
    x = reference_noise(random);
  }
  for (auto& x : candidate) {
    x = candidate_noise(random);
  }
  const auto c = compare(reference, candidate, lower_is_better());
  CHECK_FALSE(c.exact);
  CHECK(c.outcome == Outcome::Improved);
  // The true ratio is 0.99; its 95% interval is about +-0.06% wide.
  CHECK(*c.change_pct == Approx(-1.0).margin(0.1));
  CHECK(*c.change_low_pct < *c.change_pct);
  CHECK(*c.change_pct < *c.change_high_pct);
  CHECK(*c.change_high_pct - *c.change_low_pct < 0.2);
}

TEST_CASE("Noise is said out loud: a high coefficient of variation and outliers")
{
  const std::vector<double> quiet{10.0, 10.1, 10.05, 9.95, 10.02, 9.98, 10.01, 10.03, 9.97};
  const std::vector<double> noisy{10.0, 14.0, 7.0, 12.0, 9.0, 13.0, 8.0, 11.0, 10.5};
  const auto c = compare(quiet, noisy, lower_is_better());
  CHECK(mentions(c, "the candidate is noisy: its coefficient of variation is"));
  CHECK_FALSE(mentions(c, "the reference is noisy"));
  std::vector<double> with_outlier = quiet;
  with_outlier.push_back(30.0);
  const auto d = compare(with_outlier, quiet, lower_is_better());
  CHECK(mentions(d, "the reference has 1 statistical outlier"));
  CHECK_FALSE(mentions(d, "the candidate has 1 statistical outlier"));
}

TEST_CASE("Outcomes have the words that listings print")
{
  CHECK(to_string(Outcome::Improved) == "improved");
  CHECK(to_string(Outcome::Regressed) == "regressed");
  CHECK(to_string(Outcome::NoChange) == "no change");
  CHECK(to_string(Outcome::Inconclusive) == "inconclusive");
  CHECK(to_string(Outcome::Mixed) == "mixed");
}

TEST_CASE("Each side's sample-size warning names that side and its own count, comparison after comparison")
{
  const std::vector<double> five{1.0, 2.0, 3.0, 4.0, 5.0};
  const std::vector<double> six{1.5, 2.5, 3.5, 4.5, 5.5, 6.5};
  const std::vector<double> three{1.0, 2.0, 3.0};
  for (int round = 0; round < 2; ++round) {
    const auto a = compare(five, six, lower_is_better());
    CHECK(a.warnings.at(0) ==
          "the reference has only 5 samples: the test can miss real changes; 9 or more per side "
          "are recommended");
    CHECK(a.warnings.at(1) ==
          "the candidate has only 6 samples: the test can miss real changes; 9 or more per side "
          "are recommended");
    const auto b = compare(six, three, lower_is_better());
    CHECK(b.basis == Basis::TooFewSamples);
    CHECK(b.warnings.at(0) ==
          "the reference has only 6 samples: the test can miss real changes; 9 or more per side "
          "are recommended");
    CHECK_FALSE(mentions(b, "the candidate has"));
  }
}

TEST_CASE("The outliers a comparison warns of are the ones summarize flags")
{
  std::mt19937_64 random(7);
  std::normal_distribution<double> noise(10.0, 0.1);
  std::uniform_int_distribution<int> size(2, 40);
  for (int round = 0; round < 300; ++round) {
    std::vector<double> samples(static_cast<std::size_t>(size(random)));
    for (auto& x : samples) {
      x = std::round(noise(random) * 100) / 100; // ties, as printed benchmark output has
    }
    if (round % 3 == 0) {
      samples[0] += 5.0;
    }
    const std::vector<double> other{10.0, 10.1, 9.9, 10.05};
    const auto c = compare(other, samples, lower_is_better());
    const auto flagged = summarize(samples).outlier_indices.size();
    INFO("round " << round << ", n = " << samples.size());
    if (flagged == 0) {
      CHECK_FALSE(mentions(c, "statistical outlier"));
    } else {
      CHECK(mentions(c, fmt::format("the candidate has {} statistical outlier", flagged)));
    }
  }
}
