// Whether the smallest detectable change that ej calibrate states (measure::detectable_effect, at
// 80% power and 5% two-sided) is detected about 80% of the time. Prints figures; asserts nothing.
//
// Noise is normal on the log scale, sigma 2%. For n = 10, 20 and 50:
// - paired (an interleaved verdict): n per-round values log(candidate / reference) with the true
//   shift set to the stated effect; detected when the signed-rank test's p < 0.05
//   (measure::compare_paired);
// - two samples (a sequential verdict without drift): n values a side, the candidate shifted by the
//   stated effect; detected when the Mann-Whitney test's p < 0.05;
// - the same paired power when sigma is not known but estimated as ej calibrate estimates it: the
//   sample standard deviation of a 20-round A/A session, drawn afresh for each simulated verdict;
//   beside it, with the scaled MAD instead (robust to outliers, but noisier: why ej does not use it).
// Seeds are fixed: the output is the same on every run.
//
// Usage: perf_detectable_effect_bench [SESSIONS] (default 4000 per figure).
#include "measure/mann_whitney.h"
#include "measure/paired.h"
#include "measure/power.h"
#include "perf/seeded_random.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace {

constexpr double k_sigma = 0.02;
constexpr double k_alpha = 0.05;

enum class Sigma { Known, SampleSd, Mad };

double paired_power(std::size_t n, int sessions, Sigma how, ej::perf::SeededRandom& random)
{
  using namespace ej::measure;
  int detected = 0;
  for (int s = 0; s < sessions; ++s) {
    double sigma = k_sigma;
    if (how != Sigma::Known) {
      std::vector<double> aa(20);
      for (auto& v : aa) {
        v = k_sigma * random.normal();
      }
      sigma = how == Sigma::SampleSd ? sample_sigma(aa) : robust_sigma(aa);
    }
    const double shift = detectable_effect(sigma, n, Pairing::Paired);
    std::vector<double> values(n);
    for (auto& v : values) {
      v = shift + k_sigma * random.normal();
    }
    detected += compare_paired(values).p_value < k_alpha ? 1 : 0;
  }
  return static_cast<double>(detected) / sessions;
}

double two_sample_power(std::size_t n, int sessions, ej::perf::SeededRandom& random)
{
  using namespace ej::measure;
  const double shift = detectable_effect(k_sigma, n, Pairing::TwoSample);
  int detected = 0;
  for (int s = 0; s < sessions; ++s) {
    std::vector<double> reference(n);
    std::vector<double> candidate(n);
    for (std::size_t i = 0; i < n; ++i) {
      reference[i] = k_sigma * random.normal();
      candidate[i] = shift + k_sigma * random.normal();
    }
    std::sort(reference.begin(), reference.end());
    std::sort(candidate.begin(), candidate.end());
    detected += mann_whitney(candidate, reference).p_value < k_alpha ? 1 : 0;
  }
  return static_cast<double>(detected) / sessions;
}

} // namespace

int main(int argc, char** argv)
{
  const int sessions = argc > 1 ? std::atoi(argv[1]) : 4000;
  if (sessions < 100) {
    fmt::print(stderr, "usage: perf_detectable_effect_bench [SESSIONS >= 100]\n");
    return 2;
  }
  ej::perf::SeededRandom random(20261205);
  fmt::print("power at the stated smallest detectable change (goal 80%), sigma {:.0f}%, {} sessions each\n",
             k_sigma * 100, sessions);
  for (const std::size_t n : {10, 20, 50}) {
    const double paired = paired_power(n, sessions, Sigma::Known, random);
    const double estimated = paired_power(n, sessions, Sigma::SampleSd, random);
    const double mad = paired_power(n, sessions, Sigma::Mad, random);
    const double two = two_sample_power(n, sessions, random);
    const auto se = [&](double p) { return std::sqrt(p * (1 - p) / sessions) * 100; };
    fmt::print("n = {:2}: paired {:.1f}% ± {:.1f}% (effect {:.2f}%), paired with sigma from a 20-round "
               "calibration {:.1f}% ± {:.1f}% (by MAD {:.1f}%), two samples {:.1f}% ± {:.1f}% (effect {:.2f}%)\n",
               n, paired * 100, se(paired),
               ej::measure::detectable_effect(k_sigma, n, ej::measure::Pairing::Paired) * 100, estimated * 100,
               se(estimated), mad * 100, two * 100, se(two),
               ej::measure::detectable_effect(k_sigma, n, ej::measure::Pairing::TwoSample) * 100);
  }
  return 0;
}
