#include "measure/power.h"

#include "measure/mann_whitney.h"
#include "measure/statistics.h"

#include <cmath>
#include <numbers>

namespace ej::measure {

double detectable_effect(double sigma, std::size_t n, Pairing pairing, double alpha, double power)
{
  if (n == 0) {
    return 0;
  }
  const double z = normal_quantile(1 - alpha / 2) + normal_quantile(power);
  const double efficiency = 3 / std::numbers::pi;
  const double per_value = pairing == Pairing::TwoSample ? std::sqrt(2.0) : 1.0;
  return z * sigma * per_value / std::sqrt(static_cast<double>(n) * efficiency);
}

double robust_sigma(std::vector<double> values)
{
  if (values.size() < 2) {
    return 0;
  }
  const double centre = median(values);
  for (auto& v : values) {
    v = std::abs(v - centre);
  }
  return 1.4826 * median(values);
}

double level_drift(const std::vector<double>& values)
{
  if (values.size() < 2) {
    return 0;
  }
  std::vector<double> slopes;
  slopes.reserve(values.size() * (values.size() - 1) / 2);
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (std::size_t j = i + 1; j < values.size(); ++j) {
      slopes.push_back((values[j] - values[i]) / static_cast<double>(j - i));
    }
  }
  return median(slopes) * static_cast<double>(values.size() - 1);
}

} // namespace ej::measure
