#include "measure/alpha_spending.h"

#include "measure/mann_whitney.h"
#include "util/error.h"

#include <cmath>
#include <limits>
#include <map>
#include <utility>

namespace ej::measure {
namespace {

// Grid step of the integration in units of one round's standard deviation: the boundaries lie
// within 1e-5 (in z) of those computed at a step five times finer, far below what the rank
// statistics' discreteness moves, at a twenty-fifth of the cost.
constexpr double k_step = 0.25;
// Beyond this many standard deviations a normal density is below 1e-18: the grid stops there.
constexpr double k_reach = 9.0;
// A look whose spend is below this gets no boundary (it could only ever be crossed by rounding).
constexpr double k_least_spend = 1e-15;

double normal_density(double x)
{
  return std::exp(-x * x / 2) / std::sqrt(2 * M_PI);
}

// The sub-density of the standardized sum's path that has not crossed any boundary yet, on a
// Simpson grid over [-half_width, half_width] (a single point mass before the first look).
struct Continuing {
  std::vector<double> points;
  std::vector<double> mass; // density times Simpson weight
};

// Probability of being beyond +-b at the next look (one more unit-variance increment).
double exit_mass(const Continuing& c, double b)
{
  double total = 0;
  for (std::size_t j = 0; j < c.points.size(); ++j) {
    const double u = c.points[j];
    if (b - std::abs(u) < k_reach) {
      total += c.mass[j] * (normal_sf(b - u) + normal_sf(b + u));
    }
  }
  return total;
}

Continuing advance(const Continuing& c, double half_width)
{
  auto intervals = static_cast<std::size_t>(std::ceil(2 * half_width / k_step));
  intervals += intervals % 2; // Simpson needs an even count
  const double h = 2 * half_width / static_cast<double>(intervals);
  Continuing next;
  next.points.resize(intervals + 1);
  next.mass.resize(intervals + 1);
  for (std::size_t i = 0; i <= intervals; ++i) {
    const double s = -half_width + h * static_cast<double>(i);
    double density = 0;
    for (std::size_t j = 0; j < c.points.size(); ++j) {
      const double d = s - c.points[j];
      if (std::abs(d) < k_reach) {
        density += c.mass[j] * normal_density(d);
      }
    }
    const double weight = (i == 0 || i == intervals) ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0);
    next.points[i] = s;
    next.mass[i] = density * weight * h / 3;
  }
  return next;
}

std::vector<SpendingBoundary> compute(std::size_t max_rounds, double alpha)
{
  const double z_alpha = -normal_quantile(alpha / 2);
  const auto spent_by = [&](std::size_t k) {
    const double t = static_cast<double>(k) / static_cast<double>(max_rounds);
    return 2 * normal_sf(z_alpha / std::sqrt(t));
  };
  std::vector<SpendingBoundary> boundaries;
  Continuing c{{0.0}, {1.0}};
  for (std::size_t k = 1; k <= max_rounds; ++k) {
    const double spend = spent_by(k) - spent_by(k - 1);
    const double spread = std::sqrt(static_cast<double>(k));
    double b = std::numeric_limits<double>::infinity();
    if (spend >= k_least_spend && exit_mass(c, k_reach * spread) < spend) {
      double lo = 0;
      double hi = k_reach * spread;
      for (int step = 0; step < 60; ++step) {
        const double mid = (lo + hi) / 2;
        (exit_mass(c, mid) > spend ? lo : hi) = mid;
      }
      b = hi;
    }
    SpendingBoundary boundary;
    boundary.z = b / spread;
    boundary.tail = std::isinf(b) ? 0.0 : normal_sf(boundary.z);
    boundaries.push_back(boundary);
    if (k < max_rounds) {
      c = advance(c, std::min(b, k_reach * spread));
    }
  }
  return boundaries;
}

} // namespace

const std::vector<SpendingBoundary>& obrien_fleming_boundaries(std::size_t max_rounds, double alpha)
{
  if (max_rounds < 1 || max_rounds > k_max_planned_rounds) {
    throw Error("a plan of {} rounds is out of range: plan between 1 and {} rounds", max_rounds,
                k_max_planned_rounds);
  }
  if (!(alpha > 0 && alpha < 1)) {
    throw Error("significance level {} is invalid: use a level between 0 and 1, e.g. 0.05", alpha);
  }
  thread_local std::map<std::pair<std::size_t, double>, std::vector<SpendingBoundary>> known;
  const auto key = std::make_pair(max_rounds, alpha);
  auto it = known.find(key);
  if (it == known.end()) {
    it = known.emplace(key, compute(max_rounds, alpha)).first;
  }
  return it->second;
}

} // namespace ej::measure
