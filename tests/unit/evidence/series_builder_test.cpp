#include "evidence/series.h"

#include <catch2/catch.hpp>

#include <string>

using namespace ej;

namespace {

core::SampleRecord make_sample(std::string params, std::string metric, std::string key, double value,
                               std::string unit, core::SampleKind kind = core::SampleKind::Sample)
{
  return {0, std::move(params), std::move(metric), std::move(key), value, std::move(unit), kind};
}

void check_same(const std::vector<evidence::SeriesSummary>& a, const std::vector<evidence::SeriesSummary>& b)
{
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].metric == b[i].metric);
    CHECK(a[i].params == b[i].params);
    CHECK(a[i].key == b[i].key);
    CHECK(a[i].unit == b[i].unit);
    CHECK(a[i].values == b[i].values);
    CHECK(a[i].skipped == b[i].skipped);
    CHECK(a[i].aggregates == b[i].aggregates);
  }
}

// Two runs' samples: a skipped state before its unit is known, parameters written two ways that
// describe the same combination, aggregates.
std::vector<core::SampleRecord> first_run()
{
  return {make_sample("{}", "time", "state 1", 0, "", core::SampleKind::Skipped),
          make_sample("{}", "wall_s", "", 1.5, "s"),
          make_sample(R"({"n":1})", "time", "state 1", 2.0, "ms"),
          make_sample(R"({"n": 1})", "time", "state 1", 3.0, "ms"),
          make_sample("{}", "time", "state 1", 4.0, "ms"),
          make_sample("{}", "time", "mean", 9.0, "ms", core::SampleKind::Aggregate)};
}

std::vector<core::SampleRecord> second_run()
{
  return {make_sample("{}", "time", "state 1", 5.0, "ms"), make_sample("{}", "wall_s", "", 1.25, "s"),
          make_sample("{}", "time", "state 2", 6.0, "ms"),
          make_sample(R"({"n":1})", "time", "state 1", 7.0, "ms")};
}

} // namespace

TEST_CASE("a run set's series built run by run equal run_series of all its samples together")
{
  auto together = first_run();
  const auto more = second_run();
  together.insert(together.end(), more.begin(), more.end());

  evidence::SeriesBuilder builder;
  for (const auto& series : evidence::run_series(first_run())) {
    builder.add_series(series);
  }
  for (const auto& series : evidence::run_series(second_run())) {
    builder.add_series(series);
  }
  const auto pooled = builder.take();
  check_same(pooled, evidence::run_series(together));
  REQUIRE(pooled.size() == 5);
  CHECK(pooled[0].unit == "ms"); // from the state's first sample with a unit
  CHECK(pooled[0].values == std::vector<double>{4.0, 5.0});
  CHECK(pooled[0].skipped == 1);
  CHECK(pooled[2].params == "n=1");
  CHECK(pooled[2].values == std::vector<double>{2.0, 3.0, 7.0});
  CHECK(builder.take().empty()); // it starts over
}

TEST_CASE("a run of many series groups them as a run of few does")
{
  std::vector<core::SampleRecord> samples;
  for (int repeat = 0; repeat < 3; ++repeat) {
    for (int state = 0; state < 40; ++state) {
      samples.push_back(
          make_sample("{}", "time", "state " + std::to_string(state), repeat * 100 + state, "ms"));
    }
  }
  const auto series = evidence::run_series(samples);
  REQUIRE(series.size() == 40);
  for (int state = 0; state < 40; ++state) {
    CHECK(series[state].key == "state " + std::to_string(state));
    CHECK(series[state].values ==
          std::vector<double>{static_cast<double>(state), 100.0 + state, 200.0 + state});
  }
  evidence::SeriesBuilder builder;
  builder.add_series(series[39]);
  for (const auto& s : series) {
    builder.add_series(s);
  }
  const auto pooled = builder.take();
  REQUIRE(pooled.size() == 40);
  CHECK(pooled[0].key == "state 39");
  CHECK(pooled[0].values.size() == 6);
  CHECK(pooled[1].values == series[0].values);
}
