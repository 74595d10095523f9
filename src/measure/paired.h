#pragma once

// Paired statistics of an interleaved comparison: each round measured the candidate and the
// reference one after the other, so the machine's drift between rounds cancels in the round's own
// comparison, and the verdict rests on the per-round values.

#include "measure/hodges_lehmann.h"

#include <cstddef>
#include <span>
#include <vector>

namespace ej::measure {

// LogRatio when every value of both sides is positive (times, throughputs): the per-round value is
// log(candidate / reference), so a change reads as a ratio that can never pass -100%. Otherwise
// (a metric that can be zero or negative) the difference candidate - reference in the metric's
// unit. Decided once for the whole series, never round by round: mixed scales cannot be ranked.
enum class PairedScale { LogRatio, Difference };

struct PairedValues {
  PairedScale scale = PairedScale::LogRatio;
  std::vector<double> values; // one per round, in round order
};

// candidate[i] and reference[i] were measured in round i. Throws ej::Error when the sides differ in
// length, are empty or hold a non-finite value.
PairedValues paired_values(std::span<const double> candidate, std::span<const double> reference);

// The verdict's figures on the per-round values: the Hodges-Lehmann estimate of their center (the
// median of the Walsh averages), its signed-rank interval and the signed-rank test against 0.
struct PairedComparison {
  std::size_t n = 0;
  double estimate = 0;
  double low = 0; // the interval's bounds: -inf and +inf when `confidence` cannot be reached
  double high = 0;
  double confidence = 0.95;
  bool interval_exact = false; // bounds from the exact signed-rank distribution
  double r_plus = 0;
  double p_value = 1; // two-sided signed-rank test (signed_rank.h)
  bool exact = false;
};

// The estimate and its interval alone (what a stopping rule asks after every round): `sorted`
// ascending and non-empty, 0 < confidence < 1.
Location paired_interval(std::span<const double> sorted, double confidence);

// Values in round order, at least one; throws ej::Error on non-finite values.
PairedComparison compare_paired(std::span<const double> values, double confidence = 0.95);

} // namespace ej::measure
