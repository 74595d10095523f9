#include "measure/extract.h"
#include "measure/self_report.h"

#include <catch2/catch.hpp>

using namespace ej::measure;

TEST_CASE("a time the benchmark printed that is longer than its repeat's wall time is impossible")
{
  ValueList values;
  values.add("", 90, "ms");
  values.add("", 900, "ms");
  const auto why = impossible_time("time_ms", values, 0.5);
  REQUIRE(why);
  CHECK(*why == "time_ms = 900 ms, longer than the 0.5 s the repeat took");
}

TEST_CASE("times within the repeat's wall time, in any time unit, are possible")
{
  ValueList values;
  values.add("", 400, "ms");
  values.add("n=2", 450000, "us");
  values.add("", 0.49, "s");
  CHECK_FALSE(impossible_time("t", values, 0.5));
}

TEST_CASE("values that are not times, and skipped cases, are not held against the wall time")
{
  ValueList values;
  values.add("", 5000, "tok/s");
  values.add("", 7, "");
  ExtractedValue skipped;
  skipped.key = "big";
  skipped.value = 1e9;
  skipped.unit = "s";
  skipped.skipped = true;
  values.add(skipped);
  CHECK_FALSE(impossible_time("x", values, 0.01));
}

TEST_CASE("a row of a table printed longer than the repeat is named by its key")
{
  ValueList values;
  values.add("size=64", 2, "s");
  const auto why = impossible_time("lat", values, 1.25);
  REQUIRE(why);
  CHECK(*why == "lat [size=64] = 2 s, longer than the 1.25 s the repeat took");
}

// The slack is 1 ms + 5% of the wall time (measure/self_report.h): rounding in the printing, never a
// made-up time, goes past the wall time by so little.
TEST_CASE("a printed time past the wall time by no more than timer rounding is still possible")
{
  ValueList whole_ms;
  whole_ms.add("", 1, "ms"); // whole milliseconds, from a repeat of 0.4 ms
  CHECK_FALSE(impossible_time("t", whole_ms, 0.0004));
  ValueList two_digits;
  two_digits.add("", 0.52, "s"); // two significant digits of a repeat of 0.5 s
  CHECK_FALSE(impossible_time("t", two_digits, 0.5));
  ValueList beyond;
  beyond.add("", 0.527, "s"); // past 0.5 s + 5% + 1 ms = 0.526 s
  REQUIRE(impossible_time("t", beyond, 0.5));
  CHECK(*impossible_time("t", beyond, 0.5) == "t = 0.527 s, longer than the 0.5 s the repeat took");
}

TEST_CASE("a value without a unit is a time when its metric's name spells one")
{
  ValueList values;
  values.add("", 28.5, "");
  const auto why = impossible_time("time_ms", values, 0.002);
  REQUIRE(why);
  CHECK(*why == "time_ms = 28.5 ms, longer than the 0.002 s the repeat took");
  CHECK_FALSE(impossible_time("score", values, 0.002)); // a name that spells no unit: not a time
}

TEST_CASE("a count a reader says has no unit is not read as a time, whatever its metric is called")
{
  // perf stat's counters (cycles, instructions) come with no unit of their own; a metric named
  // cpu_ms gives its name's unit only to values that came without one.
  ValueList values;
  ExtractedValue cycles;
  cycles.key = "cycles";
  cycles.value = 3e9;
  cycles.own_unit = true;
  values.add(cycles);
  CHECK_FALSE(impossible_time("cpu_ms", values, 0.5));
  values.add("", 900, "");
  CHECK(impossible_time("cpu_ms", values, 0.5)); // a bare value still takes the name's ms
}
