#pragma once

#include <cstddef>
#include <span>

namespace ej::measure {

// The k-th smallest (1-based, 1 <= k <= |x| * |y|) of the pairwise differences x[i] - y[j], without
// forming them: a bisection on the value, each step counting the differences <= t with two
// pointers and snapping the bounds onto actual differences. O((|x| + |y|) * steps), about
// log2(|x| * |y|) steps on ordinary data, at most 128 on any. Both inputs sorted ascending,
// non-empty. The result is one of the differences exactly as computed in floating point.
double kth_pairwise_difference(std::span<const double> sorted_x, std::span<const double> sorted_y,
                               std::size_t k);

// Hodges-Lehmann estimate of the shift x - y: the median of all pairwise differences, with the
// interval [k-th smallest, k-th largest] (see shift_interval_rank for k).
struct Shift {
  double estimate = 0;
  double low = 0;
  double high = 0;
};
Shift hodges_lehmann(std::span<const double> sorted_x, std::span<const double> sorted_y,
                     std::size_t interval_rank);

// The k-th smallest (1-based, 1 <= k <= n(n+1)/2) of the Walsh averages (x[i] + x[j]) / 2, i <= j,
// of a sorted non-empty sample, by the same bisection, without forming them.
double kth_walsh_average(std::span<const double> sorted, std::size_t k);

// The one-sample Hodges-Lehmann estimate of the center of a symmetric distribution: the median of
// the n(n+1)/2 Walsh averages, with the interval [k-th smallest, k-th largest] of them
// (signed_rank_interval_rank gives k; k = 0 means no pair covers: the interval is unbounded).
struct Location {
  double estimate = 0;
  double low = 0;
  double high = 0;
};
Location hodges_lehmann_location(std::span<const double> sorted, std::size_t interval_rank);

} // namespace ej::measure
