#include "evidence/plan_prefetch.h"
#include "evidence/reader.h"
#include "store/queries.h"
#include "support/temp_dir.h"
#include "unit/evidence/test_journal.h"

#include <catch2/catch.hpp>

using namespace ej;

namespace {

// Plan p: attempts 1-5, with 0-3 runs each (attempt 2 has none); plan q: attempt 6.
void fill(test::TestJournal& t)
{
  t.plan("p");
  t.plan("q");
  t.bench("b");
  for (int attempt = 1; attempt <= 6; ++attempt) {
    t.attempt(attempt, attempt == 6 ? "q" : "p");
  }
  int run = 0;
  for (const int attempt : {1, 3, 1, 4, 5, 6, 5, 5, 3}) {
    ++run;
    t.run(run, attempt, {{{}, {10.0 + run, 11.0 + run, 12.0 + run}}});
  }
  t.imported(++run, 4, 42.0);
}

std::vector<int> run_numbers(const std::vector<core::RunRecord>& runs)
{
  std::vector<int> out;
  for (const auto& run : runs) {
    out.push_back(run.number);
  }
  return out;
}

std::map<int, std::vector<double>> values_by_run(const evidence::StreamedAttempt& attempt)
{
  std::map<int, std::vector<double>> out;
  for (const auto& [run, series] : attempt.series) {
    for (const auto& s : series) {
      out[run].insert(out[run].end(), s.values.begin(), s.values.end());
    }
  }
  return out;
}

} // namespace

TEST_CASE("a plan read ahead on a thread gives each attempt as its own connection reads it")
{
  test::TempDir dir;
  test::TestJournal t(dir / "ej");
  fill(t);
  auto& db = t.journal().db();
  store::ReadTransaction snapshot(db);
  CHECK(store::list_attempts(db, {}).size() == 6); // the snapshot is taken by a read
  auto prefetch = evidence::PlanPrefetch::start(db, "p", {1, 2, 3, 4, 5});
  REQUIRE(prefetch != nullptr);
  store::PlanStream stream(db, "p");
  for (const int attempt : {1, 2, 4, 5}) { // 3 is never asked for: passed over
    INFO("attempt " << attempt);
    auto ahead = prefetch->take(attempt);
    REQUIRE(ahead != nullptr);
    const auto here = evidence::read_attempt(stream, attempt);
    CHECK(ahead->number == attempt);
    CHECK(run_numbers(ahead->runs) == run_numbers(here.runs));
    CHECK(values_by_run(*ahead) == values_by_run(here));
    CHECK(ahead->device_repeats.size() == here.device_repeats.size());
    prefetch->dispose(std::move(ahead)); // freed on the thread
  }
  store::PlanStream again(db, "p");
  CHECK(run_numbers(evidence::read_attempt(again, 5).runs) == std::vector<int>{8, 7, 5});
  CHECK(prefetch->take(3) == nullptr); // asked for after a later one
  CHECK(prefetch->take(6) == nullptr); // plan q's
}

TEST_CASE("asking a plan read ahead for an attempt far along frees the room the thread waits for")
{
  test::TempDir dir;
  test::TestJournal t(dir / "ej");
  t.plan("p");
  t.bench("b");
  std::vector<int> numbers;
  for (int attempt = 1; attempt <= 150; ++attempt) {
    t.attempt(attempt, "p");
    numbers.push_back(attempt);
  }
  t.run(1, 150, {{{}, {1.0, 2.0, 3.0}}});
  auto& db = t.journal().db();
  store::ReadTransaction snapshot(db);
  CHECK(store::list_attempts(db, {}).size() == 150);
  auto prefetch = evidence::PlanPrefetch::start(db, "p", numbers);
  REQUIRE(prefetch != nullptr);
  // More attempts than the thread reads ahead lie before it: they are dropped, the thread goes on.
  const auto last = prefetch->take(150);
  REQUIRE(last != nullptr);
  CHECK(run_numbers(last->runs) == std::vector<int>{1});
}

TEST_CASE("a plan is not read ahead from a journal in memory or from one written since the snapshot")
{
  test::TestJournal memory;
  fill(memory);
  {
    store::ReadTransaction snapshot(memory.journal().db());
    CHECK(evidence::PlanPrefetch::start(memory.journal().db(), "p", {1}) == nullptr);
  }
  test::TempDir dir;
  test::TestJournal t(dir / "ej");
  fill(t);
  auto& db = t.journal().db();
  store::ReadTransaction snapshot(db);
  CHECK(store::list_attempts(db, {}).size() == 6);
  {
    test::TestJournal elsewhere(dir / "ej"); // another connection writes, as another ej would
    elsewhere.attempt(7, "p");
  }
  CHECK(evidence::PlanPrefetch::start(db, "p", {1, 2, 3, 4, 5}) == nullptr);
  // The Reader then reads on its own connection, what its snapshot holds.
  evidence::Reader reader(t.journal());
  reader.stream_plan("p", store::list_attempts(db, {}), evidence::Reader::Ahead::OnThread);
  CHECK(run_numbers(reader.runs_of_attempt(1)) == std::vector<int>{3, 1});
  CHECK(reader.runs_of_attempt(2).empty());
}

TEST_CASE("a Reader streaming a plan on a thread forgets an attempt it is done with and reads it again")
{
  test::TempDir dir;
  test::TestJournal t(dir / "ej");
  t.plan("p");
  t.bench("b");
  for (int attempt = 1; attempt <= 200; ++attempt) { // more than the thread reads ahead, three times
    t.attempt(attempt, "p");
    t.run(attempt, attempt, {{{}, {1.0 * attempt, 2.0 * attempt}}});
  }
  auto& db = t.journal().db();
  store::ReadTransaction snapshot(db);
  const auto attempts = store::list_attempts(db, {});
  REQUIRE(attempts.size() == 200);
  evidence::Reader reader(t.journal());
  reader.stream_plan("p", attempts, evidence::Reader::Ahead::OnThread);
  for (int attempt = 1; attempt <= 200; ++attempt) {
    INFO("attempt " << attempt);
    REQUIRE(run_numbers(reader.runs_of_attempt(attempt)) == std::vector<int>{attempt});
    const auto& series = reader.series_of_run(attempt);
    REQUIRE(series.size() == 1);
    CHECK(series.front().values == std::vector<double>{1.0 * attempt, 2.0 * attempt});
    CHECK(reader.throttled(reader.runs_of_attempt(attempt).front()).repeats_with_state == 0);
    reader.forget_attempt(attempt); // given back to the thread, which frees it
  }
  // Forgotten, and the stream passed: read again from the journal, the same.
  CHECK(run_numbers(reader.runs_of_attempt(7)) == std::vector<int>{7});
  CHECK(reader.series_of_run(7).front().values == std::vector<double>{7.0, 14.0});
  reader.end_stream();
  CHECK(reader.series_of_run(8).front().values == std::vector<double>{8.0, 16.0});
}
