// What a history reads of the store: a benchmark's run heads, and the samples of chosen runs.
#include "store/events.h"
#include "store/journal.h"
#include "store/run_queries.h"

#include <catch2/catch.hpp>

#include <string>
#include <tuple>
#include <vector>

using namespace ej;
using nlohmann::json;

namespace {

// A finished run of `bench` at `commit`: a repeat per value, each with a sample of time_ms and
// one of rss_kb. Returns the id of its run.started event.
std::string measured_run(store::Writer& writer, int run, const std::string& bench, int revision,
                         const std::string& commit, const std::vector<double>& values)
{
  const auto started =
      writer.append("run.started", {{"run", run},
                                    {"bench", bench},
                                    {"revision", revision},
                                    {"label", ""},
                                    {"git", {{"commit", commit}, {"branch", "main"}, {"dirty", false}}},
                                    {"host", "h"}});
  json repeats = json::array();
  for (std::size_t i = 0; i < values.size(); ++i) {
    repeats.push_back(
        {{"idx", i},
         {"params", json::object()},
         {"warmup", false},
         {"ending", "exited"},
         {"exit_code", 0},
         {"signal", 0},
         {"wall_s", 0.01},
         {"user_s", 0.008},
         {"sys_s", 0.002},
         {"max_rss_kb", 4096},
         {"samples", json::array({{{"metric", "time_ms"}, {"key", ""}, {"value", values[i]}, {"unit", "ms"}},
                                  {{"metric", "rss_kb"}, {"key", ""}, {"value", 4096}, {"unit", "KiB"}}})}});
  }
  writer.append("run.repeats", {{"run", run}, {"repeats", repeats}});
  writer.append("run.finished", {{"run", run}, {"status", "finished"}, {"reason", ""}});
  return started.id;
}

// Runs 1, 2, 3, 5, 7 of benchmark a (7 of revision 2) and 4, 6 of benchmark b; run 3 withdrawn.
store::Journal interleaved_benchmarks()
{
  auto journal = store::Journal::open_memory();
  journal.write([](store::Writer& writer) {
    std::string third;
    for (int run = 1; run <= 7; ++run) {
      const bool of_a = run != 4 && run != 6;
      const auto id = measured_run(writer, run, of_a ? "a" : "b", run == 7 ? 2 : 1, "c" + std::to_string(run),
                                   {run * 10.0, run * 10.0 + 1});
      if (run == 3) {
        third = id;
      }
    }
    writer.append(store::events::RunWithdrawal{false, store::events::Ref::to(third), "debug build"});
  });
  return journal;
}

} // namespace

TEST_CASE("a benchmark's run heads come oldest first, with their revision, git context and withdrawal")
{
  auto journal = interleaved_benchmarks();
  const auto heads = store::bench_run_heads(journal.db(), "a");
  REQUIRE(heads.size() == 5);
  std::vector<std::tuple<int, int, bool, std::string>> read;
  for (const auto& run : heads) {
    CHECK(run.status == core::RunStatus::Finished);
    CHECK(run.git.branch == "main");
    CHECK_FALSE(run.git.dirty);
    read.emplace_back(run.number, run.revision, run.withdrawn, run.git.commit);
  }
  CHECK(read == std::vector<std::tuple<int, int, bool, std::string>>{{1, 1, false, "c1"},
                                                                     {2, 1, false, "c2"},
                                                                     {3, 1, true, "c3"},
                                                                     {5, 1, false, "c5"},
                                                                     {7, 2, false, "c7"}});
  CHECK(store::bench_run_heads(journal.db(), "b").size() == 2);
  CHECK(store::bench_run_heads(journal.db(), "none").empty());

  const auto third = store::find_run(journal.db(), 3)->id;
  journal.write([&](store::Writer& writer) {
    writer.append(
        store::events::RunWithdrawal{true, store::events::Ref::to(third), "release build after all"});
  });
  CHECK_FALSE(store::bench_run_heads(journal.db(), "a")[2].withdrawn); // restored
}

TEST_CASE("the samples of chosen runs come run by run, in order, of the metric asked for and of no other run")
{
  auto journal = interleaved_benchmarks();
  std::vector<std::pair<int, double>> seen;
  // Runs 1-3 are read as one range of the samples table, 5 and 7 each alone: 4 and 6 lie between.
  const std::vector<int> runs{1, 2, 3, 5, 7};
  store::visit_runs_samples(journal.db(), runs, "time_ms", [&](const store::SampleView& sample) {
    CHECK(sample.metric == "time_ms");
    CHECK(sample.unit == "ms");
    CHECK(sample.kind == core::SampleKind::Sample);
    seen.emplace_back(sample.run, sample.value);
  });
  CHECK(seen ==
        std::vector<std::pair<int, double>>{
            {1, 10}, {1, 11}, {2, 20}, {2, 21}, {3, 30}, {3, 31}, {5, 50}, {5, 51}, {7, 70}, {7, 71}});

  seen.clear();
  const std::vector<int> some{2, 6};
  store::visit_runs_samples(journal.db(), some, "rss_kb", [&](const store::SampleView& sample) {
    seen.emplace_back(sample.run, sample.value);
  });
  CHECK(seen == std::vector<std::pair<int, double>>{{2, 4096}, {2, 4096}, {6, 4096}, {6, 4096}});

  bool any = false;
  store::visit_runs_samples(journal.db(), {}, "time_ms", [&](const store::SampleView&) { any = true; });
  CHECK_FALSE(any);
}
