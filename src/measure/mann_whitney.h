#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace ej::measure {

// Two-sided Mann-Whitney U test of sample x against sample y.
struct MannWhitney {
  double u = 0; // pairs with x > y, plus half the tied pairs (SciPy's U1 for mannwhitneyu(x, y))
  double p_value = 1;
  bool exact = false; // p from the exact (permutation) null distribution rather than the normal approximation
  double sigma = 0;   // standard deviation of U under the null, tie-corrected (0: all values tied)
  // When exact: exact_u_cdf(n_x, n_y), the distribution without ties even for tied samples, reused
  // for the interval (whose shifted samples rarely tie across the sides).
  std::vector<double> null_cdf;
};

// Exact p-values are used while n_x * n_y <= these bounds; larger samples use the normal
// approximation (accurate there: both sides have dozens of samples). Without ties the exact
// distribution depends only on the sizes, costs O((n_x * n_y)^2) and is computed once per sizes.
// With ties it depends on the tie groups and is computed for every test, in about
// (n_x * n_y)^2 multiply-adds: the tighter bound keeps that under a millisecond (about 0.5 ms for
// 31 x 32 samples with -O2, the slowest shape; 50 x 50 would take 7 ms).
inline constexpr std::size_t k_exact_max_pairs = 2500;
inline constexpr std::size_t k_exact_max_pairs_tied = 1000;

// Both inputs must be sorted ascending and non-empty. All values tied gives p = 1. Otherwise:
// - within the exact bound, without ties: exact, SciPy's method="exact";
// - within the exact bound, with ties: exact under the permutation distribution of U given the
//   mid-ranks, p = min(1, 2 * min(P(U <= u), P(U >= u))), as an exhaustive
//   scipy.stats.permutation_test(..., permutation_type="independent") of U gives;
// - beyond it: normal approximation with tie and continuity corrections (method="asymptotic").
MannWhitney mann_whitney(std::span<const double> sorted_x, std::span<const double> sorted_y);

// P(U <= u) under the null hypothesis for u = 0 .. floor(m * n / 2) (the rest follows by symmetry),
// computed by dynamic programming over probabilities. Costs O(m * n * m * n / 2).
std::vector<double> exact_u_cdf(std::size_t m, std::size_t n);

// The rank k (1-based) such that the k-th smallest and k-th largest of the m * n pairwise
// differences bound a distribution-free confidence interval of the shift at `confidence`:
// k = max(1, smallest u with P(U <= u) >= (1 - confidence) / 2), as R's wilcox.test(conf.int = TRUE) does.
// Uses test.null_cdf when `test.exact`, else the normal approximation with test.sigma.
std::size_t shift_interval_rank(std::size_t m, std::size_t n, double confidence, const MannWhitney& test);

// Standard normal upper tail P(Z > z) and quantile function (inverse CDF, 0 < p < 1).
double normal_sf(double z);
double normal_quantile(double p);

} // namespace ej::measure
