#include "measure/hodges_lehmann.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using namespace ej::measure;

namespace {

std::vector<double> ascending(std::vector<double> values)
{
  std::sort(values.begin(), values.end());
  return values;
}

// The naive oracle: form and sort every difference.
std::vector<double> all_differences(const std::vector<double>& x, const std::vector<double>& y)
{
  std::vector<double> d;
  for (double xi : x) {
    for (double yj : y) {
      d.push_back(xi - yj);
    }
  }
  std::sort(d.begin(), d.end());
  return d;
}

} // namespace

TEST_CASE("Every k-th pairwise difference equals the naive sorted list's")
{
  std::mt19937_64 random(7);
  std::normal_distribution<double> normal(100.0, 5.0);
  std::uniform_int_distribution<int> coarse(0, 6); // many ties
  for (int round = 0; round < 4; ++round) {
    std::vector<double> x;
    std::vector<double> y;
    for (int i = 0; i < 37 + round; ++i) {
      x.push_back(round % 2 == 0 ? normal(random) : coarse(random));
    }
    for (int i = 0; i < 23; ++i) {
      y.push_back(round % 2 == 0 ? normal(random) - 3.0 : coarse(random));
    }
    x = ascending(x);
    y = ascending(y);
    const auto expected = all_differences(x, y);
    for (std::size_t k = 1; k <= expected.size(); ++k) {
      REQUIRE(kth_pairwise_difference(x, y, k) == expected[k - 1]);
    }
  }
}

TEST_CASE("Pairwise differences of negative, zero and huge values are found exactly")
{
  const auto x = ascending({-1e300, -0.0, 0.0, 1e-300, 1e300});
  const auto y = ascending({-1e-300, 0.0, 2.5});
  const auto expected = all_differences(x, y);
  for (std::size_t k = 1; k <= expected.size(); ++k) {
    REQUIRE(kth_pairwise_difference(x, y, k) == expected[k - 1]);
  }
}

TEST_CASE("The Hodges-Lehmann shift and its interval match NumPy on tie-free samples")
{
  // NumPy 1.24.2: d = np.sort(np.subtract.outer(candidate, reference).ravel()); np.median(d) and
  // d[k - 1], d[N - k] with k = 30 (the exact rank for 12 and 10 samples at 95%).
  const auto reference =
      ascending({10.0457, 9.844, 10.1126, 10.1411, 9.7073, 9.8047, 10.0192, 9.9526, 9.9975, 9.872});
  const auto candidate = ascending(
      {9.8319, 9.8167, 9.7099, 9.8691, 9.7701, 9.5711, 9.7553, 9.5562, 9.8318, 9.6925, 9.6723, 9.5979});
  const auto shift = hodges_lehmann(candidate, reference, 30);
  CHECK(shift.estimate == Approx(-0.23790000000000067).epsilon(1e-13));
  CHECK(shift.low == -0.34689999999999976);
  CHECK(shift.high == -0.11219999999999963);
}

TEST_CASE("With an odd number of pairs the shift is the middle difference")
{
  // Differences of {5} - {2, 4, 6}: -1, 1, 3. Median 1; rank 1 gives the whole range.
  const auto shift = hodges_lehmann(std::vector<double>{5.0}, std::vector<double>{2.0, 4.0, 6.0}, 1);
  CHECK(shift.estimate == 1.0);
  CHECK(shift.low == -1.0);
  CHECK(shift.high == 3.0);
}

TEST_CASE("Identical samples have a zero shift and a zero-width interval")
{
  const std::vector<double> same(6, 4.0);
  const auto shift = hodges_lehmann(same, same, 18);
  CHECK(shift.estimate == 0.0);
  CHECK(shift.low == 0.0);
  CHECK(shift.high == 0.0);
}

TEST_CASE("A shift from few pairs, read off the differences themselves, is the one the bisection finds")
{
  // Up to 4,096 pairs hodges_lehmann sorts the differences; kth_pairwise_difference always bisects.
  std::mt19937_64 random(11);
  std::uniform_int_distribution<int> size(1, 64);
  std::uniform_int_distribution<int> coarse(-3, 3); // ties, zeros and differences of -0
  std::normal_distribution<double> fine(0.0, 2.0);
  for (int round = 0; round < 300; ++round) {
    std::vector<double> x(static_cast<std::size_t>(size(random)));
    std::vector<double> y(static_cast<std::size_t>(size(random)));
    for (auto* sample : {&x, &y}) {
      for (double& v : *sample) {
        v = round % 2 == 0 ? static_cast<double>(coarse(random)) * 0.5 : fine(random);
      }
    }
    x = ascending(x);
    y = ascending(y);
    const std::size_t pairs = x.size() * y.size();
    const std::size_t rank = std::max<std::size_t>(1, pairs / 5);
    double estimate = kth_pairwise_difference(x, y, (pairs + 1) / 2);
    if (pairs % 2 == 0) {
      estimate += (kth_pairwise_difference(x, y, pairs / 2 + 1) - estimate) / 2;
    }
    const auto shift = hodges_lehmann(x, y, rank);
    INFO("round " << round << ": " << x.size() << " x " << y.size());
    CHECK(shift.estimate == estimate);
    CHECK(shift.low == kth_pairwise_difference(x, y, rank));
    CHECK(shift.high == kth_pairwise_difference(x, y, pairs + 1 - rank));
    CHECK_FALSE((shift.low == 0 && std::signbit(shift.low))); // never -0, as the bisection gives
  }
}

TEST_CASE("A shift from many pairs is found by the bisection, the same as the naive sorted list's")
{
  std::mt19937_64 random(13);
  std::normal_distribution<double> normal(100.0, 5.0);
  std::vector<double> x(90);
  std::vector<double> y(70); // 6,300 pairs
  for (auto* sample : {&x, &y}) {
    for (double& v : *sample) {
      v = std::round(normal(random) * 10) / 10;
    }
  }
  x = ascending(x);
  y = ascending(y);
  const auto d = all_differences(x, y);
  const auto shift = hodges_lehmann(x, y, 100);
  CHECK(shift.estimate == d[d.size() / 2 - 1] + (d[d.size() / 2] - d[d.size() / 2 - 1]) / 2);
  CHECK(shift.low == d[99]);
  CHECK(shift.high == d[d.size() - 100]);
}
