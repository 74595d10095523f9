#include "measure/metric_spec.h"
#include "measuring/run_benchmark.h"
#include "store/journal.h"
#include "store/run_queries.h"
#include "support/temp_dir.h"
#include "util/error.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

using namespace ej;
using nlohmann::json;

namespace {

// Hears the lines a session says; the loop's events are run_loop_test's.
class MessageObserver final : public measuring::RunObserver {
public:
  std::vector<std::string> messages;
  int runs_ended = 0;

  void run_started(const measuring::RunShape&) override {}
  void combination_started(int, const std::string&, int) override {}
  void repeat_started(int, bool) override {}
  void repeat_ended(std::optional<double>) override {}
  void output(std::string_view) override {}
  void message(std::string_view line) override { messages.emplace_back(line); }
  void run_ended() override { ++runs_ended; }

  bool said(const std::string& text) const
  {
    return std::any_of(messages.begin(), messages.end(),
                       [&](const std::string& m) { return m.find(text) != std::string::npos; });
  }
};

// A workspace in a temporary directory (no git repository: the code state is given), a journal in
// memory with benchmark `b` registered, and the GPU locks in a directory of the test's own.
struct SessionFixture {
  test::TempDir dir;
  measuring::Workspace workspace{dir.path(), dir.path() / "ej", dir.path() / ".git"};
  store::Journal journal = store::Journal::open_memory();
  MessageObserver observer;
  measuring::RunRequest request;
  measuring::DetachedReport detached = measuring::DetachedReport::from_environment();

  explicit SessionFixture(const std::string& shell, const std::string& build = {})
  {
    ::setenv("EJ_GPU_LOCK_DIR", (dir.path() / "gpu-locks").c_str(), 1);
    core::BenchDefinition definition;
    definition.shell = shell;
    definition.build = build;
    definition.policy.repeat = 2;
    definition.metrics = {measure::parse_metric_spec("ms=kv:ms")};
    definition.primary = "ms";
    journal.write([&](store::Writer& writer) {
      writer.append("bench.added",
                    {{"name", "b"}, {"revision", 1}, {"definition", core::to_json(definition)}});
    });
    request.bench = "b";
    request.repeats.echo = false;
    request.repeats.echo_build = false;
    request.devices.sample_ms = 0; // no GPUs read
  }

  measuring::RunResult run()
  {
    measuring::RunSession session(journal, workspace, request, observer);
    return session.run(git::CodeState{}, false, detached);
  }
};

} // namespace

TEST_CASE("a session records the run, measures it here and records how it ended")
{
  SessionFixture fixture("echo ms=3");
  const auto result = fixture.run();
  CHECK(result.status == core::RunStatus::Finished);
  CHECK(result.reason.empty());
  REQUIRE(result.run == 1);
  const auto run = store::find_run(fixture.journal.db(), 1);
  REQUIRE(run);
  CHECK(run->status == core::RunStatus::Finished);
  CHECK(run->bench == "b");
  CHECK(store::run_repeats(fixture.journal.db(), 1).size() == 2);
  CHECK(fixture.observer.said("ej: run #1 of b r1"));
  CHECK(fixture.observer.runs_ended == 1);
}

TEST_CASE("a session whose benchmark fails records the run as failed with the reason it returns")
{
  SessionFixture fixture("echo broken >&2; exit 4");
  const auto result = fixture.run();
  CHECK(result.status == core::RunStatus::Failed);
  CHECK_THAT(result.reason, Catch::Contains("repeat 1") && Catch::Contains("broken"));
  const auto run = store::find_run(fixture.journal.db(), result.run);
  REQUIRE(run);
  CHECK(run->status == core::RunStatus::Failed);
  CHECK(run->reason == result.reason);
}

TEST_CASE("a session whose build step fails records build-failed and measures nothing")
{
  SessionFixture fixture("echo ms=1", "echo no compiler >&2; exit 1");
  const auto result = fixture.run();
  CHECK(result.status == core::RunStatus::BuildFailed);
  CHECK_THAT(result.reason, Catch::Contains("no compiler"));
  CHECK(store::run_repeats(fixture.journal.db(), result.run).empty());
  CHECK(fixture.observer.runs_ended == 0); // the loop never started
}

TEST_CASE("a session is refused before anything is recorded when the benchmark or its axis is unknown")
{
  SessionFixture fixture("echo ms=1");
  fixture.request.bench = "nope";
  CHECK_THROWS_WITH(fixture.run(), Catch::Contains("no benchmark named 'nope'"));
  fixture.request.bench = "b";
  fixture.request.params = {{"size", {"1"}}};
  CHECK_THROWS_AS(fixture.run(), UsageError);
  fixture.request.params.clear();
  fixture.request.repeats.count = 0;
  CHECK_THROWS_WITH(fixture.run(), Catch::Contains("--repeat must be at least 1"));
  CHECK_FALSE(store::find_run(fixture.journal.db(), 1));
}
