#include "measure/comparison.h"

#include "measure/hodges_lehmann.h"
#include "measure/mann_whitney.h"
#include "util/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
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
}

std::vector<double> sorted_copy(std::span<const double> samples)
{
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

// A raw difference candidate - reference, as a percentage of the reference, positive = better.
double better_pct(double difference, double reference, Direction direction)
{
  const double signed_difference = direction == Direction::LowerIsBetter ? -difference : difference;
  return signed_difference / std::abs(reference) * 100;
}

// Ratio and percentages relative to the reference median; all left empty when that median is 0 or
// so close to 0 that a percentage overflows.
void set_percentages(Comparison& c, Direction direction)
{
  const double ref_median = c.reference_median;
  if (ref_median == 0) {
    return;
  }
  const double ratio = c.candidate_median / ref_median;
  const double change = better_pct(c.candidate_median - ref_median, ref_median, direction);
  const double shift = better_pct(c.shift, ref_median, direction);
  const double from_low = better_pct(c.shift_low, ref_median, direction);
  const double from_high = better_pct(c.shift_high, ref_median, direction);
  for (double value : {ratio, change, shift, from_low, from_high}) {
    if (!std::isfinite(value)) {
      return;
    }
  }
  c.ratio = ratio;
  c.change_pct = change;
  c.shift_pct = shift;
  c.change_low_pct = std::min(from_low, from_high);
  c.change_high_pct = std::max(from_low, from_high);
}

std::string sample_size_warning(std::string_view side, std::size_t n)
{
  if (n < k_min_samples) {
    return fmt::format("the {} has {} sample{}: at least {} per side are needed to decide, "
                       "so the outcome is inconclusive; repeat the benchmark more",
                       side, n, n == 1 ? "" : "s", k_min_samples);
  }
  return fmt::format("the {} has only {} samples: the test can miss real changes; "
                     "{} or more per side are recommended",
                     side, n, k_few_samples);
}

void warn_sample_size(Comparison& c, std::string_view side, std::size_t n)
{
  if (n >= k_few_samples) {
    return;
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

Outcome decide(const Comparison& c, const CompareOptions& options)
{
  if (c.n_reference < k_min_samples || c.n_candidate < k_min_samples) {
    return Outcome::Inconclusive;
  }
  const auto better = [&](double raw) { return options.direction == Direction::LowerIsBetter ? -raw : raw; };
  // Without a percentage (reference median 0) any nonzero effect is beyond the threshold.
  const double threshold = c.change_pct ? options.min_effect_pct : 0.0;
  const double effect = c.change_pct ? *c.change_pct : better(c.candidate_median - c.reference_median);
  const double shift_better = better(c.shift);
  if (c.p_value < options.alpha) {
    if (effect > threshold && shift_better > 0) {
      return Outcome::Improved;
    }
    if (effect < -threshold && shift_better < 0) {
      return Outcome::Regressed;
    }
  }
  const bool inside = c.change_low_pct ? (*c.change_low_pct >= -threshold && *c.change_high_pct <= threshold)
                                       : (c.shift_low == 0 && c.shift_high == 0);
  return inside ? Outcome::NoChange : Outcome::Inconclusive;
}

// Fixed one-decimal formatting that never prints "-0.0".
std::string one_decimal(double value, bool plus_sign)
{
  std::string text = plus_sign ? fmt::format("{:+.1f}", value) : fmt::format("{:.1f}", value);
  if (text == "-0.0") {
    text = plus_sign ? "+0.0" : "0.0";
  }
  return text;
}

std::string format_p(double p)
{
  return p < 0.001 ? std::string("p<0.001") : fmt::format("p={:.3f}", p);
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

  const MannWhitney test = mann_whitney(cand, ref);
  c.u = test.u;
  c.p_value = test.p_value;
  c.exact = test.exact;

  const std::size_t rank = shift_interval_rank(cand.size(), ref.size(), options.confidence, test);
  const Shift shift = hodges_lehmann(cand, ref, rank);
  c.shift = shift.estimate;
  c.shift_low = shift.low;
  c.shift_high = shift.high;

  set_percentages(c, options.direction);
  warn_sample_size(c, "reference", c.n_reference);
  warn_sample_size(c, "candidate", c.n_candidate);
  if (!c.change_pct) {
    c.warnings.push_back(fmt::format("the reference median is {}, so the change in percent is undefined: "
                                     "the outcome is decided on the raw shift",
                                     c.reference_median == 0 ? "0" : "too close to 0"));
  }
  c.outcome = decide(c, options);
  return c;
}

std::string short_verdict(const Comparison& c)
{
  if (!c.change_pct) {
    return fmt::format("{} (change % undefined: reference median is {}) {}", to_string(c.outcome),
                       c.reference_median == 0 ? "0" : "too close to 0", format_p(c.p_value));
  }
  return fmt::format("{}% {} [{}, {}] {}", one_decimal(*c.change_pct, true), to_string(c.outcome),
                     one_decimal(*c.change_low_pct, false), one_decimal(*c.change_high_pct, false),
                     format_p(c.p_value));
}

} // namespace ej::measure
