#include "measure/extract.h"
#include "measure/value_list.h"

#include "util/error.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

using namespace ej::measure;

TEST_CASE("a value list keeps values in runs of one label, in output order")
{
  ValueList list;
  list.add("a", 1, "ms");
  list.add("a", 2, "ms");
  list.add("b", 3, "ms");
  list.add("a", 4, "ms");
  CHECK(list.size() == 4);
  CHECK(list.labels().size() == 2); // "a" is one label, used by two runs
  const auto runs = list.runs();
  REQUIRE(runs.size() == 3);
  CHECK(runs[0].label.key == "a");
  CHECK(runs[0].values.size() == 2);
  CHECK(runs[1].label.key == "b");
  CHECK(runs[2].values[0] == 4);
  const auto values = list.expand();
  REQUIRE(values.size() == 4);
  CHECK(values[2].key == "b");
  CHECK(values[3].value == 4);
}

TEST_CASE("a value list of hundreds of thousands keeps every value in order across its blocks")
{
  // Blocks of 64, 128, ... 65,536 values: 300,000 values cross a dozen block boundaries, inside
  // runs of one label and at label changes.
  ValueList list;
  const auto key_of = [](int i) { return i < 100'000 || i >= 200'000 ? "a" : (i % 3 == 0 ? "b" : "c"); };
  for (int i = 0; i < 300'000; ++i) {
    list.add(key_of(i), i, "ms");
  }
  CHECK(list.size() == 300'000);
  int next = 0;
  for (const auto& run : list.runs()) {
    for (const double value : run.values) {
      REQUIRE(value == next);
      REQUIRE(run.label.key == key_of(next));
      ++next;
    }
  }
  CHECK(next == 300'000);
  next = 0;
  list.for_each([&](std::uint32_t label, double& value) {
    REQUIRE(value == next);
    REQUIRE(list.labels()[label].key == key_of(next));
    value = -value; // for_each may rewrite what it visits
    ++next;
  });
  CHECK(next == 300'000);
  CHECK(list.expand()[299'999].value == -299'999);
}

TEST_CASE("a value list moved from is empty and takes values again")
{
  ValueList list;
  for (int i = 0; i < 100; ++i) {
    list.add("a", i, "ms");
  }
  ValueList taken(std::move(list));
  CHECK(taken.size() == 100);
  CHECK(list.size() == 0); // NOLINT(bugprone-use-after-move): what a moved-from list holds
  CHECK(list.empty());
  list.add("b", 7, "ms");
  REQUIRE(list.runs().size() == 1);
  CHECK(list.runs()[0].values[0] == 7);
  CHECK(list.runs()[0].label.key == "b");
}

TEST_CASE("a value list with a key per value finds each label again")
{
  ValueList list;
  for (int i = 0; i < 1000; ++i) {
    list.add(std::to_string(i % 100), i, "");
  }
  CHECK(list.labels().size() == 100);
  CHECK(list.size() == 1000);
  CHECK(list.expand()[999].key == "99");
}

TEST_CASE("past its limit a value list counts values instead of keeping them")
{
  ValueList list(3);
  for (int i = 0; i < 5; ++i) {
    list.add("", i, "");
  }
  CHECK(list.size() == 3);
  CHECK(list.dropped() == 2);
  CHECK_FALSE(list.empty());
}

TEST_CASE("a list's units are settled as extract settles the same values")
{
  const auto spec = parse_metric_spec("t=regex:t=([0-9.]+)");
  std::vector<ExtractedValue> values;
  for (const auto& [value, unit] :
       std::vector<std::pair<double, std::string>>{{2, "ms"}, {1, "s"}, {500, "us"}}) {
    ExtractedValue v;
    v.value = value;
    v.unit = unit;
    values.push_back(v);
  }
  auto list = ValueList::of(values);
  settle_units(spec, values);
  settle_units(spec, list);
  const auto settled = list.expand();
  REQUIRE(settled.size() == values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    CHECK(settled[i].value == Approx(values[i].value));
    CHECK(settled[i].unit == values[i].unit);
  }
  CHECK(settled[1].value == Approx(1000)); // 1 s in the first value's ms
}

TEST_CASE("a line-based metric that prints more values than EJ_MAX_SAMPLES says so")
{
  ::setenv("EJ_MAX_SAMPLES", "5", 1);
  const auto spec = parse_metric_spec("v=kv:v");
  std::string out;
  for (int i = 0; i < 8; ++i) {
    out += "v=" + std::to_string(i) + "\n";
  }
  CHECK_THROWS_WITH(extract_list(spec, ExtractInput{out, "", nullptr}),
                    Catch::Contains("metric 'v': stdout held 8 values, more than the 5 ej keeps"));
  CHECK(extract_list(spec, ExtractInput{"v=1\nv=2\n", "", nullptr}).size() == 2);
  ::setenv("EJ_MAX_SAMPLES", "0", 1);
  CHECK_THROWS_AS(max_values_per_repeat(), ej::UsageError);
  ::unsetenv("EJ_MAX_SAMPLES");
  CHECK(max_values_per_repeat() == 10'000'000);
}
