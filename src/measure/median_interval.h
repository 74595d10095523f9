#pragma once

#include <span>

namespace ej::measure {

// A distribution-free confidence interval for the median of a sample: the order statistics
// x(k) and x(n + 1 - k), with k the largest rank such that P(B < k) <= (1 - confidence) / 2 for
// B ~ Binomial(n, 1/2), the interval the sign test inverts (R: DescTools::MedianCI(method =
// "exact") gives the same bounds). Its true coverage, at least `confidence`, comes with it.
// Below six values no pair of order statistics covers the median with 95%: the interval is then
// the whole range, min to max, with the coverage it does have (1 - 2 / 2^n: 0.75 for three values,
// 0 for one).
struct MedianInterval {
  double low = 0;
  double high = 0;
  double coverage = 0;
};

// `sorted` ascending and non-empty; 0 < confidence < 1.
MedianInterval median_interval(std::span<const double> sorted, double confidence = 0.95);

} // namespace ej::measure
