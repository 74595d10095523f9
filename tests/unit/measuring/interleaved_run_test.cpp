#include "measure/metric_spec.h"
#include "measuring/interleaved_pairs.h"
#include "measuring/interleaved_run.h"
#include "store/interleaved_queries.h"
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

class InterleavedObserver final : public measuring::RunObserver {
public:
  std::vector<std::string> messages;
  int runs_started = 0;
  int runs_ended = 0;
  void run_started(const measuring::RunShape&) override { ++runs_started; }
  void combination_started(int, const std::string&, int) override {}
  void repeat_started(int, bool) override {}
  void repeat_ended(std::optional<double>) override {}
  void output(std::string_view) override {}
  void message(std::string_view line) override { messages.emplace_back(line); }
  void run_ended() override { ++runs_ended; }
};

// Two work trees (no git: the code states are given) whose value.txt the benchmark prints, one
// journal in memory with benchmark `b` (`ms` read from `cat value.txt`, a min effect of 2%).
struct InterleavedFixture {
  test::TempDir dir;
  measuring::Workspace candidate{dir.path() / "candidate", dir.path() / "ej", dir.path() / ".git"};
  measuring::Workspace reference{dir.path() / "reference", dir.path() / "ej", dir.path() / ".git"};
  store::Journal journal = store::Journal::open_memory();
  InterleavedObserver observer;
  measuring::InterleavedRequest request;

  InterleavedFixture(const std::string& candidate_text, const std::string& reference_text)
  {
    ::setenv("EJ_GPU_LOCK_DIR", (dir.path() / "gpu-locks").c_str(), 1);
    test::write_text(candidate.work_tree / "value.txt", candidate_text);
    test::write_text(reference.work_tree / "value.txt", reference_text);
    core::BenchDefinition definition;
    definition.shell = "cat value.txt";
    definition.policy.repeat = 6;
    definition.min_effect_pct = 2;
    definition.metrics = {measure::parse_metric_spec("ms=kv:ms")};
    definition.primary = "ms";
    journal.write([&](store::Writer& writer) {
      writer.append("bench.added",
                    {{"name", "b"}, {"revision", 1}, {"definition", core::to_json(definition)}});
    });
    request.candidate.bench = "b";
    request.candidate.repeats.echo = false;
    request.candidate.repeats.echo_build = false;
    request.candidate.devices.sample_ms = 0;
    request.reference = request.candidate;
    request.reference_name = "r0";
  }

  measuring::InterleavedResult run()
  {
    measuring::InterleavedSession session(journal, candidate, reference, request, observer);
    auto detached = measuring::DetachedReport::from_environment();
    return session.run(git::CodeState{}, git::CodeState{}, false, detached);
  }
};

} // namespace

TEST_CASE("an interleaved session records both runs and one comparison of its rounds")
{
  InterleavedFixture fixture("ms=9\n", "ms=10\n");
  fixture.request.seed = 42;
  const auto result = fixture.run();
  CHECK(result.candidate.status == ej::core::RunStatus::Finished);
  CHECK(result.reference.status == ej::core::RunStatus::Finished);
  CHECK(result.rounds == 6);
  CHECK(result.stopped == core::SessionStop::Rounds);
  CHECK(fixture.observer.runs_started == 1); // the blocks are one session to the front end
  CHECK(fixture.observer.runs_ended == 1);
  const auto record = store::interleaved_comparison_of(fixture.journal.db(), result.reference.run);
  REQUIRE(record);
  CHECK(record->candidate == result.candidate.run);
  CHECK(record->reference == result.reference.run);
  CHECK(record->design.seed == "42");
  REQUIRE(record->design.rounds.size() == 6);
  int reference_first = 0;
  for (std::size_t i = 0; i < record->design.rounds.size(); ++i) {
    const auto& round = record->design.rounds[i];
    CHECK(round.candidate_end - round.candidate_first == 1);
    CHECK(round.reference_end - round.reference_first_index == 1);
    reference_first += round.reference_first ? 1 : 0;
  }
  CHECK(reference_first > 0); // seed 42 draws both orders in 6 rounds
  CHECK(reference_first < 6);
  const auto series = measuring::paired_series(fixture.journal.db(), record->candidate, record->reference,
                                               record->design.rounds);
  std::vector<double> ms_candidate;
  std::vector<double> ms_reference;
  for (const auto& s : series) {
    if (s.metric == "ms") {
      ms_candidate = s.candidate;
      ms_reference = s.reference;
    }
  }
  CHECK(ms_candidate == std::vector<double>(6, 9.0));
  CHECK(ms_reference == std::vector<double>(6, 10.0));
  const auto reference_run = store::find_run(fixture.journal.db(), result.reference.run);
  REQUIRE(reference_run);
  CHECK(reference_run->label == "interleaved with run #1");
}

TEST_CASE("the candidate's run ends last, after the reference and the comparison are recorded")
{
  // A detached session is named by its candidate: whoever waits for that run to end must find the
  // session's comparison there, not race its writing.
  InterleavedFixture fixture("ms=9\n", "ms=10\n");
  fixture.request.rounds = 2;
  const auto result = fixture.run();
  const auto candidate = store::find_run(fixture.journal.db(), result.candidate.run);
  REQUIRE(candidate);
  auto last = fixture.journal.db().prepare("SELECT type, payload FROM events ORDER BY seq DESC LIMIT 2");
  const auto events = last.rows([](store::Statement& row) { return std::pair(row.text(0), row.text(1)); });
  REQUIRE(events.size() == 2);
  CHECK(events[0].first == "run.finished");
  CHECK_THAT(events[0].second, Catch::Contains(candidate->id));
  CHECK(events[1].first == "comparison.interleaved");
}

TEST_CASE("the same seed draws the same order of rounds")
{
  std::vector<bool> orders[2];
  for (auto& order : orders) {
    InterleavedFixture fixture("ms=9\n", "ms=10\n");
    fixture.request.seed = 1234;
    fixture.request.rounds = 8;
    const auto result = fixture.run();
    const auto record = store::interleaved_comparison_of(fixture.journal.db(), result.candidate.run);
    REQUIRE(record);
    for (const auto& round : record->design.rounds) {
      order.push_back(round.reference_first);
    }
  }
  CHECK(orders[0].size() == 8);
  CHECK(orders[0] == orders[1]);
}

TEST_CASE("until decisive, the rounds stop at the first decisive look of the plan")
{
  InterleavedFixture fixture("ms=9\n", "ms=10\n");
  fixture.request.until_decisive = true;
  fixture.request.max_rounds = 40;
  const auto result = fixture.run();
  CHECK(result.stopped == core::SessionStop::Decisive);
  CHECK(result.rounds < 40);
  CHECK(result.rounds > 1);
  const auto record = store::interleaved_comparison_of(fixture.journal.db(), result.candidate.run);
  REQUIRE(record);
  CHECK(record->design.max_rounds == 40);
  CHECK(static_cast<int>(record->design.rounds.size()) == result.rounds);
}

TEST_CASE("a side that fails stops the session and the other side says why")
{
  InterleavedFixture fixture("ms=9\n", "no value here\n");
  const auto result = fixture.run();
  CHECK(result.reference.status == ej::core::RunStatus::ExtractError);
  CHECK(result.candidate.status == ej::core::RunStatus::Failed);
  CHECK_THAT(result.candidate.reason,
             Catch::Contains("the interleaved session stopped: run #2 extract-error"));
  CHECK(result.stopped == core::SessionStop::Failed);
  CHECK(result.failed == measuring::InterleavedResult::Side::Reference);

  InterleavedFixture other("no value here\n", "ms=10\n");
  const auto failed = other.run();
  CHECK(failed.candidate.status == ej::core::RunStatus::ExtractError);
  CHECK(failed.failed == measuring::InterleavedResult::Side::Candidate);
}

TEST_CASE("until decisive, the rounds stop on the metric and minimum effect asked for, recorded with them")
{
  // -10% is beyond the benchmark's 2% (improved), and within 50%: equivalent, as ej bisect asks.
  InterleavedFixture fixture("ms=9\n", "ms=10\n");
  fixture.request.until_decisive = true;
  fixture.request.max_rounds = 40;
  fixture.request.metric = "ms";
  fixture.request.min_effect_pct = 50;
  fixture.request.candidate_name = "commit 1a2b3c";
  const auto result = fixture.run();
  CHECK(result.stopped == core::SessionStop::Decisive);
  CHECK(std::any_of(fixture.observer.messages.begin(), fixture.observer.messages.end(),
                    [](const std::string& line) { return line.find("(equivalent)") != std::string::npos; }));
  CHECK(std::any_of(
      fixture.observer.messages.begin(), fixture.observer.messages.end(),
      [](const std::string& line) { return line.find("run #1 (commit 1a2b3c)") != std::string::npos; }));
  const auto record = store::interleaved_comparison_of(fixture.journal.db(), result.candidate.run);
  REQUIRE(record);
  CHECK(record->design.metric == "ms");
  CHECK(record->design.min_effect_pct == 50);

  // Without them: the benchmark's primary metric and minimum effect, and nothing recorded.
  InterleavedFixture plain("ms=9\n", "ms=10\n");
  plain.request.until_decisive = true;
  plain.request.max_rounds = 40;
  const auto plain_result = plain.run();
  CHECK(std::any_of(plain.observer.messages.begin(), plain.observer.messages.end(),
                    [](const std::string& line) { return line.find("(improved)") != std::string::npos; }));
  const auto plain_record = store::interleaved_comparison_of(plain.journal.db(), plain_result.candidate.run);
  REQUIRE(plain_record);
  CHECK(plain_record->design.metric.empty());
  CHECK_FALSE(plain_record->design.min_effect_pct);
}

TEST_CASE("a metric the benchmark does not measure, or a minimum effect of 100%, is refused")
{
  InterleavedFixture fixture("ms=9\n", "ms=10\n");
  fixture.request.metric = "tok_s";
  CHECK_THROWS_WITH(fixture.run(), Catch::Contains("--metric tok_s: benchmark b measures no such metric; it "
                                                   "measures wall_s, ms"));
  fixture.request.metric = "wall_s";
  fixture.request.min_effect_pct = 100;
  CHECK_THROWS_AS(fixture.run(), UsageError);
  CHECK(store::find_run(fixture.journal.db(), 1) == std::nullopt); // nothing recorded
}

TEST_CASE("a maximum of rounds needs until-decisive, and fixed rounds do not go with it")
{
  InterleavedFixture fixture("ms=9\n", "ms=10\n");
  fixture.request.max_rounds = 10;
  CHECK_THROWS_AS(fixture.run(), UsageError);
  fixture.request.until_decisive = true;
  fixture.request.rounds = 5;
  CHECK_THROWS_AS(fixture.run(), UsageError);
}
