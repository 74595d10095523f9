#include "measure/power.h"

#include "measure/mann_whitney.h"
#include "measure/statistics.h"

#include <cmath>
#include <numbers>

namespace ej::measure {

double t_quantile(double p, double dof)
{
  const double z = normal_quantile(p);
  const double z3 = z * z * z;
  const double z5 = z3 * z * z;
  return z + (z3 + z) / (4 * dof) + (5 * z5 + 16 * z3 + 3 * z) / (96 * dof * dof) +
         (3 * z5 * z * z + 19 * z5 + 17 * z3 - 15 * z) / (384 * dof * dof * dof);
}

double detectable_effect(double sigma, std::size_t n, Pairing pairing, double alpha, double power)
{
  if (n < 2) {
    return 0;
  }
  const double dof =
      pairing == Pairing::TwoSample ? 2.0 * static_cast<double>(n) - 2 : static_cast<double>(n) - 1;
  const double t = t_quantile(1 - alpha / 2, dof) + t_quantile(power, dof);
  const double efficiency = 3 / std::numbers::pi;
  const double per_value = pairing == Pairing::TwoSample ? std::sqrt(2.0) : 1.0;
  return t * sigma * per_value / std::sqrt(static_cast<double>(n) * efficiency);
}

std::optional<std::size_t> values_needed(double sigma, double effect, Pairing pairing, std::size_t most,
                                         double alpha, double power)
{
  if (!(sigma > 0) || !(effect > 0)) {
    return std::nullopt;
  }
  // detectable_effect falls as n grows: a bisection finds the first n that reaches `effect`.
  if (most < 2 || detectable_effect(sigma, most, pairing, alpha, power) > effect) {
    return std::nullopt;
  }
  std::size_t low = 2;
  std::size_t high = most;
  while (low < high) {
    const std::size_t mid = low + (high - low) / 2;
    if (detectable_effect(sigma, mid, pairing, alpha, power) <= effect) {
      high = mid;
    } else {
      low = mid + 1;
    }
  }
  return low;
}

double sigma_from_interval(double half_width, double n, Pairing pairing, double confidence)
{
  if (n < 2) {
    return 0;
  }
  const double dof = pairing == Pairing::TwoSample ? 2 * n - 2 : n - 1;
  const double t = t_quantile((1 + confidence) / 2, dof);
  const double per_value = pairing == Pairing::TwoSample ? std::sqrt(2.0) : 1.0;
  return half_width * std::sqrt(n * 3 / std::numbers::pi) / (t * per_value);
}

double sample_sigma(const std::vector<double>& values)
{
  if (values.size() < 2) {
    return 0;
  }
  double mean = 0;
  for (const double v : values) {
    mean += v;
  }
  mean /= static_cast<double>(values.size());
  double squares = 0;
  for (const double v : values) {
    squares += (v - mean) * (v - mean);
  }
  return std::sqrt(squares / static_cast<double>(values.size() - 1));
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

double level_drift_error(const std::vector<double>& values)
{
  const auto n = values.size();
  if (n < 3) {
    return 0;
  }
  std::vector<double> steps;
  for (std::size_t i = 1; i < n; ++i) {
    steps.push_back(values[i] - values[i - 1]);
  }
  const double sigma = sample_sigma(steps) / std::sqrt(2.0);
  const double count = static_cast<double>(n);
  return sigma * (count - 1) * std::sqrt(12 / (count * (count * count - 1)));
}

} // namespace ej::measure
