#include "measure/paired.h"

#include "measure/signed_rank.h"
#include "measure/statistics.h"
#include "util/error.h"

#include <algorithm>
#include <cmath>

namespace ej::measure {

PairedValues paired_values(std::span<const double> candidate, std::span<const double> reference)
{
  if (candidate.size() != reference.size()) {
    throw Error("cannot pair {} candidate values with {} reference values: an interleaved comparison "
                "needs one of each per round",
                candidate.size(), reference.size());
  }
  require_finite_samples(candidate, "candidate");
  require_finite_samples(reference, "reference");
  const auto positive = [](std::span<const double> side) {
    return std::all_of(side.begin(), side.end(), [](double v) { return v > 0; });
  };
  PairedValues paired;
  paired.scale = positive(candidate) && positive(reference) ? PairedScale::LogRatio : PairedScale::Difference;
  paired.values.resize(candidate.size());
  for (std::size_t i = 0; i < candidate.size(); ++i) {
    paired.values[i] = paired.scale == PairedScale::LogRatio ? std::log(candidate[i] / reference[i])
                                                             : candidate[i] - reference[i];
  }
  return paired;
}

Location paired_interval(std::span<const double> sorted, double confidence)
{
  return hodges_lehmann_location(sorted, signed_rank_interval_rank(sorted, confidence));
}

PairedComparison compare_paired(std::span<const double> values, double confidence)
{
  require_finite_samples(values, "per-round values");
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  const Location location = paired_interval(sorted, confidence);
  const SignedRank test = signed_rank_test(values);
  PairedComparison c;
  c.n = values.size();
  c.estimate = location.estimate;
  c.low = location.low;
  c.high = location.high;
  c.confidence = confidence;
  c.interval_exact = signed_rank_interval_exact(sorted);
  c.r_plus = test.r_plus;
  c.p_value = test.p_value;
  c.exact = test.exact;
  return c;
}

} // namespace ej::measure
