#include "measure/streamed_summary.h"

#include "util/error.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using ej::measure::Direction;
using ej::measure::SampleOrder;
using ej::measure::summarize;
using ej::measure::summarize_streamed;
using ej::measure::Summary;

namespace {

// The passes a journal gives, from values in memory.
ej::measure::SampleVisitor visitor_of(const std::vector<double>& values)
{
  return [&values](SampleOrder order, double from, const std::function<void(double)>& each) {
    std::vector<double> ordered = values;
    if (order == SampleOrder::Ascending) {
      std::sort(ordered.begin(), ordered.end());
    } else if (order == SampleOrder::ByDistance) {
      for (auto& x : ordered) {
        x = std::abs(x - from);
      }
      std::sort(ordered.begin(), ordered.end());
    }
    for (double x : ordered) {
      each(x);
    }
  };
}

void require_identical(const Summary& a, const Summary& b)
{
  CHECK(a.n == b.n);
  CHECK(a.median == b.median);
  CHECK(a.mean == b.mean);
  CHECK(a.stddev == b.stddev);
  CHECK(a.cv == b.cv);
  CHECK(a.min == b.min);
  CHECK(a.max == b.max);
  CHECK(a.q1 == b.q1);
  CHECK(a.q3 == b.q3);
  CHECK(a.mad == b.mad);
  CHECK(a.outlier_indices == b.outlier_indices);
  CHECK(a.slow_first == b.slow_first);
}

} // namespace

TEST_CASE("A summary read in passes is identical to the summary of the values held")
{
  std::mt19937_64 random(26);
  std::normal_distribution<double> noise(12.0, 0.4);
  for (const std::size_t n : {1, 2, 3, 4, 5, 6, 7, 10, 101, 1000, 4097}) {
    std::vector<double> values;
    for (std::size_t i = 0; i < n; ++i) {
      values.push_back(noise(random));
    }
    if (n > 5) {
      values[0] = 40.0;     // a slow first repeat
      values[n / 2] = 90.0; // and an outlier
    }
    for (const auto direction : {Direction::LowerIsBetter, Direction::HigherIsBetter}) {
      INFO("n = " << n);
      require_identical(summarize_streamed(visitor_of(values), direction), summarize(values, direction));
    }
  }
}

TEST_CASE("A summary read in passes agrees when most values are equal and MAD is 0")
{
  const std::vector<double> values{3, 3, 3, 3, 3, 3, 9, 3, 2.5, 3, 3};
  const auto streamed = summarize_streamed(visitor_of(values));
  CHECK(streamed.mad == 0);
  require_identical(streamed, summarize(values));
  const std::vector<double> slow_first{7, 1, 1, 1, 1, 1, 1.5};
  require_identical(summarize_streamed(visitor_of(slow_first)), summarize(slow_first));
  CHECK(summarize_streamed(visitor_of(slow_first)).slow_first);
}

TEST_CASE("A summary read in passes refuses no values and a value that is not finite, as summarize does")
{
  const std::vector<double> none;
  CHECK_THROWS_WITH(summarize_streamed(visitor_of(none)), Catch::Contains("no samples for the metric"));
  const std::vector<double> infinite{1.0, std::numeric_limits<double>::infinity(), 2.0};
  CHECK_THROWS_WITH(summarize_streamed(visitor_of(infinite)),
                    Catch::Contains("sample 2 of the metric is inf, not a finite number"));
  CHECK_THROWS_WITH(summarize(infinite),
                    Catch::Contains("sample 2 of the metric is inf, not a finite number"));
}
