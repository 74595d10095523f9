#include "evidence/evaluation.h"
#include "evidence/proposal.h"
#include "evidence/reader.h"
#include "evidence/verdict.h"
#include "unit/evidence/test_journal.h"
#include "util/error.h"

#include <catch2/catch.hpp>

using namespace ej;
using evidence::Against;
using evidence::Reader;
using test::Combination;
using test::TestJournal;

namespace {

const std::vector<double> k_ten{10.0, 10.1, 9.9, 10.2, 9.8, 10.05, 9.95, 10.15, 9.85, 10.0};
const std::vector<double> k_ten_again{10.02, 10.08, 9.92, 10.18, 9.82, 10.04, 9.96, 10.12, 9.88, 10.01};
const std::vector<double> k_four{4.0, 4.04, 3.96, 4.08, 3.92, 4.02, 3.98, 4.06, 3.94, 4.0};
const std::vector<double> k_eleven{11.0, 11.1, 10.9, 11.2, 10.8, 11.05, 10.95, 11.15, 10.85, 11.0};

Combination at(const std::string& size, std::vector<double> values)
{
  return {{{"size", size}}, std::move(values)};
}

// A plan p with benchmark b (time_ms, lower is better), attempts 1 and 2.
void campaign(TestJournal& j, const std::string& target = "")
{
  j.plan("p", target);
  j.bench("b");
  j.attempt(1, "p");
  j.attempt(2, "p");
}

} // namespace

TEST_CASE("A sweep is judged combination by combination, not on its first value")
{
  TestJournal j;
  campaign(j);
  j.run(1, 1, {at("1", k_ten), at("2", k_ten)});
  j.run(2, 2, {at("1", k_ten_again), at("2", k_four)});
  j.baseline("p", 1);
  Reader reader(j.journal());
  const auto judgement = evidence::judge_attempt(reader, 2);
  REQUIRE(judgement.verdict);
  const auto& v = *judgement.verdict;
  REQUIRE(v.combinations.size() == 2);
  CHECK(v.combinations[0].params == "size=1");
  CHECK(v.combinations[0].comparison.outcome != measure::Outcome::Improved);
  CHECK(v.combinations[1].params == "size=2");
  CHECK(v.combinations[1].comparison.outcome == measure::Outcome::Improved);
  CHECK(*v.combinations[1].comparison.change_pct == Approx(-60.0).margin(0.5));
  // At least one improved and none regressed.
  CHECK(v.outcome == measure::Outcome::Improved);
  CHECK(v.text.find("over 2 combinations") != std::string::npos);
  CHECK(v.text.find("size=2: -60.0% [") != std::string::npos);
  CHECK(v.text.find("2.50x faster, improved") != std::string::npos);
  CHECK(v.text.find(" vs run #1") != std::string::npos);
}

TEST_CASE("A sweep that improves at one value and regresses at another is mixed, with the crossover")
{
  TestJournal j;
  campaign(j);
  j.run(1, 1, {at("1", k_ten), at("2", k_ten)});
  j.run(2, 2, {at("1", k_four), at("2", k_eleven)});
  j.baseline("p", 1);
  Reader reader(j.journal());
  const auto v = evidence::judge_attempt(reader, 2).verdict;
  REQUIRE(v);
  CHECK(v->outcome == measure::Outcome::Mixed);
  CHECK(v->crossover == "wins at size = 1, loses at 2");
  const auto proposal = evidence::propose_status(*evidence::evaluate_attempt(reader, 2));
  REQUIRE(proposal);
  CHECK(proposal->status == core::Status::Inconclusive);
  CHECK(proposal->reason == "mixed time_ms over 2 combinations (wins at size = 1, loses at 2)");
}

TEST_CASE("Summaries of combinations follow the stated rule")
{
  const auto with = [](std::vector<measure::Outcome> outcomes) {
    std::vector<evidence::SeriesComparison> list;
    for (const auto outcome : outcomes) {
      evidence::SeriesComparison s;
      s.comparison.outcome = outcome;
      list.push_back(s);
    }
    return evidence::summarize_outcomes(list);
  };
  using measure::Outcome;
  CHECK(with({Outcome::Improved, Outcome::Inconclusive}) == Outcome::Improved);
  CHECK(with({Outcome::Regressed, Outcome::NoChange}) == Outcome::Regressed);
  CHECK(with({Outcome::Improved, Outcome::Regressed}) == Outcome::Mixed);
  CHECK(with({Outcome::NoChange, Outcome::NoChange}) == Outcome::NoChange);
  CHECK(with({Outcome::NoChange, Outcome::Inconclusive}) == Outcome::Inconclusive);
}

TEST_CASE("A run is judged against the baseline pinned when it was made, and says the baseline moved")
{
  TestJournal j;
  campaign(j);
  j.attempt(3, "p");
  j.at("2026-01-10T00:00:00Z");
  j.run(1, 1, {{{}, k_ten}});
  j.baseline("p", 1);
  j.at("2026-01-11T00:00:00Z");
  j.run(2, 2, {{{}, k_four}});
  j.at("2026-01-12T00:00:00Z");
  j.run(3, 3, {{{}, k_eleven}});
  j.baseline("p", 3, "b", "new stack");
  Reader reader(j.journal());
  const auto then = evidence::judge_attempt(reader, 2).verdict;
  REQUIRE(then);
  CHECK(then->baseline_run == 1);
  CHECK(then->baseline_now == 3);
  CHECK(*then->combinations[0].comparison.change_pct == Approx(-60.0).margin(0.5));
  CHECK(then->text.find("vs run #1, the baseline then; the baseline is now run #3") != std::string::npos);
  // Measured a day apart: the verdict says so, and that the machine's drift is in it.
  CHECK(then->design.kind == evidence::Design::Sequential);
  CHECK(then->design.baseline_earlier_ms == 86'400'000);
  CHECK_THAT(then->text, Catch::Contains("; sequential, baseline 1 day earlier"));
  CHECK(then->design.sentence() == "sequential: the baseline was measured 1 day earlier; drift not controlled");
  const auto now = evidence::judge_attempt(reader, 2, Against::CurrentBaseline).verdict;
  REQUIRE(now);
  CHECK(now->baseline_run == 3);
  CHECK_FALSE(now->baseline_now);
  CHECK(now->text.find("vs run #3, the current baseline (run #1 was the baseline then)") !=
        std::string::npos);
  CHECK_THAT(now->text, Catch::Contains("; sequential, baseline 1 day later"));
  // The new baseline itself is not judged.
  const auto itself = evidence::judge_attempt(reader, 3);
  CHECK_FALSE(itself.verdict);
  CHECK(itself.why_not == "run #3 is the baseline itself");
}

TEST_CASE("A run made before any baseline was pinned is judged against the first one pinned")
{
  CHECK(evidence::baseline_for({}, "b", 10, Against::BaselineThen) == std::nullopt);
  const std::vector<core::BaselineRecord> history{
      {"p", "b", 4, 100, "", ""}, {"p", "other", 9, 150, "", ""}, {"p", "b", 7, 200, "", ""}};
  CHECK(evidence::baseline_for(history, "b", 50, Against::BaselineThen) == 4);
  CHECK(evidence::baseline_for(history, "b", 100, Against::BaselineThen) == 4);
  CHECK(evidence::baseline_for(history, "b", 199, Against::BaselineThen) == 4);
  CHECK(evidence::baseline_for(history, "b", 250, Against::BaselineThen) == 7);
  CHECK(evidence::baseline_for(history, "b", 50, Against::CurrentBaseline) == 7);
  CHECK(evidence::baseline_for(history, "other", 50, Against::BaselineThen) == 9);
}

TEST_CASE("One imported figure per side gives the change and the factor, and no test")
{
  TestJournal j;
  j.plan("p");
  j.bench("b", "tok_s", true, "tok/s");
  j.attempt(1, "p");
  j.attempt(2, "p");
  j.imported(1, 1, 92.6);
  j.imported(2, 2, 96.1);
  j.baseline("p", 1);
  Reader reader(j.journal());
  const auto v = evidence::judge_attempt(reader, 2).verdict;
  REQUIRE(v);
  const auto& c = v->combinations.front().comparison;
  CHECK(c.basis == measure::Basis::SingleFigures);
  CHECK_FALSE(c.p_value);
  CHECK(v->text == "+3.78% 1.04x higher throughput, single figures, no test vs run #1; sequential, baseline "
                   "moments earlier; imported figures, not measured by ej");
  CHECK(v->imported);
  CHECK(v->candidate.imported());
}

TEST_CASE("Three samples a side give the change, too few for a test")
{
  TestJournal j;
  campaign(j);
  j.run(1, 1, {{{}, {10.0, 10.1, 9.9}}});
  j.run(2, 2, {{{}, {5.0, 5.1, 4.9}}});
  j.baseline("p", 1);
  Reader reader(j.journal());
  const auto v = evidence::judge_attempt(reader, 2).verdict;
  REQUIRE(v);
  CHECK(v->outcome == measure::Outcome::Inconclusive);
  CHECK(v->text ==
        "-50.0% 2.00x faster, too few samples for a test (n = 3 vs 3) vs run #1; sequential, baseline moments earlier");
}

TEST_CASE("Nothing to judge says why, naming the real cause")
{
  TestJournal j;
  campaign(j);
  Reader none(j.journal());
  CHECK(evidence::judge_attempt(none, 9).why_not == "there is no attempt #9");
  CHECK(evidence::judge_attempt(none, 2).why_not.find("has no finished runs") != std::string::npos);
  j.run(1, 1, {at("1", k_ten)});
  j.run(2, 2, {at("2", k_four)});
  Reader unpinned(j.journal());
  CHECK(evidence::judge_attempt(unpinned, 2).why_not.find("no baseline for benchmark b") !=
        std::string::npos);
  j.baseline("p", 1);
  Reader other_combination(j.journal());
  const auto why = evidence::judge_attempt(other_combination, 2).why_not;
  CHECK(why.find("no combination of a metric with samples on both sides") != std::string::npos);
  CHECK(why.find("time_ms [size=1]") != std::string::npos);
  CHECK(why.find("time_ms [size=2]") != std::string::npos);
}

TEST_CASE("A baseline of another revision or an unfinished baseline is named as the cause")
{
  TestJournal j;
  campaign(j);
  j.run(1, 1, {{{}, k_ten}}, "", "b", 1, "failed");
  j.baseline("p", 1);
  // A revision that measures something else (an axis of its own): revisions that differ only in
  // how runs are judged would be compared.
  j.bench("b", "time_ms", false, "ms", 2, {{"size", {"1"}}});
  j.at("2026-01-03T00:00:00Z");
  j.run(2, 2, {{{}, k_four}}, "", "b", 2);
  Reader reader(j.journal());
  const auto failed = evidence::judge_attempt(reader, 2).why_not;
  CHECK(failed.find("the baseline run #1 of plan p is failed, not finished") != std::string::npos);
  j.at("2026-01-02T00:00:00Z"); // events of one millisecond have no order among them
  j.run(3, 1, {{{}, k_ten}});
  j.baseline("p", 3, "b", "a finished one");
  Reader revised(j.journal());
  const auto why = evidence::judge_attempt(revised, 2).why_not;
  INFO(why);
  CHECK(why.find("used revision 1 of b") != std::string::npos);
  CHECK(why.find("used revision 2") != std::string::npos);
}

TEST_CASE("Runs in different environments carry the warning in the verdict line")
{
  TestJournal j;
  campaign(j);
  const auto a = j.environment({{"gpu", {{"driver_version", "570.1"}}}});
  const auto b = j.environment({{"gpu", {{"driver_version", "580.2"}}}});
  j.run(1, 1, {{{}, k_ten}}, a);
  j.run(2, 2, {{{}, k_four}}, b);
  j.baseline("p", 1);
  Reader reader(j.journal());
  const auto v = evidence::judge_attempt(reader, 2).verdict;
  REQUIRE(v);
  CHECK(v->text.ends_with("vs run #1; sequential, baseline moments earlier; environments differ: NVIDIA driver"));
  REQUIRE(v->environment_changes.size() == 1);
  CHECK(v->environment_changes[0] == "NVIDIA driver: 570.1 -> 580.2");
}

TEST_CASE("The plan's target is evaluated per combination and the proposal follows it")
{
  TestJournal j;
  campaign(j, "time_ms < 5");
  j.run(1, 1, {at("1", k_ten), at("2", k_ten)});
  j.run(2, 2, {at("1", k_four), at("2", k_four)});
  j.attempt(3, "p");
  j.run(3, 3, {at("1", k_ten_again), at("2", k_four)});
  j.baseline("p", 1);
  Reader reader(j.journal());
  const auto everywhere = evidence::judge_attempt(reader, 2).verdict;
  REQUIRE(everywhere);
  CHECK(everywhere->target_met == evidence::TargetMet::Everywhere);
  CHECK(everywhere->meets_target() == true);
  const auto adopted = evidence::propose_status(*evidence::evaluate_attempt(reader, 2));
  REQUIRE(adopted);
  CHECK(adopted->status == core::Status::Adopted);
  CHECK(adopted->reason ==
        "improved time_ms over 2 combinations (wins at every size); time_ms meets < 5 at every "
        "combination");

  const auto somewhere = evidence::judge_attempt(reader, 3).verdict;
  REQUIRE(somewhere);
  CHECK(somewhere->outcome == measure::Outcome::Improved);
  CHECK(somewhere->target_met == evidence::TargetMet::Somewhere);
  CHECK(somewhere->target_met_at == std::vector<std::string>{"size=2"});
  CHECK(somewhere->meets_target() == false);
  const auto rejected = evidence::propose_status(*evidence::evaluate_attempt(reader, 3));
  REQUIRE(rejected);
  CHECK(rejected->status == core::Status::Rejected);
  CHECK_THAT(rejected->reason, Catch::EndsWith("; time_ms meets < 5 only at size=2"));
}

TEST_CASE("A regression or no change is rejected, a plain improvement adopted")
{
  TestJournal j;
  campaign(j);
  j.run(1, 1, {{{}, k_ten}});
  j.run(2, 2, {{{}, k_eleven}});
  j.baseline("p", 1);
  Reader reader(j.journal());
  const auto v = evidence::judge_attempt(reader, 2).verdict;
  REQUIRE(v);
  CHECK(v->outcome == measure::Outcome::Regressed);
  CHECK(v->text.find("+10.0% [") == 0);
  INFO(v->text);
  CHECK(v->text.find("1.10x slower, regressed (p<0.0001) vs run #1") != std::string::npos);
  CHECK(evidence::propose_status(*evidence::evaluate_attempt(reader, 2))->status == core::Status::Rejected);
}

TEST_CASE("A damaged journal is an error, never a verdict silently missing")
{
  TestJournal j;
  campaign(j);
  j.run(1, 1, {{{}, k_ten}});
  j.run(2, 2, {{{}, k_four}});
  j.baseline("p", 1);
  j.journal().db().exec("DROP TABLE samples");
  Reader reader(j.journal());
  CHECK_THROWS_AS(evidence::judge_attempt(reader, 2), ej::Error);
}

TEST_CASE("A withdrawn run is left out of its attempt's verdict, and the verdict says why when none is left")
{
  TestJournal j;
  campaign(j);
  j.run(1, 1, {{{}, k_ten}});
  j.baseline("p", 1);
  j.run(2, 2, {{{}, k_four}});      // measured on a debug build: 2.5x "faster"
  j.run(3, 2, {{{}, k_ten_again}}); // the real figure
  {
    Reader reader(j.journal());
    const auto judgement = evidence::judge_attempt(reader, 2);
    REQUIRE(judgement.verdict);
    CHECK(judgement.verdict->candidate.runs.size() == 2); // the debug run's figures among them
  }
  j.withdraw(2, "debug build");
  Reader reader(j.journal());
  const auto judgement = evidence::judge_attempt(reader, 2);
  REQUIRE(judgement.verdict);
  REQUIRE(judgement.verdict->candidate.runs.size() == 1);
  CHECK(judgement.verdict->candidate.runs[0].number == 3);
  CHECK(judgement.verdict->outcome != measure::Outcome::Improved);
  const auto run = reader.runs_of_attempt(2).back();
  REQUIRE(run.number == 2);
  CHECK_FALSE(evidence::usable(run));
  CHECK_THAT(evidence::judge_run(reader, run).why_not,
             Catch::Contains("run #2 was withdrawn") && Catch::Contains("debug build"));
  j.withdraw(3, "wrong machine");
  Reader after(j.journal());
  CHECK_THAT(evidence::judge_attempt(after, 2).why_not, Catch::Contains("no finished runs (2 withdrawn)"));
}

TEST_CASE("A withdrawn baseline judges nothing, and says so with what to do")
{
  TestJournal j;
  campaign(j);
  j.run(1, 1, {{{}, k_ten}});
  j.baseline("p", 1);
  j.run(2, 2, {{{}, k_four}});
  j.withdraw(1, "the GPU was throttled");
  Reader reader(j.journal());
  const auto judgement = evidence::judge_attempt(reader, 2);
  CHECK_FALSE(judgement.verdict);
  CHECK_THAT(judgement.why_not, Catch::Contains("the baseline run #1 was withdrawn") &&
                                    Catch::Contains("the GPU was throttled") &&
                                    Catch::Contains("ej plan baseline p --run N"));
}

TEST_CASE("A plan document leaves out a withdrawn run and one that measured nothing, not a failed build")
{
  core::RunRecord run;
  run.status = core::RunStatus::Finished;
  int asked = 0;
  const auto none = [&] {
    ++asked;
    return false;
  };
  CHECK(evidence::listed_in_documents(run, none));
  run.withdrawn_ms = 1;
  CHECK_FALSE(evidence::listed_in_documents(run, none));
  run.withdrawn_ms = 0;
  run.status = core::RunStatus::BuildFailed;
  CHECK(evidence::listed_in_documents(run, none));
  CHECK(asked == 0); // only an unusable ending is asked about its repeats
  run.status = core::RunStatus::Interrupted;
  CHECK_FALSE(evidence::listed_in_documents(run, none)); // cancelled while it waited for its GPUs
  CHECK(evidence::listed_in_documents(run, [] { return true; }));
  CHECK(asked == 1);
}
