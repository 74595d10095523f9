#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace ej::measure {

// Two-sided Wilcoxon signed-rank test of whether a sample's values are centered on 0: the per-round
// values of an interleaved comparison (log ratios or differences candidate - reference).
struct SignedRank {
  double r_plus = 0; // sum of the ranks of |x| over the positive values (mid-ranks; zeros ranked too)
  double p_value = 1;
  bool exact = false; // p from the exact null distribution rather than the normal approximation
  double sigma = 0;   // standard deviation of r_plus under the null, tie and zero corrected
};

// Exact p-values while n <= this bound and neither zeros nor tied |x| occur (SciPy's
// method="auto" bound, where the exact tables are still cheap: n^3 / 4 additions); beyond it, or
// with zeros or ties, the normal approximation.
inline constexpr std::size_t k_signed_rank_exact_max = 50;

// Values in any order, at least one. Zeros are handled by Pratt's method: they are ranked with the
// rest (a round where both sides measured the same is evidence of no change, which Wilcoxon's
// dropping of zeros would throw away) and the null mean and variance are corrected for them.
// - exact (n <= k_signed_rank_exact_max, no zeros, no ties): SciPy's
//   scipy.stats.wilcoxon(x, method="exact"), p = min(1, 2 * min(P(T <= r_plus), P(T >= r_plus)));
// - otherwise: scipy.stats.wilcoxon(x, zero_method="pratt", correction=True, method="approx"),
//   the normal approximation with tie, zero and continuity corrections.
// Every value zero gives p = 1 (no evidence of any difference).
SignedRank signed_rank_test(std::span<const double> values);

// P(T <= t) for t = 0 .. n(n+1)/2, T the sum of the ranks that carry a + sign when each of the
// ranks 1..n is signed at random (no ties). Counts of subsets by dynamic programming, exact in
// doubles up to n = 50 (2^50 subsets); computed once per n.
const std::vector<double>& exact_signed_rank_cdf(std::size_t n);

// The rank k (1-based) such that the k-th smallest and k-th largest of the n(n+1)/2 Walsh averages
// of `sorted` bound a distribution-free confidence interval of its center at `confidence`:
// k = smallest t with P(T <= t) >= (1 - confidence) / 2, as R's wilcox.test(conf.int = TRUE) takes
// it. Exact while n <= k_signed_rank_exact_max and no two values are equal; otherwise the normal
// approximation with continuity correction, its variance corrected for groups of equal values
// (ties that a shift of the center keeps; zeros are ties of |x| only at the center 0 itself).
// 0 when no pair of Walsh averages reaches `confidence` (too few values): the interval is unbounded,
// never narrower than the data support, unlike R, which then widens nothing and warns.
// A confidence of 1 (a look that may decide nothing) gives 0.
std::size_t signed_rank_interval_rank(std::span<const double> sorted, double confidence);

// Whether signed_rank_interval_rank uses the exact distribution for these values.
bool signed_rank_interval_exact(std::span<const double> sorted);

} // namespace ej::measure
