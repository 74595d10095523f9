// Times measure::compare() on two 10,000-sample sets (the budget is 50 ms per comparison) and
// the exact U distribution at its largest size. Prints figures; asserts nothing.
#include "evidence/wording.h"
#include "measure/comparison.h"
#include "measure/mann_whitney.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <vector>

namespace {

template <typename F> double median_ms(int repetitions, F&& work)
{
  std::vector<double> times;
  for (int i = 0; i < repetitions; ++i) {
    const auto start = std::chrono::steady_clock::now();
    work();
    const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
    times.push_back(elapsed.count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

std::vector<double> normal_samples(std::mt19937_64& random, double mean, double stddev, std::size_t n)
{
  std::normal_distribution<double> normal(mean, stddev);
  std::vector<double> samples(n);
  for (auto& x : samples) {
    x = normal(random);
  }
  return samples;
}

} // namespace

int main()
{
  using namespace ej::measure;
  std::mt19937_64 random(2024);
  const auto reference = normal_samples(random, 12.0, 0.3, 10000);
  const auto candidate = normal_samples(random, 11.9, 0.3, 10000);
  CompareOptions options;
  options.direction = Direction::LowerIsBetter;

  Comparison result;
  const double compare_ms = median_ms(7, [&] { result = compare(reference, candidate, options); });
  fmt::print("compare 10000 x 10000 samples: median {:.2f} ms over 7 runs (budget 50 ms)\n", compare_ms);
  fmt::print("  verdict: {}\n", ej::evidence::comparison_text(result, "ms", ej::evidence::Quantity::Time));

  // Quantised timings (many ties) take the same path as the normal approximation.
  auto rounded_reference = reference;
  auto rounded_candidate = candidate;
  for (auto& x : rounded_reference) {
    x = std::round(x * 10) / 10;
  }
  for (auto& x : rounded_candidate) {
    x = std::round(x * 10) / 10;
  }
  const double tied_ms =
      median_ms(7, [&] { result = compare(rounded_reference, rounded_candidate, options); });
  fmt::print("compare 10000 x 10000 tied samples: median {:.2f} ms over 7 runs\n", tied_ms);

  const double exact_ms = median_ms(7, [&] { (void)exact_u_cdf(50, 50); });
  fmt::print("exact U distribution 50 x 50: median {:.2f} ms over 7 runs\n", exact_ms);
  const auto small_reference = normal_samples(random, 12.0, 0.3, 50);
  const auto small_candidate = normal_samples(random, 11.9, 0.3, 50);
  const double small_ms = median_ms(7, [&] { result = compare(small_reference, small_candidate, options); });
  fmt::print("compare 50 x 50 samples (exact): median {:.2f} ms over 7 runs, exact={}\n", small_ms,
             result.exact);
  return 0;
}
