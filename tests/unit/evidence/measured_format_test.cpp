#include "evidence/measured_format.h"

#include <catch2/catch.hpp>

using ej::evidence::MeasuredFormat;

TEST_CASE("a time is written in the unit that reads best, with four significant digits")
{
  const MeasuredFormat seconds(0.0991295, "s");
  CHECK(seconds.unit() == "ms");
  CHECK(seconds(0.0991295) == "99.13 ms");
  CHECK(seconds(0.0907593) == "90.76 ms");
  CHECK(seconds(0.00031) == "0.31 ms"); // σ with the mean's decimals
  CHECK(MeasuredFormat(28.54321, "ms")(28.54321) == "28.54 ms");
  CHECK(MeasuredFormat(0.5, "ms")(0.5) == "500.0 us");
  CHECK(MeasuredFormat(90.5, "s")(90.5) == "90.50 s");
  CHECK(MeasuredFormat(4000, "s")(4000) == "4000 s");
  CHECK(MeasuredFormat(0.0004, "us")(0.0004) == "0.4000 ns");
}

TEST_CASE("values that are not times keep their unit and get four significant digits")
{
  CHECK(MeasuredFormat(89.5, "tok/s")(89.5) == "89.50 tok/s");
  CHECK(MeasuredFormat(123456.7, "B")(123456.7) == "123457 B");
  CHECK(MeasuredFormat(0.00123456, "")(0.00123456) == "0.001235");
  CHECK(MeasuredFormat(0.00123456, "").number(0.00123456) == "0.001235");
  CHECK(MeasuredFormat(0, "ms")(0) == "0 ms");
  CHECK(MeasuredFormat(5, "ms")(-0.0001) == "0.000 ms");
}
