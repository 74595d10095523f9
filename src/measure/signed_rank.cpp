#include "measure/signed_rank.h"

#include "measure/mann_whitney.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace ej::measure {
namespace {

// Sum of t^3 - t over runs of equal values in an ascending sequence.
double tie_term(std::span<const double> sorted)
{
  double term = 0;
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j < sorted.size() && sorted[j] == sorted[i]) {
      ++j;
    }
    const auto t = static_cast<double>(j - i);
    term += t * t * t - t;
    i = j;
  }
  return term;
}

double signed_rank_variance(double n)
{
  return n * (n + 1) * (2 * n + 1) / 24;
}

} // namespace

const std::vector<double>& exact_signed_rank_cdf(std::size_t n)
{
  thread_local std::map<std::size_t, std::vector<double>> known;
  auto it = known.find(n);
  if (it != known.end()) {
    return it->second;
  }
  // ways[t]: subsets of {1..r} summing to t, for r = 0..n, updated in place (descending t).
  const std::size_t total = n * (n + 1) / 2;
  std::vector<double> ways(total + 1, 0.0);
  ways[0] = 1.0;
  for (std::size_t r = 1; r <= n; ++r) {
    for (std::size_t t = r * (r + 1) / 2 + 1; t-- > r;) {
      ways[t] += ways[t - r];
    }
  }
  const double subsets = std::ldexp(1.0, static_cast<int>(n));
  double below = 0;
  for (double& w : ways) {
    below += w; // integers below 2^53: exact
    w = below / subsets;
  }
  return known.emplace(n, std::move(ways)).first->second;
}

SignedRank signed_rank_test(std::span<const double> values)
{
  std::vector<double> magnitudes(values.size());
  std::transform(values.begin(), values.end(), magnitudes.begin(), [](double v) { return std::abs(v); });
  std::vector<std::size_t> order(values.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
  }
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return magnitudes[a] < magnitudes[b]; });

  // Mid-ranks of |x|; zeros come first and form one group of their own.
  SignedRank result;
  double zeros = 0;
  double nonzero_tie_term = 0;
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j < order.size() && magnitudes[order[j]] == magnitudes[order[i]]) {
      ++j;
    }
    const double mid_rank = static_cast<double>(i + 1 + j) / 2;
    const auto t = static_cast<double>(j - i);
    if (magnitudes[order[i]] == 0) {
      zeros = t;
    } else {
      nonzero_tie_term += t * t * t - t;
    }
    for (std::size_t k = i; k < j; ++k) {
      result.r_plus += values[order[k]] > 0 ? mid_rank : 0.0;
    }
    i = j;
  }

  const auto n = static_cast<double>(values.size());
  const double variance = signed_rank_variance(n) - signed_rank_variance(zeros) - nonzero_tie_term / 48;
  result.sigma = variance > 0 ? std::sqrt(variance) : 0.0;
  if (result.sigma == 0) {
    result.p_value = 1.0; // every value zero
    return result;
  }
  if (values.size() <= k_signed_rank_exact_max && zeros == 0 && nonzero_tie_term == 0) {
    const std::vector<double>& cdf = exact_signed_rank_cdf(values.size());
    const auto r = static_cast<std::size_t>(result.r_plus);
    const std::size_t total = cdf.size() - 1;
    const double lower = cdf[r];         // P(T <= r)
    const double upper = cdf[total - r]; // P(T >= r) = P(T <= total - r) by symmetry
    result.p_value = std::min(1.0, 2 * std::min(lower, upper));
    result.exact = true;
    return result;
  }
  // SciPy's form: the smaller of the two rank sums, continuity-corrected towards the mean.
  const double mean = (n * (n + 1) - zeros * (zeros + 1)) / 4;
  const double r_minus = 2 * mean - result.r_plus;
  const double t = std::min(result.r_plus, r_minus);
  const double correction = t > mean ? 0.5 : t < mean ? -0.5 : 0.0;
  const double z = (t - mean - correction) / result.sigma;
  result.p_value = std::clamp(2 * normal_sf(std::abs(z)), 0.0, 1.0);
  return result;
}

bool signed_rank_interval_exact(std::span<const double> sorted)
{
  return sorted.size() <= k_signed_rank_exact_max &&
         std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
}

std::size_t signed_rank_interval_rank(std::span<const double> sorted, double confidence)
{
  const std::size_t n = sorted.size();
  const std::size_t averages = n * (n + 1) / 2;
  const double tail = (1 - confidence) / 2;
  if (!(tail > 0)) {
    return 0;
  }
  std::size_t k = 0;
  if (signed_rank_interval_exact(sorted)) {
    const std::vector<double>& cdf = exact_signed_rank_cdf(n);
    while (k + 1 < cdf.size() && cdf[k] < tail) {
      ++k;
    }
  } else {
    // Smallest t with Phi((t + 0.5 - mean) / sigma) >= tail, the continuity-corrected normal CDF.
    const auto nd = static_cast<double>(n);
    const double mean = nd * (nd + 1) / 4;
    const double variance = signed_rank_variance(nd) - tie_term(sorted) / 48;
    const double sigma = variance > 0 ? std::sqrt(variance) : 0.0;
    const double t = std::ceil(mean - 0.5 + sigma * normal_quantile(tail));
    k = t > 0 ? static_cast<std::size_t>(t) : 0;
  }
  return std::min(k, (averages + 1) / 2);
}

} // namespace ej::measure
