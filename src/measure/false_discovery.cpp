#include "measure/false_discovery.h"

#include "util/error.h"

#include <algorithm>
#include <cstddef>
#include <numeric>

namespace ej::measure {

std::vector<double> benjamini_hochberg_adjusted(std::span<const double> p_values)
{
  for (const double p : p_values) {
    if (!(p >= 0 && p <= 1)) {
      throw Error("p-value {} is not a probability: Benjamini-Hochberg needs p-values in [0, 1]", p);
    }
  }
  const std::size_t m = p_values.size();
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return p_values[a] < p_values[b]; });
  std::vector<double> adjusted(m);
  double smallest_after = 1.0; // the running minimum from the largest p-value down
  for (std::size_t rank = m; rank > 0; --rank) {
    const std::size_t i = order[rank - 1];
    smallest_after =
        std::min(smallest_after, static_cast<double>(m) * p_values[i] / static_cast<double>(rank));
    adjusted[i] = smallest_after;
  }
  return adjusted;
}

std::vector<bool> benjamini_hochberg(std::span<const double> p_values, double q)
{
  if (!(q > 0 && q < 1)) {
    throw Error("false-discovery level {} is invalid: use a level between 0 and 1, e.g. 0.05", q);
  }
  const std::vector<double> adjusted = benjamini_hochberg_adjusted(p_values);
  std::vector<bool> discoveries(adjusted.size());
  std::transform(adjusted.begin(), adjusted.end(), discoveries.begin(), [q](double p) { return p <= q; });
  return discoveries;
}

std::vector<bool> passes_false_discovery(std::span<const std::optional<double>> p_values, double q)
{
  std::vector<double> tested;
  for (const auto& p : p_values) {
    if (p) {
      tested.push_back(*p);
    }
  }
  const auto discoveries = benjamini_hochberg(tested, q);
  std::vector<bool> out;
  out.reserve(p_values.size());
  std::size_t next = 0;
  for (const auto& p : p_values) {
    out.push_back(p ? discoveries[next++] : true);
  }
  return out;
}

} // namespace ej::measure
