#include "measure/statistics.h"

#include "util/error.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace ej::measure {
namespace {

// 1.4826 * MAD estimates the standard deviation of normal data; 1.2533 (sqrt(pi/2)) does the same
// for the mean absolute deviation, the usual stand-in when MAD is 0.
constexpr double k_mad_scale = 1.4826;
constexpr double k_mean_ad_scale = 1.253314;

double median_of(std::vector<double> values)
{
  std::sort(values.begin(), values.end());
  return quantile_sorted(values, 0.5);
}

// Robust spread used for the modified z-score; 0 only when every sample equals the median.
double robust_scale(std::span<const double> samples, double median, double mad)
{
  if (mad > 0) {
    return k_mad_scale * mad;
  }
  double total = 0;
  for (double x : samples) {
    total += std::abs(x - median);
  }
  return k_mean_ad_scale * total / static_cast<double>(samples.size());
}

bool first_is_slow(std::span<const double> samples, const Summary& summary, Direction direction)
{
  const double first = badness(samples[0], summary.median, direction);
  if (first <= 0) {
    return false;
  }
  if (!summary.outlier_indices.empty() && summary.outlier_indices.front() == 0) {
    return true;
  }
  // With fewer samples the first is the worst too often by chance alone.
  if (samples.size() < 5) {
    return false;
  }
  double next_worst = badness(samples[1], summary.median, direction);
  for (std::size_t i = 2; i < samples.size(); ++i) {
    next_worst = std::max(next_worst, badness(samples[i], summary.median, direction));
  }
  return first > next_worst && first >= 2 * std::max(next_worst, 0.0);
}

} // namespace

void require_finite_samples(std::span<const double> samples, std::string_view what)
{
  if (samples.empty()) {
    throw Error("no samples for the {}: run the benchmark (at least once) before summarizing it", what);
  }
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (!std::isfinite(samples[i])) {
      throw Error("sample {} of the {} is {}, not a finite number: check the metric extractor", i + 1, what,
                  samples[i]);
    }
  }
}

double quantile_sorted(std::span<const double> sorted, double p)
{
  const double h = static_cast<double>(sorted.size() - 1) * p;
  const auto lower = static_cast<std::size_t>(std::floor(h));
  if (lower + 1 >= sorted.size()) {
    return sorted.back();
  }
  return sorted[lower] + (h - static_cast<double>(lower)) * (sorted[lower + 1] - sorted[lower]);
}

double median(std::span<const double> samples)
{
  require_finite_samples(samples, "metric");
  // A run's repeats are few, and a plan document takes tens of thousands of their medians: those
  // are sorted on the stack.
  constexpr std::size_t k_on_stack = 32;
  if (!samples.empty() && samples.size() <= k_on_stack) {
    std::array<double, k_on_stack> sorted;
    const auto end = std::copy(samples.begin(), samples.end(), sorted.begin());
    std::sort(sorted.begin(), end);
    return quantile_sorted(std::span<const double>(sorted.data(), samples.size()), 0.5);
  }
  return median_of(std::vector<double>(samples.begin(), samples.end()));
}

void set_spread(Summary& s, double mean, double m2)
{
  s.mean = mean;
  s.stddev = s.n > 1 ? std::sqrt(m2 / static_cast<double>(s.n - 1)) : 0.0;
  if (s.stddev == 0) {
    s.cv = 0.0;
  } else if (s.mean != 0) {
    s.cv = s.stddev / std::abs(s.mean);
  }
}

Summary summarize(std::span<const double> samples, Direction direction)
{
  require_finite_samples(samples, "metric");
  Summary s;
  s.n = samples.size();

  // Welford's update: no catastrophic cancellation, no overflow of a running sum of squares.
  double mean = 0;
  double m2 = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const double delta = samples[i] - mean;
    mean += delta / static_cast<double>(i + 1);
    m2 += delta * (samples[i] - mean);
  }
  set_spread(s, mean, m2);

  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  s.min = sorted.front();
  s.max = sorted.back();
  s.median = quantile_sorted(sorted, 0.5);
  s.q1 = quantile_sorted(sorted, 0.25);
  s.q3 = quantile_sorted(sorted, 0.75);

  // The deviations take the sorted copy's place: a series of millions of values costs one copy.
  std::vector<double>& deviations = sorted;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    deviations[i] = std::abs(samples[i] - s.median);
  }
  s.mad = median_of(std::move(deviations));

  const double scale = robust_scale(samples, s.median, s.mad);
  if (scale > 0) {
    for (std::size_t i = 0; i < samples.size(); ++i) {
      if (std::abs(samples[i] - s.median) / scale > k_outlier_z) {
        s.outlier_indices.push_back(i);
      }
    }
  }
  s.slow_first = first_is_slow(samples, s, direction);
  return s;
}

} // namespace ej::measure
