#include "evidence/evaluation.h"
#include "evidence/proposal.h"
#include "evidence/reader.h"
#include "unit/evidence/test_journal.h"
#include "util/error.h"

#include <catch2/catch.hpp>

using namespace ej;
using evidence::Reader;
using evidence::TargetState;
using test::Combination;
using test::TestJournal;

namespace {

// Five samples around `center`, 0.2% apart: tight enough for a test to decide.
std::vector<double> around(double center)
{
  return {center * 0.998, center * 0.999, center, center * 1.001, center * 1.002};
}

Combination at(int concurrency, double center)
{
  return {{{"concurrency", std::to_string(concurrency)}}, around(center)};
}

// The campaign's shape: serve (tok_s, a concurrency sweep, higher is better) and verify (verify_ms,
// lower is better); plan p measures both, tok_s at concurrency=1 first, with the target
// verify_ms < 15. Attempt 1 is the reference (its runs are the baselines), 2.. are candidates.
void campaign(TestJournal& j, const std::vector<std::string>& targets = {"verify_ms < 15"})
{
  j.bench("serve", "tok_s", true, "tok/s", 1, {{"concurrency", {"1", "2", "4", "8"}}});
  j.bench("verify", "verify_ms", false, "ms");
  j.plan("p", {"serve:tok_s@concurrency=1", "verify:verify_ms"}, targets);
  for (int number = 1; number <= 4; ++number) {
    j.attempt(number, "p");
  }
}

void serve_run(TestJournal& j, int run, int attempt, std::vector<double> centers)
{
  j.samples_of("tok_s", "tok/s");
  j.run(run, attempt, {at(1, centers[0]), at(2, centers[1]), at(4, centers[2]), at(8, centers[3])}, "",
        "serve");
}

void verify_run(TestJournal& j, int run, int attempt, double center)
{
  j.samples_of("verify_ms", "ms");
  j.run(run, attempt, {{{}, around(center)}}, "", "verify");
}

} // namespace

TEST_CASE("A target on another benchmark's metric is evaluated on the attempt's runs of that benchmark")
{
  TestJournal j;
  campaign(j, {"verify:verify_ms < 15"});
  serve_run(j, 1, 1, {89.5, 170, 320, 580});
  verify_run(j, 2, 1, 30);
  j.baseline("p", 1, "serve");
  j.baseline("p", 2, "verify");
  serve_run(j, 3, 2, {96.1, 176, 320, 540});
  verify_run(j, 4, 2, 12.5);
  serve_run(j, 5, 3, {95, 175, 321, 560});
  verify_run(j, 6, 4, 29.8);

  Reader reader(j.journal());
  const auto met = evidence::evaluate_attempt(reader, 2);
  REQUIRE(met);
  REQUIRE(met->targets.size() == 1);
  CHECK(met->targets[0].state == TargetState::Met);
  CHECK(met->targets[0].bench == "verify");
  CHECK(met->targets[0].text() == "verify_ms 12.50 ms meets < 15");
  CHECK(met->verdicts.size() == 2); // serve and verify, each against its own baseline
  CHECK(met->verdicts[0].candidate.bench == "serve");
  CHECK(met->verdicts[0].baseline_run == 1);
  CHECK(met->verdicts[1].candidate.bench == "verify");
  CHECK(met->verdicts[1].baseline_run == 2);
  CHECK(met->missing.empty());

  const auto unmeasured = evidence::evaluate_attempt(reader, 3);
  REQUIRE(unmeasured);
  CHECK(unmeasured->targets[0].state == TargetState::NotMeasured);
  CHECK(unmeasured->targets[0].text() == "verify_ms < 15 not measured");

  const auto missed = evidence::evaluate_attempt(reader, 4);
  REQUIRE(missed);
  CHECK(missed->targets[0].state == TargetState::NotMet);
  CHECK(missed->targets[0].text() == "verify_ms 29.80 ms misses < 15");
  // The reference's own runs are the baselines: not judged, and not missing either.
  const auto reference = evidence::evaluate_attempt(reader, 1);
  REQUIRE(reference);
  CHECK(reference->verdicts.empty());
  CHECK(reference->missing.empty());
  CHECK(reference->targets[0].state == TargetState::NotMet);
}

TEST_CASE(
    "An attempt with no baseline for one benchmark gets the others judged and one line on what is missing")
{
  TestJournal j;
  campaign(j);
  serve_run(j, 1, 1, {89.5, 170, 320, 580});
  j.baseline("p", 1, "serve");
  serve_run(j, 2, 2, {96.1, 176, 320, 540});
  verify_run(j, 3, 2, 12.5);

  Reader reader(j.journal());
  const auto evaluation = evidence::evaluate_attempt(reader, 2);
  REQUIRE(evaluation);
  REQUIRE(evaluation->verdicts.size() == 1);
  CHECK(evaluation->verdicts[0].candidate.bench == "serve");
  REQUIRE(evaluation->missing.size() == 1);
  CHECK(evaluation->missing[0].bench == "verify");
  CHECK(evaluation->missing[0].no_baseline);
  CHECK(evaluation->missing[0].why == "plan p has no baseline for benchmark verify; pin one with 'ej plan "
                                      "baseline p --run N'");
  // The target is still evaluated on the verify runs: it needs no baseline.
  CHECK(evaluation->targets[0].state == TargetState::Met);
  const auto proposal = evidence::propose_status(*evaluation);
  REQUIRE(proposal);
  CHECK_THAT(proposal->reason, Catch::EndsWith("; verify_ms 12.50 ms meets < 15; no baseline for verify"));
}

TEST_CASE("The reason judge records is one sentence: the decisive figures at the headline combination and "
          "the targets")
{
  TestJournal j;
  campaign(j);
  serve_run(j, 1, 1, {89.5, 170, 320, 580});
  verify_run(j, 2, 1, 30);
  j.baseline("p", 1, "serve");
  j.baseline("p", 2, "verify");
  // Wins at low concurrency and loses at 8: mixed over the sweep, improved where the plan looks.
  serve_run(j, 3, 2, {96.1, 176, 320, 540});
  verify_run(j, 4, 2, 12.5);

  Reader reader(j.journal());
  const auto evaluation = evidence::evaluate_attempt(reader, 2);
  REQUIRE(evaluation);
  const auto& lead = *evaluation->lead_verdict();
  CHECK(lead.outcome == measure::Outcome::Mixed);
  CHECK(lead.decisive_outcome() == measure::Outcome::Improved);
  CHECK(lead.crossover ==
        "wins at concurrency <= 2, inconclusive at 4, loses at 8"); // no minimum effect: no "no change"
  const auto proposal = evidence::propose_status(*evaluation);
  REQUIRE(proposal);
  CHECK(proposal->status == core::Status::Adopted);
  CHECK(proposal->reason ==
        "improved tok_s +7.37% at concurrency=1 (89.50 -> 96.10 tok/s); verify_ms 12.50 ms meets < 15");
  CHECK(proposal->reason.find('\n') == std::string::npos);
  CHECK(proposal->reason.size() < 120); // the evidence is the attempt's section's, not the reason's
}

TEST_CASE("An improvement whose target is missed is rejected, as the break-even rule says")
{
  TestJournal j;
  campaign(j);
  serve_run(j, 1, 1, {89.5, 170, 320, 580});
  verify_run(j, 2, 1, 30);
  j.baseline("p", 1, "serve");
  j.baseline("p", 2, "verify");
  serve_run(j, 3, 2, {97.5, 180, 330, 590});
  verify_run(j, 4, 2, 16.2);

  Reader reader(j.journal());
  const auto proposal = evidence::propose_status(*evidence::evaluate_attempt(reader, 2));
  REQUIRE(proposal);
  CHECK(proposal->status == core::Status::Rejected);
  CHECK_THAT(proposal->reason, Catch::StartsWith("improved tok_s +8.94% at concurrency=1") &&
                                   Catch::EndsWith("; verify_ms 16.20 ms misses < 15"));
}

TEST_CASE("Without a headline combination a sweep is judged whole and the reason says where it wins")
{
  TestJournal j;
  j.bench("serve", "tok_s", true, "tok/s", 1, {{"concurrency", {"1", "2", "4", "8"}}});
  j.plan("p", {"serve:tok_s"}, {});
  j.attempt(1, "p");
  j.attempt(2, "p");
  serve_run(j, 1, 1, {89.5, 170, 320, 580});
  j.baseline("p", 1, "serve");
  serve_run(j, 2, 2, {96.1, 176, 320, 540});
  Reader reader(j.journal());
  const auto proposal = evidence::propose_status(*evidence::evaluate_attempt(reader, 2));
  REQUIRE(proposal);
  CHECK(proposal->status == core::Status::Inconclusive);
  CHECK(proposal->reason ==
        "mixed tok_s over 4 combinations (wins at concurrency <= 2, inconclusive at 4, loses at 8)");
}

TEST_CASE("A plan's --headline applies to the measures whose benchmark has its axes")
{
  TestJournal j;
  j.bench("serve", "tok_s", true, "tok/s", 1, {{"concurrency", {"1", "2", "4", "8"}}});
  j.bench("verify", "verify_ms", false, "ms");
  j.plan("p", {"serve:tok_s", "verify:verify_ms"}, {}, "concurrency=2");
  Reader reader(j.journal());
  const auto& measures = reader.measures("p");
  REQUIRE(measures.measures.size() == 2);
  CHECK(core::describe(measures.measures[0].headline) == "concurrency=2");
  CHECK(measures.measures[1].headline.empty()); // verify has no concurrency axis
  CHECK(measures.measures[0].unit == "tok/s");
  CHECK(measures.measures[0].higher_is_better);
  CHECK(measures.measures[1].unit == "ms");
  CHECK_FALSE(measures.measures[1].higher_is_better);
}

TEST_CASE("A plan without measures is measured by its one benchmark's primary metric, as before")
{
  TestJournal j;
  j.bench("b", "time_ms");
  j.plan("p", "time_ms < 5");
  j.attempt(1, "p");
  j.run(1, 1, {{{}, around(10)}}, "", "b");
  j.baseline("p", 1, "b");
  Reader reader(j.journal());
  const auto& measures = reader.measures("p");
  REQUIRE(measures.measures.size() == 1);
  CHECK(measures.measures[0].bench == "b");
  CHECK(measures.measures[0].metric == "time_ms");
  CHECK_FALSE(measures.measures[0].declared);
  REQUIRE(measures.targets.size() == 1);
  CHECK(measures.targets[0].bench.empty()); // applies to whichever benchmark measures it
}

TEST_CASE("A target names the benchmark that measures it, and an ambiguous one is refused with the choices")
{
  TestJournal j;
  j.bench("serve", "tok_s", true, "tok/s");
  j.bench("verify", "verify_ms", false, "ms");
  j.bench("verify-old", "verify_ms", false, "ms");
  auto& db = j.journal().db();
  const std::vector<core::PlanMeasure> measures{{"serve", "tok_s", {}}, {"verify", "verify_ms", {}}};
  CHECK(evidence::bind_target(db, core::parse_target("verify_ms < 15"), measures).bench == "verify");
  CHECK(evidence::bind_target(db, core::parse_target("tok_s > 92.6"), measures).bench == "serve");
  // Without measures, two benchmarks measure verify_ms: the user names one.
  try {
    evidence::bind_target(db, core::parse_target("verify_ms < 15"), {});
    FAIL("an ambiguous target was accepted");
  } catch (const UsageError& error) {
    CHECK_THAT(error.what(), Catch::Contains("benchmarks verify, verify-old all measure verify_ms") &&
                                 Catch::Contains("'verify:verify_ms < 15' or 'verify-old:verify_ms < 15'"));
  }
  CHECK(evidence::bind_target(db, core::parse_target("verify-old:verify_ms < 15"), {}).bench == "verify-old");
  CHECK_THROWS_AS(evidence::bind_target(db, core::parse_target("serve:verify_ms < 15"), {}), UsageError);
  // A metric no benchmark has stays unbound: the benchmark may come later.
  CHECK(evidence::bind_target(db, core::parse_target("p99_ms < 40"), measures).bench.empty());
}
