// The verdict lines listings print: kept by a render with what they were judged from, used only
// while the journal still holds exactly that, and the same text judging gives.
#include "evidence/document_data.h"
#include "evidence/reader.h"
#include "evidence/verdict.h"
#include "evidence/verdict_line.h"
#include "store/projection.h"
#include "store/queries.h"
#include "store/verdict_cache.h"
#include "unit/evidence/test_journal.h"

#include <catch2/catch.hpp>

#include <map>

using namespace ej;
using test::TestJournal;

namespace {

const std::vector<double> k_ten_ms{10.0, 10.1, 9.9, 10.2, 9.8, 10.05, 9.95, 10.15, 9.85, 10.0};
const std::vector<double> k_four_ms{4.0, 4.04, 3.96, 4.08, 3.92, 4.02, 3.98, 4.06, 3.94, 4.0};
constexpr std::string_view k_maker = "ej test (commit 0123456789ab)";

// Plan p with benchmark b; attempt 1 holds the baseline run, attempt 2 a faster run.
void kept_lines_campaign(TestJournal& j)
{
  j.plan("p");
  j.bench("b");
  j.attempt(1, "p");
  j.attempt(2, "p");
  j.run(1, 1, {{{}, k_ten_ms}});
  j.run(2, 2, {{{}, k_four_ms}});
  j.baseline("p", 1);
}

// Keeps a marked line for every attempt of p, with what the journal holds now: a line read back
// is told apart from one judged again.
void keep_marked(TestJournal& j, std::string_view maker = k_maker)
{
  auto& db = j.journal().db();
  std::vector<store::CachedVerdict> lines;
  for (const auto& [attempt, inputs] : store::verdict_inputs_of_plan(db, "p")) {
    lines.push_back({attempt, inputs, "kept #" + std::to_string(attempt)});
  }
  store::WriteTransaction transaction(db);
  store::keep_verdicts(db, maker, lines);
  transaction.commit();
}

std::vector<std::optional<std::string>> lines_of(TestJournal& j, std::string_view maker = k_maker)
{
  store::AttemptFilter filter;
  filter.plan = "p";
  const auto attempts = store::list_attempts(j.journal().db(), filter); // newest first
  evidence::Reader reader(j.journal());
  return evidence::verdict_lines(reader, attempts, maker);
}

bool is_kept(const std::optional<std::string>& line)
{
  return line && line->starts_with("kept #");
}

} // namespace

TEST_CASE("a kept verdict line is read while the journal holds what it was judged from")
{
  TestJournal j;
  kept_lines_campaign(j);
  keep_marked(j);
  auto now = lines_of(j);
  REQUIRE(now.size() == 2);
  CHECK(now[0] == "kept #2");
  CHECK(now[1] == "kept #1");
  // Another build may word it otherwise: judged again.
  now = lines_of(j, "ej other (commit ba9876543210)");
  REQUIRE(now[0]);
  CHECK_THAT(*now[0], Catch::Contains("-60.0% ["));
  CHECK_FALSE(now[1]); // the baseline itself has no verdict
}

TEST_CASE("a new run of the attempt, a baseline pinned, a target or a benchmark changed judge it again")
{
  TestJournal j;
  kept_lines_campaign(j);

  keep_marked(j);
  j.run(3, 2, {{{}, k_ten_ms}});
  auto now = lines_of(j);
  CHECK_FALSE(is_kept(now[0])); // attempt 2 has a run more
  CHECK(now[1] == "kept #1");

  keep_marked(j);
  j.baseline("p", 2);
  now = lines_of(j);
  CHECK_FALSE(is_kept(now[0]));
  CHECK_FALSE(is_kept(now[1]));

  keep_marked(j);
  j.journal().write([](store::Writer& writer) {
    writer.append("plan.edited", {{"slug", "p"}, {"target", "time_ms < 5"}});
  });
  now = lines_of(j);
  CHECK_FALSE(is_kept(now[0]));

  keep_marked(j);
  j.bench("b", "time_ms", false, "ms", 2);
  now = lines_of(j);
  CHECK_FALSE(is_kept(now[0]));
  CHECK_FALSE(is_kept(now[1]));
}

TEST_CASE("a line judged while a run of the attempt or a baseline run is running is never kept")
{
  TestJournal j;
  kept_lines_campaign(j);
  j.run(3, 2, {{{}, k_ten_ms}}, "", "b", 1, "started");
  keep_marked(j);
  CHECK(j.journal().db().query_integer("SELECT count(*) FROM verdict_cache") == 1); // attempt 1's
  auto now = lines_of(j);
  CHECK_FALSE(is_kept(now[0]));
  CHECK(now[1] == "kept #1");

  // A running baseline run: no line of the plan may be kept.
  j.attempt(3, "p");
  j.run(4, 3, {{{}, k_ten_ms}}, "", "b", 1, "started");
  j.baseline("p", 4);
  CHECK(store::verdict_inputs_of_plan(j.journal().db(), "p").empty());
}

TEST_CASE("a line judged while an environment snapshot of its runs or baseline is missing is never kept")
{
  TestJournal j;
  j.plan("p");
  j.bench("b");
  j.attempt(1, "p");
  j.attempt(2, "p");
  const auto present = j.environment({{"host", "a"}});
  const std::string missing(64, 'e'); // a snapshot an export without blobs left behind
  j.run(1, 1, {{{}, k_ten_ms}}, present);
  j.run(2, 2, {{{}, k_four_ms}}, missing);
  j.baseline("p", 1);
  auto inputs = store::verdict_inputs_of_plan(j.journal().db(), "p");
  CHECK(inputs.contains(1));
  CHECK_FALSE(inputs.contains(2)); // its run's snapshot may arrive and change the line
  keep_marked(j);
  auto now = lines_of(j);
  CHECK_FALSE(is_kept(now[0]));
  CHECK(now[1] == "kept #1");

  // A missing snapshot of the baseline run unsettles every line of the plan.
  j.attempt(3, "p");
  j.run(3, 3, {{{}, k_ten_ms}}, missing);
  j.baseline("p", 3);
  CHECK(store::verdict_inputs_of_plan(j.journal().db(), "p").empty());
}

TEST_CASE("a build that cannot be told from another neither keeps nor reads lines")
{
  TestJournal j;
  kept_lines_campaign(j);
  keep_marked(j, "");
  CHECK(j.journal().db().query_integer("SELECT count(*) FROM verdict_cache") == 0);
  keep_marked(j);
  CHECK_FALSE(is_kept(lines_of(j, "")[0]));
}

TEST_CASE("an attempt without runs has no verdict line, and reindex forgets every kept one")
{
  TestJournal j;
  kept_lines_campaign(j);
  j.attempt(3, "p");
  keep_marked(j);
  const auto now = lines_of(j);
  REQUIRE(now.size() == 3);
  CHECK_FALSE(now[0]); // no runs: not even the kept line is needed
  store::WriteTransaction transaction(j.journal().db());
  store::rebuild_derived_tables(j.journal().db());
  transaction.commit();
  CHECK(j.journal().db().query_integer("SELECT count(*) FROM verdict_cache") == 0);
}

TEST_CASE("the lines a render collects are the verdicts judging gives, with the inputs of the same snapshot")
{
  TestJournal j;
  kept_lines_campaign(j);
  j.attempt(3, "p");
  j.run(3, 3, {{{}, k_ten_ms}});
  std::optional<evidence::DocumentData> data;
  {
    store::ReadTransaction snapshot(j.journal().db());
    data = evidence::build_document_data(j.journal(), "p", "p.svg", evidence::VerdictLines::Collect);
  }
  REQUIRE(data->verdict_lines.size() == 3);
  const auto inputs = store::verdict_inputs_of_plan(j.journal().db(), "p");
  evidence::Reader reader(j.journal());
  for (const auto& line : data->verdict_lines) {
    INFO(line.attempt);
    const auto judged = evidence::judge_attempt(reader, line.attempt).verdict;
    CHECK(line.text == (judged ? std::optional(judged->text) : std::nullopt));
    CHECK(line.inputs == inputs.at(line.attempt));
  }
  // Skipped unless asked for: --check, --stdout and report keep nothing.
  store::ReadTransaction snapshot(j.journal().db());
  CHECK(evidence::build_document_data(j.journal(), "p", "p.svg").verdict_lines.empty());
}

namespace {

// The attempts a render of p keeps lines for, and the inputs it keeps them with.
std::map<int, store::VerdictInputs> collected(TestJournal& j)
{
  store::ReadTransaction snapshot(j.journal().db());
  const auto data = evidence::build_document_data(j.journal(), "p", "p.svg", evidence::VerdictLines::Collect);
  std::map<int, store::VerdictInputs> out;
  for (const auto& line : data.verdict_lines) {
    out.emplace(line.attempt, line.inputs);
  }
  return out;
}

} // namespace

TEST_CASE(
    "a render keeps the lines verdict_inputs_of_plan allows, with the same inputs, from the runs it read")
{
  TestJournal j;
  j.plan("p");
  j.bench("b");
  for (int attempt = 1; attempt <= 4; ++attempt) {
    j.attempt(attempt, "p");
  }
  const auto present = j.environment({{"host", "a"}});
  j.run(1, 1, {{{}, k_ten_ms}}, present);
  j.baseline("p", 1);
  j.run(2, 2, {{{}, k_four_ms}}, present);
  j.run(3, 2, {{{}, k_four_ms}});
  j.run(4, 3, {{{}, k_four_ms}}, std::string(64, 'e')); // its snapshot is missing
  j.run(5, 4, {{{}, k_four_ms}}, present);
  j.run(6, 4, {{{}, k_ten_ms}}, "", "b", 1, "started"); // still running
  const auto expected = store::verdict_inputs_of_plan(j.journal().db(), "p");
  CHECK(expected.size() == 2); // attempts 1 and 2
  CHECK(collected(j) == expected);

  // A baseline run still running: no line of the plan.
  j.attempt(5, "p");
  j.run(7, 5, {{{}, k_ten_ms}}, "", "b", 1, "started");
  j.baseline("p", 7);
  CHECK(store::verdict_inputs_of_plan(j.journal().db(), "p").empty());
  CHECK(collected(j).empty());
}

namespace {

// Keeps the lines a render of p collects, as ej plan render does.
void keep_rendered(TestJournal& j)
{
  auto& db = j.journal().db();
  std::vector<store::CachedVerdict> lines;
  {
    store::ReadTransaction snapshot(db);
    lines = evidence::build_document_data(j.journal(), "p", "p.svg", evidence::VerdictLines::Collect)
                .verdict_lines;
  }
  store::WriteTransaction transaction(db);
  store::keep_verdicts(db, k_maker, lines);
  transaction.commit();
}

// Each attempt of p's line judged now, newest first.
std::vector<std::optional<std::string>> judged_lines(TestJournal& j)
{
  store::AttemptFilter filter;
  filter.plan = "p";
  std::vector<std::optional<std::string>> out;
  for (const auto& attempt : store::list_attempts(j.journal().db(), filter)) {
    evidence::Reader reader(j.journal());
    const auto judged = evidence::judge_attempt(reader, attempt.number).verdict;
    out.push_back(judged ? std::optional(judged->text) : std::nullopt);
  }
  return out;
}

// Marks every kept line where its text begins, far from its note: read, a line starts with "K".
void mark_kept(TestJournal& j)
{
  j.journal().db().exec("UPDATE verdict_cache SET text = 'K' || substr(text, 2) WHERE text IS NOT NULL");
}

// The lines as judged, with those read marked as mark_kept marks them.
std::vector<std::optional<std::string>> marked(std::vector<std::optional<std::string>> lines)
{
  for (auto& line : lines) {
    if (line) {
      line->front() = 'K';
    }
  }
  return lines;
}

// Plan p of benchmarks b and c: attempt 1 holds the baseline run, attempts 2 and 3 faster runs, all
// on the 10th; the baseline pinned on the 11th.
void campaign_of_two_benchmarks(TestJournal& j)
{
  j.at("2026-01-10T00:00:00Z");
  kept_lines_campaign(j);
  j.bench("c");
  j.attempt(3, "p");
  j.run(3, 3, {{{}, k_four_ms}});
  j.run(4, 3, {{{}, k_four_ms}}, "", "c");
  j.at("2026-01-11T00:00:00Z");
  j.baseline("p", 1);
}

} // namespace

TEST_CASE("a line kept before a later pin is read with its note on the new baseline, as judging words it")
{
  TestJournal j;
  campaign_of_two_benchmarks(j);
  keep_rendered(j);
  CHECK(lines_of(j) == judged_lines(j));
  mark_kept(j);
  CHECK(lines_of(j) == marked(judged_lines(j))); // read, not judged

  // A new baseline of b, pinned after every run and pin the lines saw: the same verdicts against the
  // baseline then, each now saying which run the baseline is.
  j.at("2026-01-12T00:00:00Z");
  j.baseline("p", 3, "b", "new stack");
  const auto judged = judged_lines(j);
  REQUIRE(judged[0]);
  CHECK_THAT(*judged[0], Catch::Contains("vs run #1, the baseline then; the baseline is now run #3"));
  CHECK_FALSE(judged[2]); // attempt 1 holds the baseline then: no verdict, still
  CHECK(lines_of(j) == marked(judged));

  // And back to run #1: the note goes.
  j.at("2026-01-13T00:00:00Z");
  j.baseline("p", 1, "b", "back");
  CHECK(lines_of(j) == marked(judged_lines(j)));
  REQUIRE(lines_of(j)[0]);
  CHECK_THAT(*lines_of(j)[0], !Catch::Contains("the baseline is now"));
}

TEST_CASE("a pin before a line's runs or pins, or of a benchmark first pinned, judges the line again")
{
  SECTION("a pin dated before the runs the lines were judged from")
  {
    TestJournal j;
    campaign_of_two_benchmarks(j);
    keep_rendered(j);
    mark_kept(j);
    j.at("2026-01-09T00:00:00Z");
    j.baseline("p", 2, "b", "synced from a replica");
    CHECK(lines_of(j) == judged_lines(j)); // none read
  }
  SECTION("a pin dated between the runs and the pin the lines saw")
  {
    TestJournal j;
    campaign_of_two_benchmarks(j);
    keep_rendered(j);
    mark_kept(j);
    j.at("2026-01-10T12:00:00Z");
    j.baseline("p", 2);
    CHECK(lines_of(j) == judged_lines(j));
  }
  SECTION("the first pin of another benchmark the attempts ran")
  {
    TestJournal j;
    campaign_of_two_benchmarks(j);
    keep_rendered(j);
    mark_kept(j);
    j.at("2026-01-12T00:00:00Z");
    j.baseline("p", 4, "c");
    CHECK(lines_of(j) == judged_lines(j));
  }
  SECTION("a line kept without what a later pin needs")
  {
    TestJournal j;
    campaign_of_two_benchmarks(j);
    keep_marked(j); // as an older build kept them: no LaterPins
    j.at("2026-01-12T00:00:00Z");
    j.baseline("p", 3);
    for (const auto& line : lines_of(j)) {
      CHECK_FALSE(is_kept(line));
    }
  }
}

TEST_CASE("attempts a listing judges together get the verdicts judging each alone gives")
{
  TestJournal j;
  kept_lines_campaign(j);
  j.plan("q");
  j.attempt(3, "q");
  j.run(3, 3, {{{}, k_four_ms}});
  j.baseline("q", 3);
  j.attempt(4, "p");
  j.run(4, 4, {{{}, k_ten_ms}});
  j.run(5, 4, {{{}, k_four_ms}});
  const auto attempts = store::list_attempts(j.journal().db(), {}); // both plans', newest first
  REQUIRE(attempts.size() == 4);
  evidence::Reader together(j.journal());
  const auto lines = evidence::verdict_lines(together, attempts, k_maker); // nothing kept: all judged
  for (std::size_t i = 0; i < attempts.size(); ++i) {
    INFO(attempts[i].number);
    evidence::Reader alone(j.journal());
    const auto judged = evidence::judge_attempt(alone, attempts[i].number).verdict;
    CHECK(lines[i] == (judged ? std::optional(judged->text) : std::nullopt));
  }
  REQUIRE(lines[0]);
  CHECK_THAT(*lines[0], Catch::Contains("vs run #1"));
}
