#pragma once

#include <optional>
#include <span>
#include <vector>

namespace ej::measure {

// Benjamini-Hochberg step-up procedure: a verdict that rests on many series (metrics x
// combinations x keys) controls the expected share of false discoveries among the series it calls
// changed at q, where testing each at q would let a sweep of 40 combinations find two changes in
// pure noise. Sort the m p-values ascending; the discoveries are the k smallest, k the largest rank
// with p(k) <= k * q / m (none when there is no such rank). Ties share their fate.
// Returns, in input order, whether each p-value is a discovery. Throws ej::Error for a p-value
// outside [0, 1] or q outside (0, 1).
std::vector<bool> benjamini_hochberg(std::span<const double> p_values, double q);

// The adjusted p-values, in input order: min over j >= rank of min(1, m * p(j) / j); a p-value is
// a discovery at q exactly when its adjusted value is <= q. R's p.adjust(p, "BH") and SciPy's
// scipy.stats.false_discovery_control(p, method="bh") (SciPy >= 1.11).
std::vector<double> benjamini_hochberg_adjusted(std::span<const double> p_values);

// Which of a verdict's series may count toward its overall outcome, in input order: the family is
// the series that have a p-value (a test), and one of them passes when it is a discovery at q
// among them. A series without a p-value is outside the family and passes: there was no test, so
// no discovery to control (ej's own comparisons never call such a series improved or regressed;
// its outcome, whatever it is, stands as its caller decided it).
std::vector<bool> passes_false_discovery(std::span<const std::optional<double>> p_values, double q);

} // namespace ej::measure
