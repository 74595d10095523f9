#include "measure/median_interval.h"

#include <catch2/catch.hpp>

#include <vector>

using ej::measure::median_interval;

TEST_CASE("the interval of a median is the pair of order statistics the sign test inverts, with its coverage")
{
  // R: DescTools::MedianCI(1:10, method = "exact") gives 2 and 9, conf.level 0.9785.
  const std::vector<double> ten = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  const auto interval = median_interval(ten);
  CHECK(interval.low == 2);
  CHECK(interval.high == 9);
  CHECK(interval.coverage == Approx(1 - 2 * 11.0 / 1024));

  // Six values are the fewest whose extremes cover 95%: 1 - 2 / 64.
  const std::vector<double> six = {1, 2, 3, 4, 5, 6};
  CHECK(median_interval(six).low == 1);
  CHECK(median_interval(six).high == 6);
  CHECK(median_interval(six).coverage == Approx(0.96875));
}

TEST_CASE("below six values the interval of a median is the range, with the coverage it has")
{
  const std::vector<double> three = {4, 5, 9};
  const auto interval = median_interval(three);
  CHECK(interval.low == 4);
  CHECK(interval.high == 9);
  CHECK(interval.coverage == Approx(0.75));
  const std::vector<double> one = {7};
  CHECK(median_interval(one).low == 7);
  CHECK(median_interval(one).coverage == 0);
}
