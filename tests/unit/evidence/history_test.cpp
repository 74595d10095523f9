#include "evidence/history.h"
#include "util/error.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace ej;
using evidence::HistoryInput;
using evidence::HistoryOptions;
using evidence::LineCommit;

namespace {

// A line of `n` commits named c0, c1, ... (oldest first).
std::vector<LineCommit> line_of(std::size_t n)
{
  std::vector<LineCommit> line;
  for (std::size_t i = 0; i < n; ++i) {
    line.push_back({"c" + std::to_string(i), "change " + std::to_string(i)});
  }
  return line;
}

// A finished run at `commit` whose time_ms series (of `params`) holds `values`.
evidence::HistoryRun run_at(int number, const std::string& commit, std::vector<double> values,
                            const std::string& params = "", bool dirty = false,
                            const std::string& metric = "time_ms")
{
  evidence::HistoryRun run;
  run.run.number = number;
  run.run.revision = 1;
  run.run.status = core::RunStatus::Finished;
  run.run.git.commit = commit;
  run.run.git.branch = "main";
  run.run.git.dirty = dirty;
  run.series.push_back({metric, params, "", "ms", std::move(values), 0, 0});
  return run;
}

HistoryInput input_for(std::span<const LineCommit> line,
                       measure::Direction direction = measure::Direction::LowerIsBetter,
                       const std::string& metric = "time_ms")
{
  HistoryInput input;
  input.bench = "b";
  input.revision = 1;
  input.rules.primary = metric;
  input.rules.directions[metric] = direction;
  input.line = line;
  return input;
}

// Runs at commits first..last-1 (one each), `before` until `step_at`, `after` from it on, with a
// small alternation so that points are not all tied.
void add_runs(HistoryInput& input, std::size_t first, std::size_t last, std::size_t step_at, double before,
              double after, std::size_t stride = 1)
{
  int number = static_cast<int>(input.runs.size()) + 1;
  for (std::size_t i = first; i < last; i += stride) {
    const double level = i < step_at ? before : after;
    const double wiggle = (i % 3 == 0 ? 0.01 : i % 3 == 1 ? -0.01 : 0.0) * level;
    input.runs.push_back(run_at(number++, "c" + std::to_string(i), {level + wiggle, level + wiggle * 0.5}));
  }
}

} // namespace

TEST_CASE("A history has a point per commit measured, in line order, the commit's runs pooled, and other "
          "runs apart")
{
  const auto line = line_of(5);
  auto input = input_for(line);
  input.runs.push_back(run_at(1, "c3", {30, 31, 32}));
  input.runs.push_back(run_at(2, "c1", {10, 11, 12, 13, 14, 15}));
  input.runs.push_back(run_at(3, "c3", {33, 34, 35}));
  input.runs.push_back(run_at(4, "c2", {99}, "", true)); // dirty
  input.runs.push_back(run_at(5, "elsewhere", {50}));    // another branch
  input.runs.push_back(run_at(6, "", {60}));             // no commit recorded
  auto failed = run_at(7, "c4", {70});
  failed.run.status = core::RunStatus::Failed;
  input.runs.push_back(failed);
  auto other_revision = run_at(8, "c4", {80});
  other_revision.run.revision = 2;
  input.runs.push_back(other_revision);

  const auto histories = evidence::build_histories(input, {});
  REQUIRE(histories.size() == 1);
  const auto& h = histories[0];
  CHECK(h.metric == "time_ms");
  CHECK(h.unit == "ms");
  REQUIRE(h.points.size() == 2);
  CHECK(h.points[0].commit == "c1");
  CHECK(h.points[0].position == 1);
  CHECK(h.points[0].subject == "change 1");
  CHECK(h.points[0].median == 12.5);
  CHECK(h.points[0].interval.low == 10); // six samples: the 96.9% interval x(1)..x(6)
  CHECK(h.points[0].interval.high == 15);
  CHECK(h.points[1].commit == "c3");
  CHECK(h.points[1].runs == std::vector<int>{1, 3});
  CHECK(h.points[1].n == 6);
  CHECK(h.points[1].median == 32.5);
  REQUIRE(h.apart.size() == 3);
  CHECK(h.apart[0].run == 4);
  CHECK(h.apart[0].why == evidence::RunApart::Why::Dirty);
  CHECK(h.apart[1].why == evidence::RunApart::Why::OtherCommit);
  CHECK(h.apart[2].why == evidence::RunApart::Why::NoCommit);
  CHECK(h.apart[2].median == 60);
  CHECK(h.steps.empty());
}

TEST_CASE("A step lies between the last commit measured before it and the first after, and knows how many "
          "commits that is")
{
  const auto line = line_of(100);
  auto input = input_for(line);
  add_runs(input, 0, 100, 50, 10.0, 11.0); // every commit
  auto h = evidence::build_histories(input, {})[0];
  REQUIRE(h.steps.size() == 1);
  CHECK(h.steps[0].good == "c49");
  CHECK(h.steps[0].bad == "c50");
  CHECK(h.steps[0].commits == 1);
  CHECK(h.steps[0].worse);
  CHECK(h.steps[0].regression);
  CHECK(*h.steps[0].change.change_pct == Approx(10.0).margin(1.0));
  CHECK(h.steps[0].change.reference_median == Approx(10.0).margin(0.1));

  auto sparse = input_for(line);
  add_runs(sparse, 0, 100, 50, 10.0, 11.0, 4); // every fourth commit: c48, then c52
  h = evidence::build_histories(sparse, {})[0];
  REQUIRE(h.steps.size() == 1);
  CHECK(h.steps[0].good == "c48");
  CHECK(h.steps[0].bad == "c52");
  CHECK(h.steps[0].commits == 4);
}

TEST_CASE("Which way is worse comes from the metric's direction, and the minimum effect decides a regression")
{
  const auto line = line_of(60);
  auto throughput = input_for(line, measure::Direction::HigherIsBetter, "tok_s");
  int number = 1;
  for (std::size_t i = 0; i < 60; ++i) {
    const double level = i < 30 ? 100.0 : 110.0;
    throughput.runs.push_back(
        run_at(number++, "c" + std::to_string(i), {level + static_cast<double>(i % 3)}, "", false, "tok_s"));
  }
  auto h = evidence::build_histories(throughput, {})[0];
  REQUIRE(h.steps.size() == 1);
  CHECK_FALSE(h.steps[0].worse); // more tokens per second
  CHECK_FALSE(h.steps[0].regression);
  CHECK(evidence::describe_step(h.steps[0]) == "improvement");

  auto slower = input_for(line);
  add_runs(slower, 0, 60, 30, 10.0, 10.3); // +3%, every point apart from the wiggle
  slower.rules.min_effect_pct = 5;
  h = evidence::build_histories(slower, {})[0];
  REQUIRE(h.steps.size() == 1);
  CHECK(h.steps[0].worse);
  CHECK_FALSE(h.steps[0].regression); // within the benchmark's 5%
  CHECK(evidence::describe_step(h.steps[0]) == "worse, within the minimum effect");
}

TEST_CASE("An acknowledgement of a commit in a step's range marks it, one outside the range or of another "
          "metric does not")
{
  const auto line = line_of(100);
  auto input = input_for(line);
  add_runs(input, 0, 100, 50, 10.0, 11.0, 4); // the step in (c48, c52]
  input.acknowledgements.push_back({"e1", "b", "", "c48", "too early", 1});
  input.acknowledgements.push_back({"e2", "b", "wall_s", "c50", "another metric", 2});
  auto h = evidence::build_histories(input, {})[0];
  REQUIRE(h.steps.size() == 1);
  CHECK_FALSE(h.steps[0].acknowledged);

  input.acknowledgements.push_back({"e3", "b", "time_ms", "c50", "expected", 3});
  input.acknowledgements.push_back({"e4", "b", "", "c52", "expected, said again", 4});
  h = evidence::build_histories(input, {})[0];
  REQUIRE(h.steps[0].acknowledged);
  CHECK(h.steps[0].acknowledged->reason == "expected, said again"); // the newest
  CHECK(h.steps[0].regression); // still worse: acknowledged is said beside it
}

TEST_CASE("An ej bisect answer of the metric on the line is listed, and marks the step whose range holds its "
          "commit")
{
  const auto line = line_of(100);
  auto input = input_for(line);
  add_runs(input, 0, 100, 50, 10.0, 11.0, 4); // the step in (c48, c52]
  const auto answer = [](const std::string& id, const std::string& metric, const std::string& first_bad,
                         std::vector<std::string> candidates) {
    core::LocatedStep located;
    located.event_id = id;
    located.bench = "b";
    located.metric = metric;
    located.good = "c0";
    located.bad = "c99";
    located.first_bad = first_bad;
    located.candidates = std::move(candidates);
    return located;
  };
  input.located.push_back(answer("e1", "time_ms", "c47", {"c47"}));             // before the range
  input.located.push_back(answer("e2", "wall_s", "c50", {"c50"}));              // another metric
  input.located.push_back(answer("e3", "time_ms", "elsewhere", {"elsewhere"})); // not on the line
  input.located.push_back(answer("e4", "time_ms", "", {"c49", "c50"}));         // a range: its last
  auto h = evidence::build_histories(input, {})[0];
  REQUIRE(h.steps.size() == 1);
  REQUIRE(h.steps[0].located);
  CHECK(h.steps[0].located->event_id == "e4");
  CHECK(evidence::located_commit(*h.steps[0].located) == "c50");
  REQUIRE(h.located.size() == 2);
  CHECK(h.located[0].event_id == "e1");
  CHECK(h.located[1].event_id == "e4");

  input.located.push_back(answer("e5", "time_ms", "c50", {"c50"}));
  h = evidence::build_histories(input, {})[0];
  CHECK(h.steps[0].located->event_id == "e5"); // the newest
}

TEST_CASE("Each combination of a sweep is a history of its own, and a selector keeps only its combinations")
{
  const auto line = line_of(3);
  auto input = input_for(line);
  input.runs.push_back(run_at(1, "c0", {1}, "variant=naive"));
  input.runs.push_back(run_at(2, "c0", {2}, "variant=blocked"));
  input.runs.push_back(run_at(3, "c1", {3}, "variant=naive"));
  auto all = evidence::build_histories(input, {});
  REQUIRE(all.size() == 2);
  CHECK(all[0].params == "variant=naive");
  CHECK(all[0].points.size() == 2);
  CHECK(all[1].params == "variant=blocked");

  HistoryOptions options;
  options.selector = {{"variant", "blocked"}};
  const auto chosen = evidence::build_histories(input, options);
  REQUIRE(chosen.size() == 1);
  CHECK(chosen[0].points[0].median == 2);

  options.selector = {};
  options.metric = "wall_s";
  CHECK(evidence::build_histories(input, options).empty());
}
