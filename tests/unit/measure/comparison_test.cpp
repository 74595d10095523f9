#include "measure/comparison.h"

#include "util/error.h"

#include <catch2/catch.hpp>

#include <limits>
#include <random>
#include <vector>

using namespace ej::measure;

// Reference values: SciPy 1.10.1 / NumPy 1.24.2 (see mann_whitney_test.cpp and
// hodges_lehmann_test.cpp for the same samples); percentages are (difference / reference median)
// * 100, worked out in Python from those values.

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

TEST_CASE("A faster candidate is an improvement, with the numbers that justify it")
{
  const auto c = compare(k_reference, k_candidate, lower_is_better());
  CHECK(c.n_reference == 10);
  CHECK(c.n_candidate == 12);
  CHECK(c.reference_median == Approx(9.97505).epsilon(1e-14));
  CHECK(c.candidate_median == Approx(9.7326).epsilon(1e-14));
  REQUIRE(c.ratio);
  CHECK(*c.ratio == Approx(0.9756943574217674).epsilon(1e-13));
  REQUIRE(c.change_pct);
  CHECK(*c.change_pct == Approx(2.4305642578232676).epsilon(1e-12));
  CHECK(*c.shift_pct == Approx(2.3849504513761905).epsilon(1e-12));
  CHECK(*c.change_low_pct == Approx(1.1248063919479065).epsilon(1e-12));
  CHECK(*c.change_high_pct == Approx(3.4776768036250427).epsilon(1e-12));
  CHECK(c.shift == Approx(-0.23790000000000067).epsilon(1e-13));
  CHECK(c.shift_low == -0.34689999999999976);
  CHECK(c.shift_high == -0.11219999999999963);
  CHECK(c.u == 12.0);
  CHECK(c.exact);
  CHECK(c.p_value == Approx(0.0008319853521091911).epsilon(1e-10));
  CHECK(c.outcome == Outcome::Improved);
  CHECK(c.warnings.empty());
  CHECK(short_verdict(c) == "+2.4% improved [1.1, 3.5] p<0.001");
}

TEST_CASE("The same change is a regression for a higher-is-better metric")
{
  const auto c = compare(k_reference, k_candidate, higher_is_better());
  CHECK(*c.change_pct == Approx(-2.4305642578232676).epsilon(1e-12));
  CHECK(*c.change_low_pct == Approx(-3.4776768036250427).epsilon(1e-12));
  CHECK(*c.change_high_pct == Approx(-1.1248063919479065).epsilon(1e-12));
  CHECK(c.outcome == Outcome::Regressed);
  CHECK(short_verdict(c) == "-2.4% regressed [-3.5, -1.1] p<0.001");
}

TEST_CASE("A significant change smaller than the minimum effect is no change when the interval fits")
{
  // Interval [1.12%, 3.48%] lies within +-5%.
  const auto c = compare(k_reference, k_candidate, lower_is_better(5.0));
  CHECK(c.outcome == Outcome::NoChange);
}

TEST_CASE("A change below the minimum effect whose interval reaches past it is inconclusive")
{
  // Change 2.43% < 3%, but the interval reaches 3.48% > 3%.
  const auto c = compare(k_reference, k_candidate, lower_is_better(3.0));
  CHECK(c.outcome == Outcome::Inconclusive);
}

TEST_CASE("A change beyond the minimum effect stays an improvement")
{
  CHECK(compare(k_reference, k_candidate, lower_is_better(2.0)).outcome == Outcome::Improved);
}

TEST_CASE("Tied integer samples are compared with the exact permutation p-value")
{
  const std::vector<double> reference{100, 106, 103, 106, 104, 105, 105, 101, 102, 103,
                                      103, 100, 103, 101, 105, 104, 106, 105, 102, 106,
                                      102, 102, 106, 102, 100, 103, 105, 101, 103, 100};
  const std::vector<double> candidate{102, 101, 100, 99,  101, 102, 104, 101, 99,  103, 102, 102, 98,
                                      100, 103, 103, 101, 103, 103, 100, 104, 100, 99,  102, 102};
  const auto c = compare(reference, candidate, lower_is_better());
  CHECK(c.exact);
  CHECK(c.u == 200.0);
  // Exact given the ties (mann_whitney_test.cpp: exact_tied, 515935827013/220417931105658); the
  // normal approximation gave 0.0028459133001491623.
  CHECK(c.p_value == Approx(0.0023407162222463863).epsilon(1e-9));
  // NumPy: HL shift -2, interval rank 259 (exact, _mwu_state.cdf(u, 25, 30) first >= 0.025; the
  // normal approximation gave 260) -> [-3, -1].
  CHECK(c.shift == -2.0);
  CHECK(c.shift_low == -3.0);
  CHECK(c.shift_high == -1.0);
  CHECK(*c.change_pct == Approx(0.9708737864077669).epsilon(1e-12));
  CHECK(*c.change_low_pct == Approx(0.9708737864077669).epsilon(1e-12));
  CHECK(*c.change_high_pct == Approx(2.912621359223301).epsilon(1e-12));
  CHECK(c.outcome == Outcome::Improved);
  CHECK(short_verdict(c) == "+1.0% improved [1.0, 2.9] p=0.002");
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
  CHECK(c.p_value == Approx(0.036627707277578664).epsilon(1e-9));
  // NumPy: HL 0.34475, interval rank 1680 -> [0.0196, 0.6814].
  CHECK(c.shift == Approx(0.3447500000000012).epsilon(1e-12));
  CHECK(c.shift_low == Approx(0.01960000000000406).epsilon(1e-12));
  CHECK(c.shift_high == Approx(0.6814000000000036).epsilon(1e-12));
  CHECK(*c.change_pct == Approx(0.9956183938939186).epsilon(1e-12));
  CHECK(*c.change_low_pct == Approx(0.03943043144135138).epsilon(1e-10));
  CHECK(*c.change_high_pct == Approx(1.370811019598541).epsilon(1e-12));
  CHECK(c.outcome == Outcome::Improved);
  CHECK(short_verdict(c) == "+1.0% improved [0.0, 1.4] p=0.037");
}

TEST_CASE("Identical samples are no change, without dividing by zero")
{
  const std::vector<double> same(6, 4.0);
  const auto c = compare(same, same, lower_is_better());
  CHECK(c.p_value == 1.0);
  CHECK(*c.ratio == 1.0);
  CHECK(*c.change_pct == 0.0);
  CHECK(c.shift == 0.0);
  CHECK(c.outcome == Outcome::NoChange);
  CHECK(mentions(c, "the reference has only 6 samples"));
  CHECK(mentions(c, "the candidate has only 6 samples"));
  CHECK(short_verdict(c) == "+0.0% no change [0.0, 0.0] p=1.000");
}

TEST_CASE("One sample per side is always inconclusive and says why")
{
  const auto c = compare(std::vector<double>{4.0}, std::vector<double>{4.0}, lower_is_better());
  CHECK(c.outcome == Outcome::Inconclusive);
  CHECK(c.p_value == 1.0);
  CHECK(c.shift == 0.0);
  CHECK(mentions(c, "the reference has 1 sample: at least 4 per side are needed"));
  CHECK(mentions(c, "the candidate has 1 sample:"));
}

TEST_CASE("Three samples are inconclusive however large the difference")
{
  const std::vector<double> reference{10, 11, 12, 13, 14, 15, 16, 17, 18};
  const std::vector<double> candidate{1, 2, 3};
  const auto c = compare(reference, candidate, lower_is_better());
  CHECK(c.outcome == Outcome::Inconclusive);
  CHECK(mentions(c, "the candidate has 3 samples: at least 4"));
  CHECK_FALSE(mentions(c, "the reference"));
}

TEST_CASE("A zero reference median leaves the percentages undefined and decides on the raw shift")
{
  const std::vector<double> reference{-1, 0, 0, 0, 1};
  const std::vector<double> candidate{5, 6, 7, 8, 9};
  const auto c = compare(reference, candidate, lower_is_better(5.0));
  CHECK_FALSE(c.ratio);
  CHECK_FALSE(c.change_pct);
  CHECK_FALSE(c.change_low_pct);
  // Fully separated 5 and 5 with ties: perm (mann_whitney_test.cpp) = 2 / C(10, 5) = 1/126; the
  // normal approximation gave 0.011159425282914755.
  CHECK(c.p_value == Approx(0.007936507936507936).epsilon(1e-9));
  CHECK(c.outcome == Outcome::Regressed);
  CHECK(mentions(c, "reference median is 0"));
  const auto verdict = short_verdict(c);
  CHECK(verdict == "regressed (change % undefined: reference median is 0) p=0.008");
  CHECK(verdict.find("inf") == std::string::npos);
}

TEST_CASE("A reference median so close to zero that percentages overflow is treated like zero")
{
  const std::vector<double> reference{5e-324, 5e-324, 5e-324, 5e-324, 5e-324};
  const std::vector<double> candidate{1e300, 1e300, 1e300, 1e300, 1e300};
  const auto c = compare(reference, candidate, lower_is_better());
  CHECK_FALSE(c.ratio);
  CHECK_FALSE(c.change_pct);
  CHECK(c.outcome == Outcome::Regressed);
  // Ties within each side, fully separated: perm (mann_whitney_test.cpp) = 2 / C(10, 5) = 1/126;
  // the normal approximation gave 0.003976751709788651.
  CHECK(short_verdict(c) == "regressed (change % undefined: reference median is too close to 0) p=0.008");
}

TEST_CASE("All-zero samples on both sides are no change")
{
  const std::vector<double> zeros(5, 0.0);
  const auto c = compare(zeros, zeros, lower_is_better());
  CHECK(c.outcome == Outcome::NoChange);
  CHECK_FALSE(c.change_pct);
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
  // The true shift is -1; its 95% interval is about +-0.06 wide.
  CHECK(c.shift == Approx(-1.0).margin(0.1));
  CHECK(c.shift_low < c.shift);
  CHECK(c.shift < c.shift_high);
  CHECK(c.shift_high - c.shift_low < 0.2);
}

TEST_CASE("Outcomes have the words that listings print")
{
  CHECK(to_string(Outcome::Improved) == "improved");
  CHECK(to_string(Outcome::Regressed) == "regressed");
  CHECK(to_string(Outcome::NoChange) == "no change");
  CHECK(to_string(Outcome::Inconclusive) == "inconclusive");
}

TEST_CASE("Each side's sample-size warning names that side and its own count, comparison after comparison")
{
  const std::vector<double> five{1.0, 2.0, 3.0, 4.0, 5.0};
  const std::vector<double> six{1.5, 2.5, 3.5, 4.5, 5.5, 6.5};
  const std::vector<double> three{1.0, 2.0, 3.0};
  for (int round = 0; round < 2; ++round) {
    const auto a = compare(five, six, lower_is_better());
    REQUIRE(a.warnings.size() == 2);
    CHECK(a.warnings[0] ==
          "the reference has only 5 samples: the test can miss real changes; 9 or more per side "
          "are recommended");
    CHECK(a.warnings[1] ==
          "the candidate has only 6 samples: the test can miss real changes; 9 or more per side "
          "are recommended");
    const auto b = compare(six, three, lower_is_better());
    REQUIRE(b.warnings.size() == 2);
    CHECK(b.warnings[0] ==
          "the reference has only 6 samples: the test can miss real changes; 9 or more per side "
          "are recommended");
    CHECK(b.warnings[1] == "the candidate has 3 samples: at least 4 per side are needed to decide, so the "
                           "outcome is inconclusive; repeat the benchmark more");
  }
  const std::vector<double> one{2.0};
  CHECK(
      compare(five, one, lower_is_better()).warnings[1] ==
      "the candidate has 1 sample: at least 4 per side are needed to decide, so the outcome is inconclusive; "
      "repeat the benchmark more");
}
