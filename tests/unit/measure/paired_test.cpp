#include "measure/hodges_lehmann.h"
#include "measure/paired.h"
#include "measure/signed_rank.h"
#include "util/error.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using namespace ej::measure;

// Reference values: SciPy 1.10.1 with NumPy 1.24.2 (Debian bookworm's python3-scipy, run as
// /usr/bin/python3), scipy.stats.wilcoxon on the same values; the call is written beside each
// figure. SciPy has no one-sample Hodges-Lehmann interval: the intervals were computed by
// enumeration in the same Python session, independently of the C++ code:
//   def walsh(x): x = sorted(x); return sorted((x[i] + x[j]) / 2 for i in range(len(x))
//                                              for j in range(i, len(x)))
//   def exact_cdf(n):  # P(T <= t) by counting the subsets of 1..n with each sum
//       ways = [0] * (n * (n + 1) // 2 + 1); ways[0] = 1
//       for r in range(1, n + 1):
//           for t in range(len(ways) - 1, r - 1, -1): ways[t] += ways[t - r]
//       return list(itertools.accumulate(w / 2**n for w in ways))
//   exact rank: k = smallest t with exact_cdf(n)[t] >= 0.025 (R's qsignrank(0.025, n));
//   normal rank: k = ceil(n(n+1)/4 - 0.5 + sqrt(n(n+1)(2n+1)/24 - sum(t^3 - t)/48)
//                         * scipy.stats.norm.ppf(0.025)), t the sizes of groups of equal values;
//   interval = (walsh(x)[k - 1], walsh(x)[N - k]), estimate = numpy.median(walsh(x)).
// _get_wilcoxon_distr(10) (SciPy's exact table) agrees with exact_cdf(10).

namespace {

const std::vector<double> k_no_ties{0.031, -0.012, 0.054, 0.022, 0.047,  -0.008,
                                    0.061, 0.015,  0.039, 0.028, -0.021, 0.044};
// Quantized output: two zeros, tied magnitudes and tied values.
const std::vector<double> k_ties_and_zeros{0.02,  0.0,  -0.01, 0.03, 0.02, 0.01,  0.0, 0.04,
                                           -0.02, 0.03, 0.02,  0.05, 0.01, -0.01, 0.03};
// numpy.round(numpy.random.default_rng(29).normal(0.01, 0.05, 60), 6)
const std::vector<double> k_sixty{
    -0.009593, 0.012496,  0.00174,   0.001602,  0.013131,  -0.001286, 0.024846,  0.007555,  0.038403,
    -0.022852, -0.008033, -0.032804, -0.073498, -0.101625, 0.013006,  -0.031525, -0.027757, -0.019036,
    0.030886,  0.03839,   0.044301,  0.05624,   0.159126,  0.024736,  0.017718,  -0.09911,  -0.074203,
    0.119648,  0.147289,  0.032317,  0.005986,  0.037854,  -0.091764, -0.01653,  -0.010271, 0.096775,
    -0.039562, 0.028151,  0.046205,  0.064016,  -0.011451, -0.024353, -0.098838, 0.067379,  0.06911,
    -0.014497, 0.021557,  -0.059803, -0.000463, 0.046378,  -0.01417,  0.013154,  0.064999,  0.040022,
    -0.020642, 0.090737,  0.09873,   0.060174,  0.040033,  0.045788};

std::vector<double> sorted_copy(std::vector<double> values)
{
  std::sort(values.begin(), values.end());
  return values;
}

} // namespace

TEST_CASE("The exact signed-rank distribution for 10 values matches SciPy's table")
{
  // numpy.cumsum(scipy.stats._morestats._get_wilcoxon_distr(10))[8], [9]: 25 / 1024 and 33 / 1024.
  const auto& cdf = exact_signed_rank_cdf(10);
  REQUIRE(cdf.size() == 56);
  CHECK(cdf[8] == 0.0244140625);
  CHECK(cdf[9] == 0.0322265625);
  CHECK(cdf[55] == 1.0);
  CHECK(exact_signed_rank_cdf(50).back() == Approx(1.0).epsilon(1e-15));
}

TEST_CASE("Small samples without ties get SciPy's exact signed-rank p-value")
{
  // scipy.stats.wilcoxon(x, method="exact") -> statistic=7.0, pvalue=0.00927734375
  const SignedRank test = signed_rank_test(k_no_ties);
  CHECK(test.exact);
  CHECK(test.r_plus == 71.0); // 78 - 7
  CHECK(test.p_value == Approx(0.00927734375).epsilon(1e-12));
  // scipy.stats.wilcoxon([0.1, -0.2, 0.3], method="exact") -> pvalue=0.75
  CHECK(signed_rank_test(std::vector<double>{0.1, -0.2, 0.3}).p_value == Approx(0.75).epsilon(1e-12));
}

TEST_CASE("Ties and zeros get SciPy's normal approximation with Pratt's zero correction")
{
  // scipy.stats.wilcoxon(x, zero_method="pratt", correction=True, method="approx")
  //   -> statistic=17.5, pvalue=0.020548593157639624
  const SignedRank test = signed_rank_test(k_ties_and_zeros);
  CHECK_FALSE(test.exact);
  CHECK(test.p_value == Approx(0.020548593157639624).epsilon(1e-9));
}

TEST_CASE("Beyond 50 values the signed-rank test uses SciPy's normal approximation")
{
  // scipy.stats.wilcoxon(x, correction=True, method="approx") -> statistic=652.0,
  // pvalue=0.05330759028804456
  const SignedRank test = signed_rank_test(k_sixty);
  CHECK_FALSE(test.exact);
  CHECK(test.p_value == Approx(0.05330759028804456).epsilon(1e-9));
}

TEST_CASE("Every value zero gives no evidence of a difference")
{
  const SignedRank test = signed_rank_test(std::vector<double>{0.0, 0.0, 0.0, 0.0});
  CHECK(test.p_value == 1.0);
  CHECK(test.sigma == 0.0);
}

TEST_CASE("The paired estimate and exact interval match the enumeration of the Walsh averages")
{
  // exact rank k = 14; numpy.median(walsh(x)) = 0.0265; interval (0.006999999999999999, 0.044)
  const auto c = compare_paired(k_no_ties);
  CHECK(c.n == 12);
  CHECK(c.interval_exact);
  CHECK(signed_rank_interval_rank(sorted_copy(k_no_ties), 0.95) == 14);
  CHECK(c.estimate == Approx(0.0265).epsilon(1e-12));
  CHECK(c.low == Approx(0.007).epsilon(1e-12));
  CHECK(c.high == Approx(0.044).epsilon(1e-12));
  CHECK(c.p_value == Approx(0.00927734375).epsilon(1e-12));
}

TEST_CASE("With tied values the paired interval uses the tie-corrected normal approximation")
{
  // normal rank k = 26; median 0.015; interval (0.005, 0.025)
  const auto c = compare_paired(k_ties_and_zeros);
  CHECK_FALSE(c.interval_exact);
  CHECK(signed_rank_interval_rank(sorted_copy(k_ties_and_zeros), 0.95) == 26);
  CHECK(c.estimate == Approx(0.015).epsilon(1e-12));
  CHECK(c.low == Approx(0.005).epsilon(1e-12));
  CHECK(c.high == Approx(0.025).epsilon(1e-12));
}

TEST_CASE("Beyond 50 values the paired interval uses the normal approximation")
{
  // normal rank k = 649; median 0.013231; interval (-0.00024350000000000066, 0.026588)
  const auto c = compare_paired(k_sixty);
  CHECK(signed_rank_interval_rank(sorted_copy(k_sixty), 0.95) == 649);
  CHECK(c.estimate == Approx(0.013231).epsilon(1e-12));
  CHECK(c.low == Approx(-0.0002435).epsilon(1e-9));
  CHECK(c.high == Approx(0.026588).epsilon(1e-12));
}

TEST_CASE("Too few rounds for the confidence give an unbounded interval, not a narrow one")
{
  // Three values cover the center with at most 1 - 2 / 8 = 75%.
  const auto c = compare_paired(std::vector<double>{0.1, -0.2, 0.3});
  CHECK(signed_rank_interval_rank(sorted_copy({0.1, -0.2, 0.3}), 0.95) == 0);
  CHECK(std::isinf(c.low));
  CHECK(c.low < 0);
  CHECK(std::isinf(c.high));
  CHECK(c.high > 0);
  CHECK(c.estimate == Approx(0.075).epsilon(1e-12));
}

TEST_CASE("A confidence of 1 gives an unbounded interval with the exact and the normal distribution")
{
  CHECK(signed_rank_interval_rank(sorted_copy(k_no_ties), 1.0) == 0);
  CHECK(signed_rank_interval_rank(sorted_copy(k_sixty), 1.0) == 0);
  CHECK(signed_rank_interval_rank(sorted_copy(k_sixty), 1 - 1e-300) == 0);
  const Location unbounded = paired_interval(sorted_copy(k_sixty), 1.0);
  CHECK(std::isinf(unbounded.low));
  CHECK(std::isinf(unbounded.high));
}

TEST_CASE("The k-th Walsh average equals the one found by forming and sorting them all")
{
  std::mt19937_64 engine(7);
  std::uniform_int_distribution<int> coarse(-20, 20); // many repeated values
  std::normal_distribution<double> fine(0.0, 1.0);
  for (int round = 0; round < 40; ++round) {
    std::vector<double> x(1 + round * 3);
    for (double& v : x) {
      v = round % 2 == 0 ? coarse(engine) / 8.0 : fine(engine);
    }
    std::sort(x.begin(), x.end());
    std::vector<double> averages;
    for (std::size_t i = 0; i < x.size(); ++i) {
      for (std::size_t j = i; j < x.size(); ++j) {
        averages.push_back((x[i] + x[j]) / 2);
      }
    }
    std::sort(averages.begin(), averages.end());
    for (std::size_t k = 1; k <= averages.size(); k += 1 + averages.size() / 17) {
      CHECK(kth_walsh_average(x, k) == averages[k - 1]);
    }
    CHECK(kth_walsh_average(x, averages.size()) == averages.back());
  }
}

TEST_CASE("Per-round values are log ratios for positive metrics and differences otherwise")
{
  const auto ratios = paired_values(std::vector<double>{2.0, 1.0}, std::vector<double>{1.0, 1.0});
  CHECK(ratios.scale == PairedScale::LogRatio);
  CHECK(ratios.values[0] == Approx(std::log(2.0)));
  CHECK(ratios.values[1] == 0.0);
  const auto differences = paired_values(std::vector<double>{2.0, -1.0}, std::vector<double>{1.0, 1.0});
  CHECK(differences.scale == PairedScale::Difference);
  CHECK(differences.values == std::vector<double>{1.0, -2.0});
  CHECK_THROWS_AS(paired_values(std::vector<double>{1.0}, std::vector<double>{1.0, 2.0}), ej::Error);
  CHECK_THROWS_AS(paired_values(std::vector<double>{NAN}, std::vector<double>{1.0}), ej::Error);
}
