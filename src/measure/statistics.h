#pragma once

#include "core/metric_spec.h"

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace ej::measure {

// Which way a metric improves (core/metric_spec.h): time goes down, throughput goes up.
using core::Direction;

// The derived summary of one metric's raw samples. Nothing is dropped: outliers are only flagged.
struct Summary {
  std::size_t n = 0;
  double median = 0;
  double mean = 0;
  double stddev = 0;        // sample standard deviation (n - 1); 0 when n == 1
  std::optional<double> cv; // stddev / |mean|; empty when the mean is 0
  double min = 0;
  double max = 0;
  double q1 = 0; // quartiles by linear interpolation (numpy's default, Hyndman & Fan type 7)
  double q3 = 0;
  double mad = 0;                           // median absolute deviation from the median, unscaled
  std::vector<std::size_t> outlier_indices; // positions in the input order, ascending
  bool slow_first = false;                  // the first repeat looks like a warm-up: see summarize()
};

// Sets mean, stddev (n - 1) and cv of `s` (whose n is set) from Welford's running mean and sum of
// squared deviations: the summary in memory and the streamed one compute them so.
void set_spread(Summary& s, double mean, double m2);

// Modified z-score above which a sample is an outlier: |x - median| / (1.4826 * MAD) > 10,
// hyperfine's rule.
inline constexpr double k_outlier_z = 10.0;

// Summarizes samples in their recorded order (the order matters for slow_first).
// A sample is an outlier when its modified z-score exceeds k_outlier_z; when MAD is 0 (more than
// half the samples equal) the mean absolute deviation scaled by 1.2533 stands in for 1.4826 * MAD.
// slow_first: the first sample is an outlier on the worse side, or (n >= 5) it is strictly the
// worst and at least twice as far from the median as the next worst.
// Throws ej::Error on empty input or a non-finite value.
Summary summarize(std::span<const double> samples, Direction direction = Direction::LowerIsBetter);

// How much worse than the median a sample is (positive = worse): the slow-first-repeat rule's
// measure, shared by the summary in memory and the streamed one.
inline double badness(double x, double median, Direction direction)
{
  return direction == Direction::LowerIsBetter ? x - median : median - x;
}

// summarize(samples).median (the same checks, the same value) without the other statistics, for
// listings that show only the median of thousands of runs.
double median(std::span<const double> samples);

// Throws ej::Error naming `what` when samples is empty or holds NaN or an infinity.
void require_finite_samples(std::span<const double> samples, std::string_view what);

// The p-quantile (0 <= p <= 1) of ascending samples by linear interpolation (type 7).
double quantile_sorted(std::span<const double> sorted, double p);

} // namespace ej::measure
