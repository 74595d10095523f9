#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace ej::measure {

// Two-sided Mann-Whitney U test of sample x against sample y.
struct MannWhitney {
  double u = 0; // pairs with x > y, plus half the tied pairs (SciPy's U1 for mannwhitneyu(x, y))
  double p_value = 1;
  bool exact = false;           // p from the exact null distribution rather than the normal approximation
  double sigma = 0;             // standard deviation of U under the null, tie-corrected (0: all values tied)
  std::vector<double> null_cdf; // when exact: exact_u_cdf(n_x, n_y), reused for the interval
};

// Exact p-values are used without ties and while n_x * n_y <= this bound: the exact distribution
// costs O((n_x * n_y)^2) time, so larger samples switch to the normal approximation (accurate
// there: both sides have dozens of samples).
inline constexpr std::size_t k_exact_max_pairs = 2500;

// Both inputs must be sorted ascending and non-empty.
// Large samples or ties: normal approximation with tie and continuity corrections (SciPy's
// method="asymptotic"); otherwise exact (SciPy's method="exact"). All values tied gives p = 1.
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
