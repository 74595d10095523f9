#include "measure/comparison.h"

#include "measure/hodges_lehmann.h"
#include "measure/mann_whitney.h"
#include "util/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <utility>

namespace ej::measure {
namespace {

void validate(const CompareOptions& options)
{
  if (!(options.alpha > 0 && options.alpha < 1)) {
    throw Error("significance level alpha {} is out of range: use a value between 0 and 1, e.g. 0.05",
                options.alpha);
  }
  if (!(options.confidence > 0 && options.confidence < 1)) {
    throw Error("confidence level {} is out of range: use a value between 0 and 1, e.g. 0.95",
                options.confidence);
  }
  if (!(options.min_effect_pct >= 0 && std::isfinite(options.min_effect_pct))) {
    throw Error("minimum effect {}% is invalid: use a percentage >= 0, e.g. 1", options.min_effect_pct);
  }
  if (!(options.noisy_cv > 0 && std::isfinite(options.noisy_cv))) {
    throw Error("noise threshold {} is invalid: use a coefficient of variation > 0, e.g. 0.1",
                options.noisy_cv);
  }
}

std::vector<double> sorted_copy(std::span<const double> samples)
{
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

// Logs of ascending samples; a value repeated (timings printed with 2 or 3 decimals repeat a
// lot) reuses the log of the one before.
std::vector<double> logs_of(const std::vector<double>& sorted)
{
  std::vector<double> logs(sorted.size());
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    logs[i] = i > 0 && sorted[i] == sorted[i - 1] ? logs[i - 1] : std::log(sorted[i]);
  }
  return logs;
}

// The Hodges-Lehmann estimate x - y alone (no interval): the median of the pairwise differences.
double hl_estimate(std::span<const double> x, std::span<const double> y)
{
  return hodges_lehmann(x, y, 1).estimate;
}

std::string sample_size_warning(std::string_view side, std::size_t n)
{
  return fmt::format("the {} has only {} samples: the test can miss real changes; "
                     "{} or more per side are recommended",
                     side, n, k_few_samples);
}

void warn_sample_size(Comparison& c, std::string_view side, std::size_t n)
{
  if (n < k_min_samples || n >= k_few_samples) {
    return; // below k_min_samples the basis itself says so
  }
  // A plan document compares thousands of runs of the same few sizes: each sentence is formatted
  // once (at most two sides times k_few_samples sizes).
  thread_local std::map<std::pair<std::string, std::size_t>, std::string> known;
  auto key = std::make_pair(std::string(side), n);
  auto found = known.find(key);
  if (found == known.end()) {
    found = known.emplace(std::move(key), sample_size_warning(side, n)).first;
  }
  c.warnings.push_back(found->second);
}

// The median absolute deviation from `median` of ascending samples, without a copy: the deviations
// of the values below the median ascend leftwards, those above rightwards, so the middle one is
// found by merging the two runs from the median outwards.
double median_deviation(const std::vector<double>& sorted, double median)
{
  const std::size_t n = sorted.size();
  auto right =
      static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), median) - sorted.begin());
  std::size_t left = right; // sorted[left - 1] is the next value below
  double previous = 0;
  double current = 0;
  for (std::size_t taken = 0; taken <= n / 2; ++taken) {
    previous = current;
    const bool take_right = left == 0 || (right < n && sorted[right] - median <= median - sorted[left - 1]);
    current = take_right ? sorted[right++] - median : median - sorted[--left];
  }
  return n % 2 == 0 ? (previous + current) / 2 : current;
}

// High noise and outliers of one side, from its sorted samples, in O(n): hyperfine's wording.
void warn_noise(Comparison& c, std::string_view side, const std::vector<double>& sorted, double median,
                const CompareOptions& options)
{
  const std::size_t n = sorted.size();
  if (n < 2) {
    return;
  }
  const double mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(n);
  double squares = 0;
  double absolute = 0;
  for (const double v : sorted) {
    squares += (v - mean) * (v - mean);
    absolute += std::abs(v - median);
  }
  const double stddev = std::sqrt(squares / static_cast<double>(n - 1));
  if (mean != 0 && stddev / std::abs(mean) > options.noisy_cv) {
    c.warnings.push_back(
        fmt::format("the {} is noisy: its coefficient of variation is {:.1f}% (over {:.0f}%); "
                    "quiet the machine or repeat more",
                    side, stddev / std::abs(mean) * 100, options.noisy_cv * 100));
  }
  const double mad = median_deviation(sorted, median);
  // As summarize(): with a MAD of 0 the scaled mean absolute deviation stands in.
  const double scale = mad > 0 ? 1.4826 * mad : 1.2533 * absolute / static_cast<double>(n);
  if (scale == 0) {
    return;
  }
  std::size_t outliers = 0;
  for (const double v : sorted) {
    outliers += std::abs(v - median) / scale > k_outlier_z ? 1 : 0;
  }
  if (outliers > 0) {
    c.warnings.push_back(fmt::format("the {} has {} statistical outlier{} (a modified z-score over {:.0f}): "
                                     "other programs or a cold start may have interfered",
                                     side, outliers, outliers == 1 ? "" : "s", k_outlier_z));
  }
}

// The estimate's move in percent of the reference, positive when it is better for the metric.
struct Effect {
  double better = 0;    // the estimate
  double threshold = 0; // min_effect_pct in the estimate's terms
  std::optional<double> low;
  std::optional<double> high;
};

Effect effect_of(const Comparison& c, const CompareOptions& options)
{
  const double sign = options.direction == Direction::LowerIsBetter ? -1.0 : 1.0;
  Effect e;
  if (c.estimate == Estimate::Ratio) {
    e.better = sign * *c.change_pct;
    e.threshold = options.min_effect_pct;
    if (c.change_low_pct) {
      e.low = std::min(sign * *c.change_low_pct, sign * *c.change_high_pct);
      e.high = std::max(sign * *c.change_low_pct, sign * *c.change_high_pct);
    }
    return e;
  }
  e.better = sign * *c.shift;
  e.threshold = options.min_effect_pct / 100 * std::abs(c.reference_median);
  if (c.shift_low) {
    e.low = std::min(sign * *c.shift_low, sign * *c.shift_high);
    e.high = std::max(sign * *c.shift_low, sign * *c.shift_high);
  }
  return e;
}

Outcome decide(const Comparison& c, const CompareOptions& options)
{
  if (c.basis != Basis::Test) {
    return Outcome::Inconclusive;
  }
  const Effect e = effect_of(c, options);
  if (*c.p_value < options.alpha) {
    if (e.better > e.threshold) {
      return Outcome::Improved;
    }
    if (e.better < -e.threshold) {
      return Outcome::Regressed;
    }
  }
  const bool inside = *e.low >= -e.threshold && *e.high <= e.threshold;
  return inside ? Outcome::NoChange : Outcome::Inconclusive;
}

void set_ratio(Comparison& c, double log_estimate, std::optional<double> log_low,
               std::optional<double> log_high)
{
  c.ratio = std::exp(log_estimate);
  c.change_pct = (*c.ratio - 1) * 100;
  if (log_low && log_high) {
    c.ratio_low = std::exp(*log_low);
    c.ratio_high = std::exp(*log_high);
    c.change_low_pct = (*c.ratio_low - 1) * 100;
    c.change_high_pct = (*c.ratio_high - 1) * 100;
  }
}

} // namespace

std::string_view to_string(Outcome outcome)
{
  switch (outcome) {
  case Outcome::Improved:
    return "improved";
  case Outcome::Regressed:
    return "regressed";
  case Outcome::NoChange:
    return "no change";
  case Outcome::Inconclusive:
    return "inconclusive";
  case Outcome::Mixed:
    return "mixed";
  }
  return "inconclusive";
}

Comparison compare(std::span<const double> reference, std::span<const double> candidate,
                   const CompareOptions& options)
{
  validate(options);
  require_finite_samples(reference, "reference");
  require_finite_samples(candidate, "candidate");
  const std::vector<double> ref = sorted_copy(reference);
  const std::vector<double> cand = sorted_copy(candidate);
  if (!std::isfinite(cand.back() - ref.front()) || !std::isfinite(cand.front() - ref.back())) {
    throw Error("the samples are too large to compare (their differences overflow): rescale the metric");
  }

  Comparison c;
  c.n_reference = ref.size();
  c.n_candidate = cand.size();
  c.reference_median = quantile_sorted(ref, 0.5);
  c.candidate_median = quantile_sorted(cand, 0.5);
  c.confidence = options.confidence;
  c.basis = ref.size() == 1 && cand.size() == 1                         ? Basis::SingleFigures
            : ref.size() < k_min_samples || cand.size() < k_min_samples ? Basis::TooFewSamples
                                                                        : Basis::Test;
  c.estimate = ref.front() > 0 && cand.front() > 0 ? Estimate::Ratio : Estimate::Shift;
  if (c.reference_median != 0) {
    const double median_ratio = c.candidate_median / c.reference_median;
    if (std::isfinite(median_ratio)) {
      c.median_ratio = median_ratio;
    }
  }

  // Logs keep the order, so U, p and the interval's rank are the same for both estimates.
  std::vector<double> log_ref;
  std::vector<double> log_cand;
  if (c.estimate == Estimate::Ratio) {
    log_ref = logs_of(ref);
    log_cand = logs_of(cand);
  }
  const auto& x = c.estimate == Estimate::Ratio ? log_cand : cand;
  const auto& y = c.estimate == Estimate::Ratio ? log_ref : ref;
  if (c.basis == Basis::Test) {
    const MannWhitney test = mann_whitney(cand, ref);
    c.u = test.u;
    c.p_value = test.p_value;
    c.exact = test.exact;
    const std::size_t rank = shift_interval_rank(cand.size(), ref.size(), options.confidence, test);
    const Shift shift = hodges_lehmann(x, y, rank);
    if (c.estimate == Estimate::Ratio) {
      set_ratio(c, shift.estimate, shift.low, shift.high);
    } else {
      c.shift = shift.estimate;
      c.shift_low = shift.low;
      c.shift_high = shift.high;
    }
  } else if (c.estimate == Estimate::Ratio) {
    set_ratio(c, hl_estimate(x, y), std::nullopt, std::nullopt);
  } else {
    c.shift = hl_estimate(x, y);
  }
  if (c.ratio && !std::isfinite(*c.ratio)) {
    throw Error("the samples are too far apart to compare as a ratio (it overflows): rescale the metric");
  }

  warn_sample_size(c, "reference", c.n_reference);
  warn_sample_size(c, "candidate", c.n_candidate);
  warn_noise(c, "reference", ref, c.reference_median, options);
  warn_noise(c, "candidate", cand, c.candidate_median, options);
  c.outcome = decide(c, options);
  return c;
}

} // namespace ej::measure
