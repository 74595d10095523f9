#include "store/journal.h"
#include "store/queries.h"
#include "store/run_queries.h"

#include <catch2/catch.hpp>

using namespace ej;
using nlohmann::json;

namespace {

void add_attempt(store::Writer& writer, int number, const std::string& plan)
{
  writer.append("attempt.created", {{"attempt", number},
                                    {"plan", plan},
                                    {"title", "attempt"},
                                    {"hypothesis", ""},
                                    {"command", ""},
                                    {"tags", json::array()},
                                    {"links", json::array()},
                                    {"git", json::object()}});
}

void import_run(store::Writer& writer, int run, int attempt, std::vector<double> values)
{
  json samples = json::array();
  for (const double value : values) {
    samples.push_back({{"metric", "verify_ms"}, {"key", ""}, {"value", value}, {"unit", "ms"}});
  }
  writer.append("run.imported", {{"run", run},
                                 {"bench", "verify"},
                                 {"revision", 1},
                                 {"attempt", attempt},
                                 {"source", "notes"},
                                 {"label", ""},
                                 {"samples", samples}});
}

// Runs of two attempts of plan p, interleaved and of different sizes, and one of another plan.
store::Journal journal_with_runs()
{
  auto journal = store::Journal::open_memory();
  journal.write([](store::Writer& writer) {
    for (const auto* slug : {"p", "q"}) {
      writer.append("plan.created",
                    {{"slug", slug}, {"title", "Plan"}, {"goal", ""}, {"target", ""}, {"doc", "d.md"}});
    }
    add_attempt(writer, 1, "p");
    add_attempt(writer, 2, "p");
    add_attempt(writer, 3, "q");
    import_run(writer, 1, 1, {1.0, 2.0});
    import_run(writer, 2, 2, {3.0});
    import_run(writer, 3, 1, {4.0, 5.0, 6.0});
    import_run(writer, 4, 3, {7.0});
    import_run(writer, 5, 2, {8.0, 9.0});
  });
  return journal;
}

std::vector<int> numbers(const std::vector<core::RunRecord>& runs)
{
  std::vector<int> out;
  for (const auto& run : runs) {
    out.push_back(run.number);
  }
  return out;
}

} // namespace

TEST_CASE("plan_runs groups a plan's runs by attempt, newest first, as list_runs reads them")
{
  auto journal = journal_with_runs();
  const auto by_attempt = store::plan_runs(journal.db(), "p");
  REQUIRE(by_attempt.size() == 2);
  CHECK(numbers(by_attempt.at(1)) == std::vector<int>{3, 1});
  CHECK(numbers(by_attempt.at(2)) == std::vector<int>{5, 2});
  for (const auto& [attempt, runs] : by_attempt) {
    store::RunFilter filter;
    filter.attempt = attempt;
    const auto listed = store::list_runs(journal.db(), filter);
    CHECK(numbers(runs) == numbers(listed));
    CHECK(runs.front().source == "notes");
    CHECK(runs.front().status == listed.front().status);
    // Judging never reads them: left unparsed.
    CHECK(runs.front().outputs.is_null());
    CHECK(runs.front().env_readings.is_null());
  }
  CHECK(store::plan_runs(journal.db(), "none").empty());
}

TEST_CASE("for_each_plan_sample visits every sample of a plan's runs, each run's together and in order")
{
  auto journal = journal_with_runs();
  std::map<int, std::vector<double>> expected;
  for (const int run : {1, 2, 3, 5}) { // the runs of plan p (run 4 is plan q's)
    for (const auto& sample : store::run_samples(journal.db(), run)) {
      expected[run].push_back(sample.value);
    }
  }
  std::map<int, std::vector<double>> visited;
  std::vector<int> run_order; // each run once: its samples come together
  store::for_each_plan_sample(journal.db(), "p", [&](const store::SampleView& sample) {
    if (run_order.empty() || run_order.back() != sample.run) {
      run_order.push_back(sample.run);
    }
    visited[sample.run].push_back(sample.value);
    CHECK(sample.metric == "verify_ms");
    CHECK(sample.unit == "ms");
    CHECK(sample.kind == "sample");
  });
  CHECK(visited == expected);
  CHECK(visited.at(3).size() == 3);
  CHECK(visited.at(2).size() == 1);
  CHECK(run_order == std::vector<int>{1, 3, 2, 5}); // by attempt, then run
  int none = 0;
  store::for_each_plan_sample(journal.db(), "none", [&](const store::SampleView&) { ++none; });
  CHECK(none == 0);
}
