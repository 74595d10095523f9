#pragma once

#include <cstddef>
#include <vector>

namespace ej::measure {

// Group-sequential boundaries for a comparison looked at after every round, up to a planned
// maximum: Lan and DeMets' alpha spending with the O'Brien-Fleming-type function
//   alpha(t) = 2 - 2 * Phi(z_(1 - alpha / 2) / sqrt(t)),   t = k / max_rounds at look k,
// which spends almost nothing early (a decision after 10 of 300 rounds needs |z| > 10) and keeps
// the last look's level close to the fixed-sample one. Boundary c_k is the |z| at look k such that
// a standardized sum of independent increments crosses it for the first time at look k with
// probability alpha(t_k) - alpha(t_(k-1)) under no change, so that crossing at any look has
// probability alpha: computed by the recursive numerical integration of Armitage, McPherson and
// Rowe (1969) on a Simpson grid (Jennison and Turnbull 2000, ch. 19); the tests check the crossing
// probabilities against SciPy's multivariate normal CDF.
//
// A repeated confidence interval at look k with confidence 1 - 2 * (1 - Phi(c_k)) then covers the
// true effect at every look at once with probability 1 - alpha (Jennison and Turnbull 1989): any
// decision read off it, at any look, keeps the error rate.
struct SpendingBoundary {
  double z = 0;    // c_k; +infinity where the look may spend nothing measurable (below 1e-15)
  double tail = 0; // 1 - Phi(c_k): the one-sided nominal level of the look's interval
};

// One boundary per look k = 1 .. max_rounds. 1 <= max_rounds <= k_max_planned_rounds, 0 < alpha < 1
// (two-sided); throws ej::Error otherwise. Cached per (max_rounds, alpha): computing them takes
// about 0.2 s for 300 rounds and 0.8 s for 1,000 (-O2).
const std::vector<SpendingBoundary>& obrien_fleming_boundaries(std::size_t max_rounds, double alpha);

// The integration costs O(max_rounds^1.5): beyond this a plan of looks is unreasonably long anyway.
inline constexpr std::size_t k_max_planned_rounds = 1000;

} // namespace ej::measure
