#include "measure/metric_spec.h"
#include "measuring/run_loop.h"
#include "measuring/run_observer.h"
#include "run/host.h"
#include "store/journal.h"
#include "store/run_queries.h"
#include "support/temp_dir.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <string>
#include <vector>

using namespace ej;
using nlohmann::json;

namespace {

// Writes down every event as a line, in the order they come.
class RecordingObserver final : public measuring::RunObserver {
public:
  std::vector<std::string> events;
  std::vector<std::string> messages;
  std::string printed;

  void run_started(const measuring::RunShape& shape) override
  {
    events.push_back(
        fmt::format("run {} {} {}x{}", shape.metric, shape.unit, shape.combinations, shape.total_repeats));
  }
  void combination_started(int index, const std::string& label, int repeats) override
  {
    events.push_back(fmt::format("combination {} '{}' {}", index, label, repeats));
  }
  void repeat_started(int repeat, bool warmup) override
  {
    events.push_back(fmt::format("{} {}", warmup ? "warmup" : "repeat", repeat));
  }
  void repeat_ended(std::optional<double> median) override
  {
    events.push_back(median ? fmt::format("ended median {}", *median) : std::string("ended"));
  }
  void output(std::string_view chunk) override { printed += chunk; }
  void message(std::string_view line) override { messages.emplace_back(line); }
  void run_ended() override { events.push_back("run ended"); }
};

// A journal in memory with benchmark `b` and its run #1 started, as `ej run` records them before
// it measures; the plan runs `shell` here, in a temporary directory.
struct Fixture {
  test::TempDir dir;
  store::Journal journal = store::Journal::open_memory();
  run::LocalHost host;
  RecordingObserver observer;
  measuring::RunPlan plan;

  explicit Fixture(const std::string& shell, const std::vector<core::ParamAxis>& axes = {})
  {
    plan.bench = "b";
    plan.definition.shell = shell;
    plan.definition.params = axes;
    plan.definition.policy.repeat = 3;
    const auto metric = measure::parse_metric_spec("ms=kv:ms");
    plan.definition.metrics = {metric};
    plan.definition.primary = "ms";
    plan.metrics = {metric};
    plan.combinations = core::param_combinations(axes, {});
    plan.work_tree = dir.path();
    plan.host = &host;
    plan.repeats.echo = false;
    plan.repeats.echo_build = false;
    plan.repeats.progress = true; // the observer is given the median
    plan.observer = &observer;
    journal.write([&](store::Writer& writer) {
      writer.append("bench.added",
                    {{"name", "b"}, {"revision", 1}, {"definition", core::to_json(plan.definition)}});
      plan.run_id = writer
                        .append("run.started", {{"run", 1},
                                                {"bench", "b"},
                                                {"revision", 1},
                                                {"attempt", 0},
                                                {"label", ""},
                                                {"params", json::object()},
                                                {"git", json::object()},
                                                {"env_blob", ""},
                                                {"host", "test"},
                                                {"pid", 1},
                                                {"boot_id", ""}})
                        .id;
    });
    plan.run_number = store::number_of_run(journal.db(), plan.run_id);
  }

  std::vector<core::RepeatRecord> repeats() { return store::run_repeats(journal.db(), plan.run_number); }

  std::vector<double> values(const std::string& metric)
  {
    std::vector<double> out;
    for (const auto& sample : store::run_samples(journal.db(), plan.run_number)) {
      if (sample.metric == metric) {
        out.push_back(sample.value);
      }
    }
    return out;
  }
};

} // namespace

TEST_CASE("a run of N repeats writes N repeats and each one's samples to the journal")
{
  Fixture fixture("echo ms=4");
  const auto outcome = measuring::measure_run(fixture.journal, fixture.plan);
  CHECK(outcome.status == core::RunStatus::Finished);
  CHECK(outcome.reason.empty());
  CHECK(outcome.repeats == 3);
  const auto repeats = fixture.repeats();
  REQUIRE(repeats.size() == 3);
  for (const auto& repeat : repeats) {
    CHECK_FALSE(repeat.warmup);
    CHECK(repeat.ending == core::RepeatEnding::Exited);
    CHECK(repeat.exit_code == 0);
  }
  CHECK(fixture.values("ms") == std::vector<double>{4, 4, 4});
  CHECK(fixture.values("wall_s").size() == 3);
  CHECK(outcome.last_stdout == "ms=4\n");
}

TEST_CASE("the observer hears the run start, each warmup and repeat in order, and the run end")
{
  Fixture fixture("echo ms=2");
  fixture.plan.repeats.warmups = 1;
  fixture.plan.repeats.count = 2;
  measuring::measure_run(fixture.journal, fixture.plan);
  CHECK(fixture.observer.events == std::vector<std::string>{"run ms  1x3", "combination 1 '' 2", "warmup 1",
                                                            "ended", "repeat 1", "ended median 2", "repeat 2",
                                                            "ended median 2", "run ended"});
  CHECK(fixture.observer.printed == "ms=2\nms=2\nms=2\n");
  // The warmup is recorded too, marked as such, and gives no samples of the metric.
  const auto repeats = fixture.repeats();
  REQUIRE(repeats.size() == 3);
  CHECK(repeats[0].warmup);
  CHECK(fixture.values("ms").size() == 2);
}

TEST_CASE(
    "a repeat that fails ends the run as failed, naming the repeat and its stderr, and later ones never run")
{
  // The second repeat fails: a counter file in the work tree says which repeat this is.
  Fixture fixture("n=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo $n > count; "
                  "if [ $n -eq 2 ]; then echo 'out of memory' >&2; exit 3; fi; echo ms=1");
  const auto outcome = measuring::measure_run(fixture.journal, fixture.plan);
  CHECK(outcome.status == core::RunStatus::Failed);
  CHECK_THAT(outcome.reason,
             Catch::Contains("repeat 2") && Catch::Contains("3") && Catch::Contains("out of memory"));
  CHECK(outcome.repeats == 2);
  const auto repeats = fixture.repeats();
  REQUIRE(repeats.size() == 2); // the failed one is kept, the third never ran
  CHECK(repeats[1].exit_code == 3);
  CHECK(fixture.values("ms") == std::vector<double>{1});
  CHECK(fixture.observer.events.back() == "run ended");
}

TEST_CASE("a repeat whose output lacks the metric ends the run as extract-error")
{
  Fixture fixture("echo nothing here");
  const auto outcome = measuring::measure_run(fixture.journal, fixture.plan);
  CHECK(outcome.status == core::RunStatus::ExtractError);
  CHECK_THAT(outcome.reason, Catch::StartsWith("repeat 1"));
  CHECK(fixture.repeats().size() == 1);
}

TEST_CASE("a timed-out repeat ends the run as timeout")
{
  Fixture fixture("sleep 30");
  fixture.plan.definition.timeout_s = 0.2;
  const auto outcome = measuring::measure_run(fixture.journal, fixture.plan);
  CHECK(outcome.status == core::RunStatus::Timeout);
  const auto repeats = fixture.repeats();
  REQUIRE(repeats.size() == 1);
  CHECK(repeats[0].ending == core::RepeatEnding::TimedOut);
}

TEST_CASE("every combination of the axes is measured in turn, the observer told each one")
{
  Fixture fixture("echo ms={size}", {{"size", {"1", "8"}}});
  fixture.plan.repeats.count = 2;
  const auto outcome = measuring::measure_run(fixture.journal, fixture.plan);
  CHECK(outcome.status == core::RunStatus::Finished);
  CHECK(fixture.values("ms") == std::vector<double>{1, 1, 8, 8});
  std::vector<std::string> combinations;
  for (const auto& event : fixture.observer.events) {
    if (event.starts_with("combination")) {
      combinations.push_back(event);
    }
  }
  CHECK(combinations == std::vector<std::string>{"combination 1 'size=1' 2", "combination 2 'size=8' 2"});
}

TEST_CASE("a --prepare command that fails ends the run before the repeat it prepared")
{
  Fixture fixture("echo ms=1");
  fixture.plan.repeats.prepare = "exit 5";
  const auto outcome = measuring::measure_run(fixture.journal, fixture.plan);
  CHECK(outcome.status == core::RunStatus::Failed);
  CHECK_THAT(outcome.reason, Catch::StartsWith("--prepare before repeat 1"));
  CHECK(fixture.repeats().empty());
}
