#include "measure/mann_whitney.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

using namespace ej::measure;

// Reference values: SciPy 1.10.1 (Debian bookworm), scipy.stats.mannwhitneyu(x, y,
// alternative="two-sided", method="exact" | "asymptotic", use_continuity=True), its exact null
// distribution scipy.stats._mannwhitneyu._mwu_state.cdf(u, m, n), and scipy.stats.norm.
// With ties, "perm(x, y)" is the exhaustive permutation test of the same U:
//   import numpy as np; from scipy import stats
//   def perm(x, y):
//       u = lambda a, b, axis: stats.mannwhitneyu(a, b, axis=axis).statistic
//       return stats.permutation_test((x, y), u, permutation_type="independent", vectorized=True,
//                                     alternative="two-sided", n_resamples=np.inf).pvalue
// and "exact_tied(x, y)", for samples too large to enumerate, the same p from exact rationals: the
// generating polynomial over tie groups of the doubled rank sums (it agrees with perm wherever both
// run):
//   from fractions import Fraction; from math import comb
//   def exact_tied(x, y):
//       r2 = [round(2 * r) for r in stats.rankdata(x + y)]; m = len(x); obs = sum(r2[:m])
//       ways = {(0, 0): 1}
//       for r in sorted(set(r2)):
//           t = r2.count(r); new = {}
//           for (k, s), w in ways.items():
//               for j in range(min(t, m - k) + 1):
//                   new[k + j, s + j * r] = new.get((k + j, s + j * r), 0) + w * comb(t, j)
//           ways = new
//       tail = lambda keep: Fraction(sum(w for (k, s), w in ways.items() if k == m and keep(s)),
//                                    comb(len(r2), m))
//       return float(min(1, 2 * min(tail(lambda s: s <= obs), tail(lambda s: s >= obs))))

namespace {

std::vector<double> sorted_values(std::vector<double> values)
{
  std::sort(values.begin(), values.end());
  return values;
}

} // namespace

TEST_CASE("The exact U distribution for 4 and 5 samples matches counting all 126 orderings")
{
  // Worked out by enumerating the C(9,4) = 126 placements of the 4 x-values among 9 ranks
  // (independent of SciPy, which agrees): P(U <= u) for u = 0..10.
  const std::vector<double> expected{1 / 126.0,  2 / 126.0,  4 / 126.0,  7 / 126.0,  12 / 126.0, 18 / 126.0,
                                     26 / 126.0, 35 / 126.0, 46 / 126.0, 57 / 126.0, 69 / 126.0};
  const auto cdf = exact_u_cdf(4, 5);
  REQUIRE(cdf.size() == expected.size());
  for (std::size_t u = 0; u < cdf.size(); ++u) {
    CHECK(cdf[u] == Approx(expected[u]).epsilon(1e-14));
  }
  CHECK(exact_u_cdf(5, 4) == cdf);
}

TEST_CASE("The exact U distribution matches SciPy for larger and unbalanced samples")
{
  const auto ten = exact_u_cdf(10, 10);
  CHECK(ten[23] == Approx(0.021628526272489117).epsilon(1e-12));
  CHECK(ten[24] == Approx(0.02621295113555175).epsilon(1e-12));
  const auto fifty = exact_u_cdf(50, 50);
  REQUIRE(fifty.size() == 1251);
  CHECK(fifty[1000] == Approx(0.042725607759135885).epsilon(1e-10));
  CHECK(fifty[1250] == Approx(0.5013688955007641).epsilon(1e-10));
  CHECK(exact_u_cdf(3, 40)[10] == Approx(0.005429057612835265).epsilon(1e-12));
}

TEST_CASE("Small samples without ties get SciPy's exact p-value")
{
  const auto reference =
      sorted_values({10.0457, 9.844, 10.1126, 10.1411, 9.7073, 9.8047, 10.0192, 9.9526, 9.9975, 9.872});
  const auto candidate = sorted_values(
      {9.8319, 9.8167, 9.7099, 9.8691, 9.7701, 9.5711, 9.7553, 9.5562, 9.8318, 9.6925, 9.6723, 9.5979});
  const auto test = mann_whitney(candidate, reference);
  CHECK(test.exact);
  CHECK(test.u == 12.0);
  CHECK(test.p_value == Approx(0.0008319853521091911).epsilon(1e-10));
  // Swapping the samples gives the complementary U and the same two-sided p.
  const auto swapped = mann_whitney(reference, candidate);
  CHECK(swapped.u == 108.0);
  CHECK(swapped.p_value == Approx(test.p_value).epsilon(1e-14));
}

TEST_CASE("Small samples without ties printed with two decimals still get SciPy's exact p-value")
{
  const auto test =
      mann_whitney(sorted_values({10.12, 10.17, 10.21, 10.25, 10.31, 10.33, 10.4}),
                   sorted_values({10.19, 10.27, 10.35, 10.38, 10.42, 10.44, 10.47, 10.51, 10.56}));
  CHECK(test.exact);
  CHECK(test.u == 10.0);
  CHECK(test.p_value == Approx(0.022902097902097907).epsilon(1e-12)); // mannwhitneyu(x, y, method="exact")
}

TEST_CASE("Fully separated samples of eight with one tie get the exact p-value 2 / C(16, 8)")
{
  // The normal approximation said 0.00093, six times too large.
  const std::vector<double> fast{10.1, 10.1, 10.2, 10.3, 10.4, 10.5, 10.6, 10.7};
  const std::vector<double> slow{10.9, 11.0, 11.1, 11.2, 11.3, 11.4, 11.5, 11.6};
  const auto test = mann_whitney(fast, slow);
  CHECK(test.exact);
  CHECK(test.u == 0.0);
  CHECK(test.p_value == Approx(0.0001554001554001554).epsilon(1e-9)); // perm(fast, slow) = 1/6435
  const auto swapped = mann_whitney(slow, fast);
  CHECK(swapped.u == 64.0);
  CHECK(swapped.p_value == Approx(0.0001554001554001554).epsilon(1e-9));
}

TEST_CASE("Tied timings printed with one to three decimals get the exact permutation p-value")
{
  struct Case {
    std::vector<double> x;
    std::vector<double> y;
    double u;
    double p;
  };
  const std::vector<Case> cases{
      // perm(x, y) = 61/858; the normal approximation gives 0.0564.
      {{10.1, 10.1, 10.2, 10.2, 10.2, 10.3, 10.4},
       {10.2, 10.3, 10.3, 10.4, 10.4, 10.5},
       7.5,
       0.07109557109557109},
      // perm(x, y) = 3545/46189
      {{1.234, 1.235, 1.235, 1.236, 1.237, 1.237, 1.238, 1.240, 1.241, 1.241},
       {1.236, 1.237, 1.238, 1.238, 1.239, 1.240, 1.240, 1.242, 1.243, 1.245},
       26.5,
       0.07674987551148542},
      // perm(x, y) = 12/323
      {{12.31, 12.35, 12.35, 12.36, 12.38, 12.38, 12.38, 12.40, 12.41},
       {12.35, 12.36, 12.38, 12.39, 12.40, 12.40, 12.41, 12.41, 12.43, 12.44, 12.47},
       22.0,
       0.03715170278637771},
      // perm(x, y) = 1/91
      {{5.1, 5.2, 5.2, 5.3},
       {5.2, 5.3, 5.3, 5.4, 5.4, 5.4, 5.5, 5.5, 5.6, 5.6, 5.7, 5.8},
       3.0,
       0.01098901098901099},
  };
  for (const Case& c : cases) {
    const auto test = mann_whitney(sorted_values(c.x), sorted_values(c.y));
    CHECK(test.exact);
    CHECK(test.u == c.u);
    CHECK(test.p_value == Approx(c.p).epsilon(1e-9));
    // The tied distribution is not symmetric; both tails enter, so swapping keeps p.
    const auto swapped = mann_whitney(sorted_values(c.y), sorted_values(c.x));
    CHECK(swapped.u == static_cast<double>(c.x.size() * c.y.size()) - c.u);
    CHECK(swapped.p_value == Approx(c.p).epsilon(1e-9));
  }
}

TEST_CASE("One tie among five and five samples uses mid-ranks and the exact p-value")
{
  const auto test = mann_whitney(sorted_values({3, 6, 7, 8, 9}), sorted_values({1, 2, 3, 4, 5}));
  CHECK(test.exact);
  CHECK(test.u == 22.5);
  CHECK(test.p_value == Approx(0.03968253968253968).epsilon(1e-9)); // perm(x, y) = 5/126
  // The exact path still hands the interval the distribution without ties.
  CHECK(test.null_cdf == exact_u_cdf(5, 5));
}

namespace {

// Integer timings with many ties, 25 and 30 samples.
const std::vector<double> k_tied_reference{100, 106, 103, 106, 104, 105, 105, 101, 102, 103,
                                           103, 100, 103, 101, 105, 104, 106, 105, 102, 106,
                                           102, 102, 106, 102, 100, 103, 105, 101, 103, 100};
const std::vector<double> k_tied_candidate{102, 101, 100, 99,  101, 102, 104, 101, 99,  103, 102, 102, 98,
                                           100, 103, 103, 101, 103, 103, 100, 104, 100, 99,  102, 102};

std::vector<double> repeated(const std::vector<double>& values, std::size_t count)
{
  std::vector<double> out;
  for (std::size_t i = 0; i < count; ++i) {
    out.push_back(values[i % values.size()]);
  }
  return out;
}

} // namespace

TEST_CASE("Many tied integer samples within the tied bound get the exact p-value")
{
  const auto test = mann_whitney(sorted_values(k_tied_candidate), sorted_values(k_tied_reference));
  CHECK(test.exact);
  CHECK(test.u == 200.0);
  CHECK(test.sigma == Approx(58.48033425818884).epsilon(1e-12));
  // exact_tied(candidate, reference) = 515935827013/220417931105658. C(55, 25) orderings are too
  // many for perm; random ones agree: permutation_test(..., n_resamples=2e6) 0.00223 +- 0.00005,
  // 1e7 permuted rank sums 0.00236 +- 0.00002. The normal approximation gave 0.0028459133001491623.
  CHECK(test.p_value == Approx(0.0023407162222463863).epsilon(1e-9));
}

TEST_CASE("The tied bound is 1000 pairs: 25 x 40 is exact, 25 x 41 normal")
{
  const auto candidate = sorted_values(k_tied_candidate);
  static_assert(k_exact_max_pairs_tied == 1000);
  const auto at_bound = mann_whitney(candidate, sorted_values(repeated(k_tied_reference, 40)));
  CHECK(at_bound.exact);
  CHECK(at_bound.u == 254.0);
  // exact_tied(candidate, reference + reference[:10])
  CHECK(at_bound.p_value == Approx(0.0006098712292399135).epsilon(1e-9));
  const auto beyond = mann_whitney(candidate, sorted_values(repeated(k_tied_reference, 41)));
  CHECK_FALSE(beyond.exact);
  CHECK(beyond.u == 258.5);
  // mannwhitneyu(candidate, reference + reference[:11], method="asymptotic")
  CHECK(beyond.p_value == Approx(0.0007004057965368366).epsilon(1e-9));
}

TEST_CASE("Large tied samples use the normal approximation with tie and continuity corrections")
{
  // The tied samples twice over: 50 x 60 = 3000 pairs.
  const auto test = mann_whitney(sorted_values(repeated(k_tied_candidate, 50)),
                                 sorted_values(repeated(k_tied_reference, 60)));
  CHECK_FALSE(test.exact);
  CHECK(test.u == 800.0);
  CHECK(test.sigma == Approx(164.64686602567548).epsilon(1e-12));
  // mannwhitneyu(candidate * 2, reference * 2, method="asymptotic")
  CHECK(test.p_value == Approx(2.1521954117736464e-05).epsilon(1e-9));
}

TEST_CASE("Samples beyond the exact bound use the normal approximation")
{
  // 60 x 70 = 4200 pairs > k_exact_max_pairs; SciPy method="asymptotic" gives U 2548, p 0.036628.
  const auto reference = sorted_values(
      {50.6789, 50.0676, 50.2891, 50.6313, 48.5428, 49.6803, 49.5296, 49.3611, 49.7249, 51.4949,
       49.1342, 50.9683, 48.3171, 49.6651, 50.1628, 50.5862, 50.7112, 50.7933, 49.6513, 49.5376,
       50.858,  49.8087, 48.7243, 48.8667, 49.0805, 50.4972, 50.1424, 50.6905, 49.5727, 50.1585,
       50.6256, 49.6907, 50.4568, 49.3381, 49.6369, 49.6183, 48.8042, 50.487,  49.5306, 50.0125,
       50.4807, 50.4465, 50.6654, 49.9015, 49.5767, 49.9203, 48.3127, 48.5529, 48.6773, 49.0028,
       50.3998, 49.0945, 49.6218, 51.2992, 49.6437, 50.7375, 49.0664, 49.7946, 49.05,   49.661});
  const auto candidate =
      sorted_values({51.1403, 48.5727, 50.7344, 50.5377, 49.7059, 48.8539, 50.3721, 49.7705, 50.5327, 50.3219,
                     51.9018, 50.0606, 49.2765, 50.4793, 50.52,   51.6592, 51.1351, 50.6569, 51.7633, 49.1112,
                     49.6602, 49.3734, 49.9102, 48.9233, 50.9352, 50.0778, 48.8292, 49.2844, 50.6135, 51.1381,
                     52.2967, 53.2139, 50.7144, 49.3105, 48.168,  50.5677, 49.4871, 49.8846, 49.6879, 50.1592,
                     51.366,  50.457,  50.1414, 49.2643, 48.6253, 49.8137, 50.2462, 52.0679, 50.4303, 51.2827,
                     49.8007, 49.1151, 49.3349, 49.5748, 52.4285, 49.4786, 51.1385, 49.3971, 51.2316, 50.685,
                     50.1434, 50.2592, 49.6452, 50.7461, 49.845,  49.0744, 49.0221, 50.4726, 51.8791, 50.46});
  const auto test = mann_whitney(candidate, reference);
  CHECK_FALSE(test.exact);
  CHECK(test.u == 2548.0);
  CHECK(test.sigma == Approx(214.12613105363857).epsilon(1e-12));
  CHECK(test.p_value == Approx(0.036627707277578664).epsilon(1e-9));
}

TEST_CASE("Identical samples give p = 1 without dividing by zero")
{
  const std::vector<double> same(6, 4.0);
  const auto test = mann_whitney(same, same);
  CHECK(test.u == 18.0);
  CHECK(test.sigma == 0.0);
  CHECK(test.p_value == 1.0);
  const auto uneven = mann_whitney(std::vector<double>(3, 2.5), std::vector<double>(7, 2.5));
  CHECK(uneven.u == 10.5);
  CHECK(uneven.p_value == 1.0); // perm(x, y) = 1.0
}

TEST_CASE("One sample against three has an exact p-value of 1 when it sits in the middle")
{
  const auto test = mann_whitney(std::vector<double>{5.0}, std::vector<double>{2.0, 4.0, 6.0});
  CHECK(test.exact);
  CHECK(test.u == 2.0);
  CHECK(test.p_value == 1.0);
}

TEST_CASE("The interval rank follows the exact distribution: 24 for 10 and 10 at 95%")
{
  // Smallest u with P(U <= u) >= 0.025 is 24 (P(U <= 23) = 0.0216, P(U <= 24) = 0.0262).
  const auto exact = [](std::size_t m, std::size_t n) {
    MannWhitney test;
    test.exact = true;
    test.null_cdf = exact_u_cdf(m, n);
    return test;
  };
  CHECK(shift_interval_rank(10, 10, 0.95, exact(10, 10)) == 24);
  CHECK(shift_interval_rank(12, 10, 0.95, exact(12, 10)) == 30);
  // Tiny samples cannot reach 95%: the interval is the full range of differences (rank 1).
  CHECK(shift_interval_rank(2, 2, 0.95, exact(2, 2)) == 1);
}

TEST_CASE("The interval rank from the normal approximation is the continuity-corrected quantile")
{
  // ceil(30*25/2 - 0.5 + 58.4803 * norm.ppf(0.025)) = ceil(374.5 - 114.62) = 260
  MannWhitney approx;
  approx.sigma = 58.48033425818884;
  CHECK(shift_interval_rank(25, 30, 0.95, approx) == 260);
}

TEST_CASE("Normal quantiles and tails match SciPy to full precision")
{
  CHECK(normal_quantile(0.025) == Approx(-1.9599639845400545).epsilon(1e-14));
  CHECK(normal_quantile(0.975) == Approx(1.959963984540054).epsilon(1e-14));
  CHECK(normal_quantile(0.5) == Approx(0.0).margin(1e-15));
  CHECK(normal_quantile(0.001) == Approx(-3.090232306167813).epsilon(1e-14));
  CHECK(normal_quantile(1e-10) == Approx(-6.361340902404056).epsilon(1e-13));
  CHECK(normal_quantile(0.3) == Approx(-0.5244005127080409).epsilon(1e-14));
  CHECK(normal_sf(1.959963984540054) == Approx(0.025).epsilon(1e-14));
  CHECK(normal_sf(0.0) == 0.5);
  CHECK(normal_sf(3.5) == Approx(0.00023262907903552502).epsilon(1e-13));
  CHECK(normal_sf(-1.0) == Approx(0.8413447460685429).epsilon(1e-14));
}
