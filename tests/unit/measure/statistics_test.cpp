#include "measure/statistics.h"

#include "util/error.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

using ej::measure::Direction;
using ej::measure::summarize;

// Reference values below were computed with NumPy 1.24.2 (Debian bookworm): np.median, np.mean,
// np.std(ddof=1), np.percentile (default "linear", type 7), np.median(np.abs(x - median)).

TEST_CASE("A summary of ten timings matches NumPy and flags the one far-off sample")
{
  const std::vector<double> samples{12.1, 11.8, 12.4, 12.0, 11.9, 12.2, 15.9, 12.0, 12.3, 11.7};
  const auto s = summarize(samples);
  CHECK(s.n == 10);
  CHECK(s.median == Approx(12.05).epsilon(1e-14));
  CHECK(s.mean == Approx(12.43).epsilon(1e-14));
  CHECK(s.stddev == Approx(1.2383232390795404).epsilon(1e-12));
  REQUIRE(s.cv.has_value());
  CHECK(*s.cv == Approx(0.09962375213833793).epsilon(1e-12));
  CHECK(s.min == 11.7);
  CHECK(s.max == 15.9);
  CHECK(s.q1 == Approx(11.925).epsilon(1e-14));
  CHECK(s.q3 == Approx(12.275).epsilon(1e-14));
  CHECK(s.mad == Approx(0.2).epsilon(1e-12));
  // 15.9 has modified z-score 12.98 (> 10); the next largest is 1.18.
  CHECK(s.outlier_indices == std::vector<std::size_t>{6});
  CHECK_FALSE(s.slow_first);
}

TEST_CASE("Quartiles interpolate linearly between order statistics (type 7)")
{
  const std::vector<double> samples{4, 1, 3, 2};
  const auto s = summarize(samples);
  CHECK(s.median == 2.5);
  CHECK(s.q1 == 1.75); // NumPy: np.percentile([1,2,3,4], 25) == 1.75
  CHECK(s.q3 == 3.25);
  CHECK(s.stddev == Approx(1.2909944487358056).epsilon(1e-14));
  CHECK(s.mad == 1.0);
  CHECK(s.outlier_indices.empty());
}

TEST_CASE("Tied samples give NumPy's quartiles and median")
{
  const std::vector<double> samples{7, 7, 8, 9, 9, 9, 10};
  const auto s = summarize(samples);
  CHECK(s.median == 9.0);
  CHECK(s.q1 == 7.5);
  CHECK(s.q3 == 9.0);
  CHECK(s.mean == Approx(8.428571428571429).epsilon(1e-14));
  CHECK(s.stddev == Approx(1.1338934190276817).epsilon(1e-13));
  CHECK(s.mad == 1.0);
}

TEST_CASE("A single sample has zero spread and no outliers")
{
  const std::vector<double> samples{5.0};
  const auto s = summarize(samples);
  CHECK(s.n == 1);
  CHECK(s.median == 5.0);
  CHECK(s.mean == 5.0);
  CHECK(s.stddev == 0.0);
  REQUIRE(s.cv.has_value());
  CHECK(*s.cv == 0.0);
  CHECK(s.q1 == 5.0);
  CHECK(s.q3 == 5.0);
  CHECK(s.outlier_indices.empty());
  CHECK_FALSE(s.slow_first);
}

TEST_CASE("Identical samples have zero variance and no outliers")
{
  const std::vector<double> samples{3, 3, 3, 3};
  const auto s = summarize(samples);
  CHECK(s.stddev == 0.0);
  CHECK(s.cv == std::optional<double>(0.0));
  CHECK(s.mad == 0.0);
  CHECK(s.outlier_indices.empty());
  CHECK_FALSE(s.slow_first);
}

TEST_CASE("The coefficient of variation is empty when the mean is zero")
{
  const std::vector<double> samples{-2, -1, 0, 1, 2};
  const auto s = summarize(samples);
  CHECK(s.mean == 0.0);
  CHECK(s.stddev == Approx(1.5811388300841898).epsilon(1e-14));
  CHECK_FALSE(s.cv.has_value());
  CHECK(s.q1 == -1.0);
  CHECK(s.q3 == 1.0);
}

TEST_CASE("With zero MAD the mean absolute deviation decides what is an outlier")
{
  // [5,5,5,5,6]: mean |x - 5| = 0.2, scaled 0.2507; z(6) = 3.99, not an outlier.
  const auto few = summarize(std::vector<double>{5, 5, 5, 5, 6});
  CHECK(few.mad == 0.0);
  CHECK(few.outlier_indices.empty());
  // 99 fives and one 6: mean |x - 5| = 0.01, scaled 0.01253; z(6) = 79.8, an outlier.
  std::vector<double> many(99, 5.0);
  many.push_back(6.0);
  CHECK(summarize(many).outlier_indices == std::vector<std::size_t>{99});
}

TEST_CASE("A first repeat that is clearly the worst is flagged as slow")
{
  // Median 10.05; the first is 0.45 worse, the next worst (10.2) 0.15: three times further.
  // Its modified z-score is only 3.04, so it is not an outlier.
  const std::vector<double> samples{10.5, 10.0, 10.1, 9.9, 10.0, 10.2};
  const auto s = summarize(samples);
  CHECK(s.median == Approx(10.05).epsilon(1e-14));
  CHECK(s.q3 == Approx(10.175).epsilon(1e-14));
  CHECK(s.outlier_indices.empty());
  CHECK(s.slow_first);
  // For a throughput the same first sample is the best one, not a slow one.
  CHECK_FALSE(summarize(samples, Direction::HigherIsBetter).slow_first);
}

TEST_CASE("A low first throughput sample is a slow first repeat for higher-is-better metrics")
{
  const std::vector<double> samples{80.0, 92.1, 92.4, 91.9, 92.0, 92.2};
  CHECK(summarize(samples, Direction::HigherIsBetter).slow_first);
  CHECK_FALSE(summarize(samples, Direction::LowerIsBetter).slow_first);
}

TEST_CASE("A first repeat that is only slightly the worst is not flagged")
{
  // Median 10.05; the first is 0.25 worse, the next worst 0.15: less than twice as far.
  const std::vector<double> samples{10.3, 10.0, 10.1, 9.9, 10.0, 10.2};
  CHECK_FALSE(summarize(samples).slow_first);
}

TEST_CASE("A first repeat that is an outlier on the worse side is slow even among few samples")
{
  const std::vector<double> samples{30.0, 10.0, 10.1, 9.9};
  const auto s = summarize(samples);
  CHECK(s.outlier_indices == std::vector<std::size_t>{0});
  CHECK(s.slow_first);
}

TEST_CASE("Summarizing nothing is an error")
{
  CHECK_THROWS_AS(summarize(std::vector<double>{}), ej::Error);
}

TEST_CASE("A NaN or infinite sample is rejected, naming which one")
{
  const std::vector<double> with_nan{1.0, 2.0, std::numeric_limits<double>::quiet_NaN()};
  CHECK_THROWS_WITH(summarize(with_nan), Catch::Contains("sample 3") && Catch::Contains("nan"));
  const std::vector<double> with_inf{std::numeric_limits<double>::infinity(), 1.0};
  CHECK_THROWS_WITH(summarize(with_inf), Catch::Contains("sample 1") && Catch::Contains("inf"));
}

TEST_CASE("The mean of large equal values does not overflow")
{
  const std::vector<double> samples(4, 1e308);
  const auto s = summarize(samples);
  CHECK(s.mean == 1e308);
  CHECK(s.stddev == 0.0);
}

TEST_CASE("median gives summarize's median, and refuses what summarize refuses")
{
  const std::vector<std::vector<double>> cases{
      {3.0}, {2.0, 1.0}, {5.0, 1.0, 4.0, 2.0, 3.0}, {0.1, 0.7, 0.2, 0.2, 1e-9, 9.5}, {-4.0, 4.0, -0.0, 0.0}};
  for (const auto& values : cases) {
    CHECK(ej::measure::median(values) == ej::measure::summarize(values).median);
  }
  CHECK_THROWS_AS(ej::measure::median(std::vector<double>{}), ej::Error);
  CHECK_THROWS_AS(ej::measure::median(std::vector<double>{1.0, std::numeric_limits<double>::quiet_NaN()}),
                  ej::Error);
}
