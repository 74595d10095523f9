#include "measure/mann_whitney.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace ej::measure {
namespace {

// A run of equal values in the pooled sample, in ascending order of value.
struct TieGroup {
  std::size_t size = 0;
  std::size_t in_x = 0;
};

struct Pooled {
  std::vector<TieGroup> groups;
  double rank_sum_x = 0; // sum of the (mid-)ranks of x in the pooled sample
  double tie_term = 0;   // sum of t^3 - t over groups of t tied values
};

// Merges the two sorted samples, giving tied values their average rank.
Pooled pooled_ranks(std::span<const double> x, std::span<const double> y)
{
  Pooled pooled;
  std::size_t i = 0;
  std::size_t j = 0;
  double next_rank = 1;
  while (i < x.size() || j < y.size()) {
    const double value = j == y.size() || (i < x.size() && x[i] <= y[j]) ? x[i] : y[j];
    std::size_t in_x = 0;
    std::size_t in_y = 0;
    while (i < x.size() && x[i] == value) {
      ++i;
      ++in_x;
    }
    while (j < y.size() && y[j] == value) {
      ++j;
      ++in_y;
    }
    pooled.groups.push_back({in_x + in_y, in_x});
    const auto t = static_cast<double>(in_x + in_y);
    const double mid_rank = next_rank + (t - 1) / 2;
    pooled.rank_sum_x += static_cast<double>(in_x) * mid_rank;
    pooled.tie_term += t * t * t - t;
    next_rank += t;
  }
  return pooled;
}

// The observed 2 * U of x (or of y): each of its values beats the other side's values in earlier
// groups and ties with (counts half of) those in its own group. An integer, so that the tails
// compare U exactly even at half-integer values.
std::size_t doubled_u(std::span<const TieGroup> groups, bool chosen_is_x)
{
  std::size_t doubled = 0;
  std::size_t others_before = 0;
  for (const TieGroup& group : groups) {
    const std::size_t chosen = chosen_is_x ? group.in_x : group.size - group.in_x;
    const std::size_t others = group.size - chosen;
    doubled += chosen * (2 * others_before + others);
    others_before += others;
  }
  return doubled;
}

// The permutation distribution of 2 * U for the side of m values against n, given the tie groups:
// element d counts the ways (as a double, at most C(m + n, m) ~ 1e29 within the exact bound) to
// give m of the pooled values to that side with 2 * U = d. Groups are added in ascending order;
// ways[k][d] covers the values so far with k of them chosen. Choosing j of a group of t, after
// `others` values of the other side, can be done C(t, j) ways and adds j * (2 * others + t - j).
std::vector<double> tied_doubled_u_counts(std::span<const TieGroup> groups, std::size_t m, std::size_t n)
{
  std::vector<std::vector<double>> ways(m + 1);
  for (std::size_t k = 0; k <= m; ++k) {
    ways[k].assign(2 * k * n + 1, 0.0);
  }
  ways[0][0] = 1.0;
  std::size_t seen = 0;
  std::vector<double> binomial;
  for (const TieGroup& group : groups) {
    const std::size_t t = group.size;
    binomial.assign(1, 1.0);
    for (std::size_t j = 1; j <= std::min(t, m); ++j) {
      binomial.push_back(binomial.back() * static_cast<double>(t - j + 1) / static_cast<double>(j));
    }
    // In place, descending k: ways[k - j] for j >= 1 still holds the counts before this group.
    for (std::size_t k = std::min(m, seen + t) + 1; k-- > 0;) {
      if (seen + t - k > n) {
        // More than n values left for the other side: impossible from here on.
        std::fill(ways[k].begin(), ways[k].end(), 0.0);
        continue;
      }
      // At most `seen` were chosen before this group, so j >= k - seen.
      for (std::size_t j = std::max<std::size_t>(1, k > seen ? k - seen : 0); j <= std::min(t, k); ++j) {
        const std::size_t before = k - j;
        const std::size_t others = seen - before;
        if (others > n) {
          break; // impossible before (zeroed, its table too short to read), and more so for larger j
        }
        const std::size_t offset = j * (2 * others + t - j);
        const std::vector<double>& from = ways[before];
        std::vector<double>& to = ways[k];
        const double weight = binomial[j];
        for (std::size_t d = 0; d <= 2 * before * others; ++d) {
          to[d + offset] += weight * from[d];
        }
      }
    }
    seen += t;
  }
  return std::move(ways[m]);
}

// Two-sided p = min(1, 2 * min(P(U <= u), P(U >= u))) under the permutation distribution given the
// ties: what an exhaustive scipy.stats.permutation_test of the U statistic reports.
double tied_exact_p(const Pooled& pooled, std::size_t n_x, std::size_t n_y)
{
  // The smaller side keeps the table small; the p-value is the same from either side.
  const bool chosen_is_x = n_x <= n_y;
  const std::size_t m = chosen_is_x ? n_x : n_y;
  const std::size_t n = chosen_is_x ? n_y : n_x;
  const std::vector<double> counts = tied_doubled_u_counts(pooled.groups, m, n);
  const std::size_t observed = doubled_u(pooled.groups, chosen_is_x);
  double below = 0; // ways with U <= observed
  double above = 0; // ways with U >= observed
  double all = 0;
  for (std::size_t d = 0; d < counts.size(); ++d) {
    below += d <= observed ? counts[d] : 0.0;
    above += d >= observed ? counts[d] : 0.0;
    all += counts[d];
  }
  return std::min(1.0, 2 * std::min(below, above) / all);
}

// A document judges thousands of runs of the same sizes: each distribution is computed once.
const std::vector<double>& cached_u_cdf(std::size_t m, std::size_t n)
{
  thread_local std::map<std::pair<std::size_t, std::size_t>, std::vector<double>> known;
  const auto key = std::make_pair(m, n);
  auto it = known.find(key);
  if (it == known.end()) {
    it = known.emplace(key, exact_u_cdf(m, n)).first;
  }
  return it->second;
}

} // namespace

std::vector<double> exact_u_cdf(std::size_t m, std::size_t n)
{
  // P(a, b, u): probability that U = u for samples of a and b. The largest of the a + b values
  // belongs to the first sample with probability a / (a + b), and then beats all b others:
  //   P(a, b, u) = a / (a + b) * P(a - 1, b, u - b) + b / (a + b) * P(a, b - 1, u).
  // Probabilities (not counts) keep every term positive and within double range.
  // Rolling over a, row[b] holds P(a, b, .), truncated to u <= half.
  const std::size_t a_max = std::max(m, n);
  const std::size_t b_max = std::min(m, n);
  const std::size_t half = m * n / 2;
  std::vector<std::vector<double>> row(b_max + 1, std::vector<double>(half + 1, 0.0));
  for (auto& p : row) {
    p[0] = 1.0; // a = 0: U is 0
  }
  for (std::size_t a = 1; a <= a_max; ++a) {
    for (std::size_t b = 1; b <= b_max; ++b) {
      const double total = static_cast<double>(a + b);
      const double w_shift = static_cast<double>(a) / total;
      const double w_stay = static_cast<double>(b) / total;
      std::vector<double>& current = row[b];        // holds P(a - 1, b, .)
      const std::vector<double>& left = row[b - 1]; // already P(a, b - 1, .)
      // Descending u so current[u - b] still holds the previous a's value when read.
      for (std::size_t u = half + 1; u-- > 0;) {
        const double shifted = u >= b ? current[u - b] : 0.0;
        current[u] = w_shift * shifted + w_stay * left[u];
      }
    }
  }
  std::vector<double> cdf = std::move(row[b_max]);
  for (std::size_t u = 1; u < cdf.size(); ++u) {
    cdf[u] = std::min(1.0, cdf[u] + cdf[u - 1]);
  }
  return cdf;
}

MannWhitney mann_whitney(std::span<const double> sorted_x, std::span<const double> sorted_y)
{
  const auto n_x = static_cast<double>(sorted_x.size());
  const auto n_y = static_cast<double>(sorted_y.size());
  const Pooled pooled = pooled_ranks(sorted_x, sorted_y);
  const double pairs = n_x * n_y;
  const double total = n_x + n_y;

  MannWhitney result;
  result.u = pooled.rank_sum_x - n_x * (n_x + 1) / 2;
  const double variance = pairs / 12 * ((total + 1) - pooled.tie_term / (total * (total - 1)));
  result.sigma = variance > 0 ? std::sqrt(variance) : 0.0;
  if (result.sigma == 0) {
    result.p_value = 1.0; // every value tied: no evidence of any difference
    return result;
  }

  const bool ties = pooled.tie_term > 0;
  const std::size_t exact_bound = ties ? k_exact_max_pairs_tied : k_exact_max_pairs;
  if (sorted_x.size() * sorted_y.size() <= exact_bound) {
    result.null_cdf = cached_u_cdf(sorted_x.size(), sorted_y.size());
    if (ties) {
      result.p_value = tied_exact_p(pooled, sorted_x.size(), sorted_y.size());
    } else {
      const auto smaller = static_cast<std::size_t>(std::min(result.u, pairs - result.u));
      result.p_value = std::min(1.0, 2 * result.null_cdf[smaller]);
    }
    result.exact = true;
    return result;
  }
  const double z = (std::max(result.u, pairs - result.u) - pairs / 2 - 0.5) / result.sigma;
  result.p_value = std::clamp(2 * normal_sf(z), 0.0, 1.0);
  return result;
}

std::size_t shift_interval_rank(std::size_t m, std::size_t n, double confidence, const MannWhitney& test)
{
  const double tail = (1 - confidence) / 2;
  std::size_t k = 0;
  if (test.exact) {
    const std::vector<double>& cdf = test.null_cdf;
    while (k + 1 < cdf.size() && cdf[k] < tail) {
      ++k;
    }
  } else {
    // Smallest u with Phi((u + 0.5 - mean) / sigma) >= tail, the continuity-corrected normal CDF.
    const double mean = static_cast<double>(m) * static_cast<double>(n) / 2;
    const double u = std::ceil(mean - 0.5 + test.sigma * normal_quantile(tail));
    k = u > 0 ? static_cast<std::size_t>(u) : 0;
  }
  return std::clamp<std::size_t>(k, 1, std::max<std::size_t>(1, m * n / 2));
}

double normal_sf(double z)
{
  return 0.5 * std::erfc(z / std::sqrt(2.0));
}

double normal_quantile(double p)
{
  // Acklam's rational approximation (relative error 1.15e-9), then one Halley step on erfc, which
  // brings it to full double precision.
  constexpr std::array a{-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                         1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  constexpr std::array b{-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                         6.680131188771972e+01, -1.328068155288572e+01};
  constexpr std::array c{-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                         -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  constexpr std::array d{7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                         3.754408661907416e+00};
  constexpr double p_low = 0.02425;
  double x = 0;
  if (p < p_low) {
    const double q = std::sqrt(-2 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - p_low) {
    const double q = p - 0.5;
    const double r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const double q = std::sqrt(-2 * std::log(1 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  const double pi = 3.14159265358979323846;
  const double error = 0.5 * std::erfc(-x / std::sqrt(2.0)) - p;
  const double u = error * std::sqrt(2 * pi) * std::exp(x * x / 2);
  return x - u / (1 + x * u / 2);
}

} // namespace ej::measure
