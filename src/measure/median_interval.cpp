#include "measure/median_interval.h"

#include <cmath>
#include <cstddef>

namespace ej::measure {

MedianInterval median_interval(std::span<const double> sorted, double confidence)
{
  const std::size_t n = sorted.size();
  const double tail = (1 - confidence) / 2;
  // P(B <= j) for j = 0, 1, ...: the interval [x(k), x(n + 1 - k)] misses the median with
  // probability 2 * P(B <= k - 1).
  double term = std::pow(0.5, static_cast<double>(n)); // P(B = 0)
  double below = term;                                 // P(B <= k - 1) for k = 1
  std::size_t k = 0;
  while (k + 1 <= n / 2 && below <= tail) {
    ++k;
    term *= static_cast<double>(n - k + 1) / static_cast<double>(k); // P(B = k)
    below += term;
  }
  if (k == 0) {
    return {sorted.front(), sorted.back(), 1 - 2 * std::pow(0.5, static_cast<double>(n))};
  }
  const double missed = 2 * (below - term); // 2 * P(B <= k - 1)
  return {sorted[k - 1], sorted[n - k], 1 - missed};
}

} // namespace ej::measure
