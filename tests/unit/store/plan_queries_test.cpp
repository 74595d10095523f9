#include "store/journal.h"
#include "store/queries.h"
#include "store/events.h"
#include "store/run_queries.h"

#include <catch2/catch.hpp>

#include <algorithm>

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

// A measured run of `attempt`: repeats of one sample each, the GPU read during those in `read`.
void measured_run(store::Writer& writer, int run, int attempt, int repeats, const std::vector<int>& read)
{
  writer.append("run.started", {{"run", run}, {"bench", "verify"}, {"revision", 1}, {"attempt", attempt},
                                {"label", ""}, {"git", {{"commit", "0123456789abcdef"}}}, {"host", "h"}});
  json list = json::array();
  for (int index = 0; index < repeats; ++index) {
    json repeat = {{"idx", index},      {"params", json::object()}, {"warmup", false}, {"ending", "exited"},
                   {"exit_code", 0},    {"signal", 0},              {"wall_s", 0.5},   {"user_s", 0.4},
                   {"sys_s", 0.1},      {"max_rss_kb", 1024},
                   {"samples", json::array({{{"metric", "verify_ms"}, {"key", ""}, {"value", 10.0 + index},
                                             {"unit", "ms"}}})}};
    if (std::find(read.begin(), read.end(), index) != read.end()) {
      core::GpuRepeatState gpu;
      gpu.uuid = "GPU-0";
      gpu.samples = 3;
      gpu.sm_clock_mhz = core::Range{1500, 1980, 1980};
      repeat["device"] = store::events::device_json({gpu});
    }
    list.push_back(repeat);
  }
  writer.append("run.repeats", {{"run", run}, {"repeats", list}});
  writer.append("run.finished", {{"run", run}, {"status", "finished"}, {"reason", ""}});
}

} // namespace

TEST_CASE("a plan stream reads each attempt's runs as list_runs does, attempt by attempt")
{
  auto journal = journal_with_runs();
  store::PlanStream stream(journal.db(), "p");
  for (const int attempt : {1, 2}) {
    const auto runs = stream.runs(attempt);
    store::RunFilter filter;
    filter.attempt = attempt;
    const auto listed = store::list_runs(journal.db(), filter);
    CHECK(numbers(runs) == numbers(listed)); // newest first
    CHECK(runs.front().source == "notes");
    CHECK(runs.front().status == listed.front().status);
    // Judging never reads them: not even loaded.
    CHECK(runs.front().outputs.is_null());
    CHECK(runs.front().env_readings.is_null());
  }
  CHECK(numbers(store::PlanStream(journal.db(), "p").runs(1)) == std::vector<int>{3, 1});
  // An attempt skipped is passed over; one asked for after a later one reads nothing; one of
  // another plan is not in the stream.
  store::PlanStream skipping(journal.db(), "p");
  CHECK(numbers(skipping.runs(2)) == std::vector<int>{5, 2});
  CHECK(skipping.runs(1).empty());
  CHECK(store::PlanStream(journal.db(), "p").runs(3).empty());
  CHECK(store::PlanStream(journal.db(), "none").runs(1).empty());
}

TEST_CASE("a plan stream visits every sample of an attempt's runs, each run's together and in order")
{
  auto journal = journal_with_runs();
  std::map<int, std::vector<double>> expected;
  for (const int run : {1, 2, 3, 5}) { // the runs of plan p (run 4 is plan q's)
    for (const auto& sample : store::run_samples(journal.db(), run)) {
      expected[run].push_back(sample.value);
    }
  }
  store::PlanStream stream(journal.db(), "p");
  std::map<int, std::vector<double>> visited;
  std::vector<int> run_order; // each run once: its samples come together
  for (const int attempt : {1, 2}) {
    stream.samples(attempt, [&](const store::SampleView& sample) {
      if (run_order.empty() || run_order.back() != sample.run) {
        run_order.push_back(sample.run);
      }
      visited[sample.run].push_back(sample.value);
      CHECK(sample.metric == "verify_ms");
      CHECK(sample.unit == "ms");
      CHECK(sample.kind == core::SampleKind::Sample);
    });
  }
  CHECK(visited == expected);
  CHECK(visited.at(3).size() == 3);
  CHECK(visited.at(2).size() == 1);
  CHECK(run_order == std::vector<int>{1, 3, 2, 5}); // by attempt, then run
  int none = 0;
  store::PlanStream(journal.db(), "none").samples(1, [&](const store::SampleView&) { ++none; });
  CHECK(none == 0);
}

TEST_CASE("a plan stream reads the repeats that read a GPU through their own index, and only those")
{
  auto journal = store::Journal::open_memory();
  journal.write([](store::Writer& writer) {
    writer.append("plan.created", {{"slug", "p"}, {"title", "Plan"}, {"goal", ""}, {"target", ""}, {"doc", "d.md"}});
    add_attempt(writer, 1, "p");
    add_attempt(writer, 2, "p");
    measured_run(writer, 1, 1, 3, {});
    measured_run(writer, 2, 1, 3, {0, 2});
    measured_run(writer, 3, 2, 2, {1});
  });
  {
    store::PlanStream stream(journal.db(), "p");
    const auto first = stream.device_repeats(1);
    REQUIRE(first.size() == 1); // run 1 read no GPU
    REQUIRE(first.at(2).size() == 2);
    CHECK(first.at(2)[0].index == 0);
    CHECK(first.at(2)[1].index == 2);
    CHECK(first.at(2)[1].device.front().sm_clock_mhz->min == 1500);
    const auto second = stream.device_repeats(2);
    REQUIRE(second.size() == 1);
    CHECK(second.at(3).front().index == 1);
    // As device_repeats reads them one run at a time.
    CHECK(store::device_repeats(journal.db(), 2).size() == 2);
    CHECK(store::device_repeats(journal.db(), 1).empty());
    // Most runs read none: the query must not read every repeat of the plan to find that out.
    auto plan = journal.db().prepare(
        "EXPLAIN QUERY PLAN SELECT rr.idx FROM attempts a JOIN runs r ON r.attempt = a.number JOIN "
        "run_repeats rr "
        "INDEXED BY run_repeats_with_device ON rr.run = r.number WHERE a.plan = 'p' AND rr.warmup = 0 AND "
        "rr.device <> ''");
    std::string steps;
    while (plan.step()) {
      steps += plan.text(3) + "\n";
    }
    CHECK_THAT(steps, Catch::Contains("run_repeats_with_device"));
  }
  // A version-6 journal opened read-only was never given the index: the stream reads the table.
  journal.db().exec("DROP INDEX run_repeats_with_device");
  store::PlanStream unindexed(journal.db(), "p");
  CHECK(unindexed.device_repeats(1).at(2).size() == 2);
  CHECK(unindexed.device_repeats(2).at(3).size() == 1);
}

TEST_CASE("a stream of chosen attempts reads their runs, samples and GPU repeats across plans")
{
  auto journal = journal_with_runs();
  journal.write([](store::Writer& writer) { measured_run(writer, 6, 3, 3, {1}); });
  auto stream = store::PlanStream::of_attempts(journal.db(), {1, 3});
  CHECK(numbers(stream.runs(1)) == std::vector<int>{3, 1});
  std::vector<double> values;
  stream.samples(1, [&](const store::SampleView& sample) { values.push_back(sample.value); });
  CHECK(values == std::vector<double>{1.0, 2.0, 4.0, 5.0, 6.0});
  CHECK(stream.device_repeats(1).empty());
  // Attempt 3 is plan q's; attempt 2, not chosen, is not in the stream.
  CHECK(numbers(stream.runs(3)) == std::vector<int>{6, 4});
  CHECK(stream.device_repeats(3).at(6).front().index == 1);
  CHECK(store::PlanStream::of_attempts(journal.db(), {1, 3}).runs(2).empty());
}
