// What a verdict says to do next: the rounds that would decide it at the calibrated or observed
// noise, a calibration, a baseline to pin, or nothing once it is decisive.
#include "evidence/calibration.h"
#include "evidence/interleaved_verdict.h"
#include "evidence/next_step.h"
#include "evidence/reader.h"
#include "evidence/verdict.h"
#include "measure/metric_spec.h"
#include "unit/evidence/test_journal.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace ej;
using evidence::NextKind;
using measure::Outcome;

namespace {

// A verdict on time_ms of benchmark b, attempt 2, with one comparison whose per-round estimate is
// `log_change` and whose 95% interval has `half_width` either side (on the log scale).
evidence::Verdict verdict(evidence::Design design, measure::Outcome outcome, double log_change,
                          std::optional<double> half_width, std::size_t n = 10)
{
  evidence::Verdict v;
  v.candidate.bench = "b";
  core::RunRecord run;
  run.number = 5;
  run.attempt = 2;
  v.candidate.runs.push_back(run);
  v.metric = "time_ms";
  v.unit = "ms";
  v.design.kind = design;
  v.design.rounds = design == evidence::Design::Interleaved ? n : 0;
  evidence::SeriesComparison s;
  s.metric = "time_ms";
  s.unit = "ms";
  auto& c = s.comparison;
  c.n_reference = c.n_candidate = n;
  c.reference_median = 10;
  c.candidate_median = 10 * std::exp(log_change);
  c.ratio = std::exp(log_change);
  if (half_width) {
    c.ratio_low = std::exp(log_change - *half_width);
    c.ratio_high = std::exp(log_change + *half_width);
  }
  c.outcome = outcome;
  v.combinations.push_back(s);
  v.outcome = outcome;
  return v;
}

evidence::Calibration calibration(double paired_noise)
{
  evidence::Calibration c;
  c.bench = "b";
  c.metric = "time_ms";
  c.unit = "ms";
  c.relative = true;
  c.paired_noise = paired_noise;
  return c;
}

// An interleaved session of benchmark b (attempt 2 against "baseline") whose one series of time_ms
// has the per-round estimate `log_change`, at the observed noise `noise` a round.
evidence::InterleavedVerdict session(measure::Outcome outcome, double log_change, std::optional<double> noise,
                                     std::size_t rounds = 20)
{
  evidence::InterleavedVerdict v;
  v.candidate = 6;
  v.reference = 7;
  v.bench = "b";
  v.attempt = 2;
  v.design.reference_name = "baseline";
  v.primary = "time_ms";
  v.outcome = outcome;
  evidence::PairedVerdict s;
  s.params = "{}";
  s.metric = "time_ms";
  s.unit = "ms";
  s.reference_level = 10;
  s.rounds = rounds;
  s.estimate = log_change;
  s.noise = noise;
  s.outcome = outcome;
  v.series.push_back(s);
  return v;
}

} // namespace

TEST_CASE("a decisive verdict says there is nothing to add")
{
  const auto v = verdict(evidence::Design::Interleaved, measure::Outcome::Improved, -0.1, 0.01);
  const auto steps = evidence::next_steps(v, "p", {nullptr, 0, true});
  REQUIRE(steps.size() == 1);
  CHECK(steps[0].kind == NextKind::None);
  CHECK(steps[0].command.empty());
  CHECK(evidence::next_json(steps)[0]["kind"] == "none");
  CHECK(evidence::next_json(steps)[0]["command"].is_null());
}

TEST_CASE("figures that cannot be believed ask to be fixed, never for more rounds of them")
{
  auto invalid = verdict(evidence::Design::Interleaved, measure::Outcome::Inconclusive, -0.1, 0.2);
  invalid.integrity.validity = evidence::Validity::Invalid;
  invalid.integrity.invalid_reason = "output differs from the baseline's";
  auto steps = evidence::next_steps(invalid, "p", {nullptr, 0, true});
  REQUIRE(steps.size() == 1);
  CHECK(steps[0].kind == NextKind::FixFigures);
  CHECK(steps[0].command.empty());
  CHECK_THAT(steps[0].why, Catch::Contains("invalid: output differs from the baseline's"));
  CHECK(evidence::next_json(steps)[0]["kind"] == "fix_figures");

  auto suspect = verdict(evidence::Design::Interleaved, measure::Outcome::Improved, -0.1, 0.01);
  suspect.integrity.validity = evidence::Validity::Suspect;
  suspect.integrity.flags = {"time_ms 0.001 ms is beyond its floor of 1 ms: implausible"};
  steps = evidence::next_steps(suspect, "p", {nullptr, 0, true});
  REQUIRE(steps.size() == 1);
  CHECK(steps[0].kind == NextKind::FixFigures);
  CHECK_THAT(steps[0].why, Catch::Contains("beyond its floor") && Catch::Contains("suspect"));
}

// At a calibrated noise of 0.02 a round (log scale) and an estimate of 0.01 (min effect 0), the
// rounds are those that detect 0.01 at 0.02: as 0.005 at 0.01, 35 (power_test, from mpmath).
TEST_CASE(
    "an inconclusive interleaved verdict asks for the rounds that detect its change at the calibrated noise")
{
  const auto v = verdict(evidence::Design::Interleaved, measure::Outcome::Inconclusive, 0.01, 0.02);
  const auto calibrated = calibration(0.02);
  const auto steps = evidence::next_steps(v, "p", {&calibrated, 0, true});
  REQUIRE(steps.size() == 1); // calibrated: nothing to calibrate
  CHECK(steps[0].kind == NextKind::MeasureMore);
  CHECK(steps[0].rounds == 35u);
  CHECK(steps[0].source == evidence::NoiseSource::Calibration);
  CHECK(*steps[0].noise == Approx((std::exp(0.02) - 1) * 100));
  CHECK(*steps[0].effect == Approx((std::exp(0.01) - 1) * 100));
  CHECK(steps[0].command == "ej run b --against baseline --attempt 2 --repeat 35");
  const auto first = evidence::next_json(steps)[0];
  CHECK(first["kind"] == "measure_more");
  CHECK(first["rounds"] == 35);
  CHECK(first["source"] == "calibration");
  CHECK(first["scale"] == "percent");
}

// Within a min effect of 2.5%, the estimate log(1.005) is log(1.025) - log(1.005) = 0.0197051 from the
// nearer edge; at 0.02 a round that takes 11 rounds (mpmath, as in power_test).
TEST_CASE("an estimate within the min effect is sized to show that it stays within")
{
  const auto v =
      verdict(evidence::Design::Interleaved, measure::Outcome::Inconclusive, std::log(1.005), 0.03);
  const auto calibrated = calibration(0.02);
  const auto steps = evidence::next_steps(v, "p", {&calibrated, 2.5, true});
  REQUIRE(steps[0].kind == NextKind::MeasureMore);
  CHECK(steps[0].rounds == 11u);
  CHECK(*steps[0].effect == Approx((1.025 / 1.005 - 1) * 100));
}

// Without a calibration, the noise is the one the verdict's own interval implies: 20 rounds whose
// 95% interval is +-0.0047893 mean 0.01 a round (power_test), so 0.005 takes 35 rounds.
TEST_CASE("without a calibration the rounds are sized at the observed noise, and calibrating comes next")
{
  const auto v = verdict(evidence::Design::Interleaved, measure::Outcome::Inconclusive, 0.005,
                         0.0047893164179322645, 20);
  const auto steps = evidence::next_steps(v, "p", {nullptr, 0, true});
  REQUIRE(steps.size() == 2);
  CHECK(steps[0].kind == NextKind::MeasureMore);
  CHECK(steps[0].source == evidence::NoiseSource::Observed);
  CHECK(steps[0].rounds == 35u);
  CHECK(steps[1].kind == NextKind::Calibrate);
  CHECK(steps[1].command == "ej calibrate b");
}

TEST_CASE("a sequential verdict that cannot decide asks for both code states measured together")
{
  SECTION("inconclusive")
  {
    const auto v = verdict(evidence::Design::Sequential, measure::Outcome::Inconclusive, 0.01, 0.02);
    const auto calibrated = calibration(0.02);
    const auto steps = evidence::next_steps(v, "p", {&calibrated, 0, true});
    REQUIRE(steps.size() == 1);
    CHECK(steps[0].kind == NextKind::MeasureAgainst);
    CHECK(steps[0].rounds == 35u);
  }
  SECTION("improved, but by less than the machine drifted")
  {
    auto v = verdict(evidence::Design::Sequential, measure::Outcome::Improved, -0.03, 0.01);
    v.calibration = evidence::CalibrationNote{"±1.0%", 10, "+5.0%", true, 0};
    const auto calibrated = calibration(0.02);
    const auto steps = evidence::next_steps(v, "p", {&calibrated, 0, true});
    REQUIRE(steps[0].kind == NextKind::MeasureAgainst);
    CHECK(steps[0].rounds.has_value());
    CHECK_THAT(steps[0].why, Catch::Contains("drifted +5.0%"));
  }
  SECTION("with no interval and no calibration: until decisive, and calibrate")
  {
    const auto v =
        verdict(evidence::Design::Sequential, measure::Outcome::Inconclusive, 0.01, std::nullopt, 1);
    const auto steps = evidence::next_steps(v, "p", {nullptr, 0, true});
    REQUIRE(steps.size() == 2);
    CHECK_FALSE(steps[0].rounds);
    CHECK(steps[0].command == "ej run b --against baseline --attempt 2 --until-decisive");
    CHECK(steps[1].kind == NextKind::Calibrate);
  }
}

TEST_CASE("a change too small for a thousand rounds says so instead of naming a count")
{
  const auto v = verdict(evidence::Design::Interleaved, measure::Outcome::Inconclusive, 0.0001, 0.02);
  const auto calibrated = calibration(0.02);
  const auto steps = evidence::next_steps(v, "p", {&calibrated, 0, true});
  CHECK_FALSE(steps[0].rounds);
  CHECK_THAT(steps[0].command, Catch::EndsWith("--until-decisive"));
  CHECK_THAT(steps[0].why, Catch::Contains("more than 1000 rounds"));
}

TEST_CASE("a mixed sweep without a headline asks for the headline that decides")
{
  auto v = verdict(evidence::Design::Sequential, measure::Outcome::Improved, -0.1, 0.01);
  v.combinations.push_back(v.combinations.front());
  v.combinations.back().comparison.outcome = measure::Outcome::Regressed;
  v.outcome = measure::Outcome::Mixed;
  const auto steps = evidence::next_steps(v, "p", {nullptr, 0, true});
  REQUIRE(steps.size() == 1);
  CHECK(steps[0].kind == NextKind::ChooseHeadline);
  CHECK(steps[0].command == "ej plan edit p --headline AXIS=VALUE");
}

TEST_CASE(
    "a comparison of two sides named (ej compare A B) measures the candidate against its reference, and "
    "one of no plan has no headline to choose")
{
  // Sequential and inconclusive: both code states measured together, against the reference named.
  const auto v = verdict(evidence::Design::Sequential, measure::Outcome::Inconclusive, -0.01, 0.05);
  evidence::NextContext context{nullptr, 0, true};
  context.against = "r3";
  const auto steps = evidence::next_steps(v, "", context);
  REQUIRE_FALSE(steps.empty());
  CHECK(steps[0].kind == NextKind::MeasureAgainst);
  CHECK_THAT(steps[0].command, Catch::StartsWith("ej run b --against r3 --attempt 2"));

  // Mixed, of no plan: no `ej plan edit` of an empty slug; measuring together may still decide it.
  auto mixed = verdict(evidence::Design::Sequential, measure::Outcome::Improved, -0.1, 0.01);
  mixed.combinations.push_back(mixed.combinations.front());
  mixed.combinations.back().comparison.outcome = measure::Outcome::Regressed;
  mixed.outcome = measure::Outcome::Mixed;
  const auto unplanned = evidence::next_steps(mixed, "", context);
  REQUIRE_FALSE(unplanned.empty());
  CHECK(unplanned[0].kind == NextKind::MeasureAgainst);
  CHECK_THAT(unplanned[0].command, Catch::StartsWith("ej run b --against r3"));
}

TEST_CASE("a benchmark without a baseline is told to pin its newest run outside any attempt")
{
  const auto with_run = evidence::pin_baseline_steps("p", "b", 3);
  CHECK(with_run[0].kind == NextKind::PinBaseline);
  CHECK(with_run[0].command == "ej plan baseline p --run 3");
  CHECK(evidence::next_json(with_run)[0]["run"] == 3);
  const auto without = evidence::pin_baseline_steps("p", "my bench", std::nullopt);
  CHECK(without[0].command == "ej run 'my bench'");
  CHECK_THAT(without[0].why, Catch::Contains("ej plan baseline p --run N"));
}

// Judged from the journal: the attempt's verdict carries its steps, and an attempt judged on a
// benchmark without a baseline carries the pin.
TEST_CASE("judging an attempt fills in the next steps of its verdict, or the pin when it has no baseline")
{
  test::TestJournal j;
  j.plan("p");
  j.bench("b");
  j.attempt(1, "p");
  j.attempt(2, "p");
  j.run(1, 1, {{{}, {10.0, 10.1, 9.9, 10.2, 9.8, 10.05, 9.95, 10.15, 9.85, 10.0}}});
  j.run(2, 2, {{{}, {4.0, 4.04, 3.96, 4.08, 3.92, 4.02, 3.98, 4.06, 3.94, 4.0}}});
  {
    evidence::Reader reader(j.journal());
    const auto none = evidence::judge_attempt(reader, 2);
    REQUIRE_FALSE(none.verdict);
    REQUIRE(none.next.size() == 1);
    CHECK(none.next[0].kind == NextKind::PinBaseline);
    CHECK_FALSE(none.next[0].run); // run 1 belongs to an attempt: not proposed
  }
  j.baseline("p", 1);
  evidence::Reader reader(j.journal());
  const auto judged = evidence::judge_attempt(reader, 2);
  REQUIRE(judged.verdict);
  REQUIRE(judged.verdict->next.size() == 1);
  // Decisive, but nothing checked the benchmark's result: a check to add.
  CHECK(judged.verdict->next[0].kind == NextKind::AddCheck);
  CHECK(judged.verdict->next[0].command == "ej bench edit b --check 'CMD'");
}

TEST_CASE("a decisive gain of a benchmark with neither --check nor --same-output asks for a check to add")
{
  const auto v = verdict(evidence::Design::Interleaved, measure::Outcome::Improved, -0.1, 0.01);
  const auto steps = evidence::next_steps(v, "p", {nullptr, 0, false});
  REQUIRE(steps.size() == 1);
  CHECK(steps[0].kind == NextKind::AddCheck);
  CHECK(steps[0].command == "ej bench edit b --check 'CMD'");
  CHECK_THAT(steps[0].why, Catch::Contains("--same-output") &&
                               Catch::Contains("again with 'ej run b --against baseline --attempt 2'"));
  CHECK(evidence::next_json(steps)[0]["kind"] == "add_check");
  // A regression or no change needs no guard against a benchmark that skips its work.
  const auto worse = verdict(evidence::Design::Interleaved, measure::Outcome::Regressed, 0.1, 0.01);
  CHECK(evidence::next_steps(worse, "p", {nullptr, 0, false})[0].kind == NextKind::None);
}

// A revision with a --check (or --same-output) judges its runs' gain as decisive and nothing more.
TEST_CASE("judging a gain measured with a check adds nothing")
{
  test::TestJournal j;
  j.plan("p");
  j.bench("b");
  core::BenchDefinition checked;
  checked.argv = {"true"};
  auto spec = measure::parse_metric_spec("time_ms=kv:time_ms");
  spec.unit = "ms";
  checked.metrics = {spec};
  checked.primary = "time_ms";
  checked.check = "test -s out.txt";
  j.journal().write([&](store::Writer& writer) {
    writer.append("bench.edited", {{"name", "b"}, {"revision", 2}, {"definition", core::to_json(checked)}});
  });
  j.attempt(1, "p");
  j.attempt(2, "p");
  j.run(1, 1, {{{}, {10.0, 10.1, 9.9, 10.2, 9.8, 10.05, 9.95, 10.15, 9.85, 10.0}}}, "", "b", 2);
  j.run(2, 2, {{{}, {4.0, 4.04, 3.96, 4.08, 3.92, 4.02, 3.98, 4.06, 3.94, 4.0}}}, "", "b", 2);
  j.baseline("p", 1);
  evidence::Reader reader(j.journal());
  const auto judged = evidence::judge_attempt(reader, 2);
  REQUIRE(judged.verdict);
  REQUIRE(judged.verdict->next.size() == 1);
  CHECK(judged.verdict->next[0].kind == NextKind::None);
}

// The paired figures of an interleaved session size the next one as a verdict's do: an estimate of
// 0.005 a round at a noise of 0.01 takes 35 rounds (as above); at the calibrated 0.02, 0.01 does too.
TEST_CASE(
    "an inconclusive interleaved session asks for the rounds that detect its change at its paired noise")
{
  auto v = session(Outcome::Inconclusive, 0.005, 0.01);
  auto steps = evidence::paired_next_steps(v, "p", {nullptr, 0, true});
  REQUIRE(steps.size() == 2);
  CHECK(steps[0].kind == NextKind::MeasureMore);
  CHECK(steps[0].rounds == 35u);
  CHECK(steps[0].source == evidence::NoiseSource::Observed);
  CHECK(*steps[0].noise == Approx((std::exp(0.01) - 1) * 100));
  CHECK(*steps[0].effect == Approx((std::exp(0.005) - 1) * 100));
  CHECK(steps[0].command == "ej run b --against baseline --attempt 2 --repeat 35");
  CHECK_THAT(steps[0].why, Catch::StartsWith("inconclusive after 20 rounds: 35 rounds detect"));
  CHECK(steps[1].kind == NextKind::Calibrate);
  CHECK(steps[1].command == "ej calibrate b");

  v = session(Outcome::Inconclusive, 0.01, 0.05);
  const auto calibrated = calibration(0.02);
  steps = evidence::paired_next_steps(v, "p", {&calibrated, 0, true});
  REQUIRE(steps.size() == 1);
  CHECK(steps[0].rounds == 35u);
  CHECK(steps[0].source == evidence::NoiseSource::Calibration);

  // Within a min effect of 2.5%, sized to show that it stays within: 11 rounds (as above).
  v = session(Outcome::Inconclusive, std::log(1.005), std::nullopt);
  steps = evidence::paired_next_steps(v, "p", {&calibrated, 2.5, true});
  CHECK(steps[0].rounds == 11u);

  // A CI gate's session: the reference is a commit, the candidate the work tree of no attempt. The
  // next session measures the reference run's code again (r7): a revision such as HEAD~1 moves on.
  v = session(Outcome::Inconclusive, 0.005, 0.01);
  v.attempt.reset();
  v.design.reference_name = "0123456789ab";
  steps = evidence::paired_next_steps(v, "", {nullptr, 0, true});
  CHECK(steps[0].command == "ej run b --against r7 --repeat 35");
  // No series of the primary metric on both sides (every value skipped): not "mixed".
  auto empty = session(Outcome::Inconclusive, 0.005, 0.01);
  empty.series.clear();
  const auto none = evidence::paired_next_steps(empty, "", {nullptr, 0, true});
  REQUIRE(none.size() == 1);
  CHECK(none[0].kind == evidence::NextKind::None);
  CHECK_THAT(none[0].why, Catch::StartsWith("no series of time_ms was measured on both sides"));
  v.design.reference_name = "HEAD~1";
  CHECK(evidence::paired_next_steps(v, "", {nullptr, 0, true})[0].command ==
        "ej run b --against r7 --repeat 35");
  // No noise known (one round): until decisive.
  v = session(Outcome::Inconclusive, 0.005, std::nullopt, 1);
  steps = evidence::paired_next_steps(v, "p", {nullptr, 0, true});
  CHECK_FALSE(steps[0].rounds);
  CHECK(steps[0].command == "ej run b --against baseline --attempt 2 --until-decisive");
}

TEST_CASE("a decided interleaved session adds nothing, or a check to a gain nothing checked")
{
  CHECK(evidence::paired_next_steps(session(Outcome::NoChange, 0.001, 0.01), "p", {nullptr, 0, false})[0]
            .kind == NextKind::None);
  CHECK(
      evidence::paired_next_steps(session(Outcome::Regressed, 0.1, 0.01), "p", {nullptr, 0, false})[0].kind ==
      NextKind::None);
  CHECK(
      evidence::paired_next_steps(session(Outcome::Improved, -0.1, 0.01), "p", {nullptr, 0, true})[0].kind ==
      NextKind::None);
  const auto unchecked =
      evidence::paired_next_steps(session(Outcome::Improved, -0.1, 0.01), "p", {nullptr, 0, false});
  REQUIRE(unchecked.size() == 1);
  CHECK(unchecked[0].kind == NextKind::AddCheck);
  CHECK(unchecked[0].command == "ej bench edit b --check 'CMD'");
  CHECK_THAT(unchecked[0].why, Catch::Contains("again with 'ej run b --against baseline --attempt 2'"));
  CHECK(evidence::to_json(session(Outcome::Improved, -0.1, 0.01)).contains("next"));

  // A calibration is the same code on both sides: nothing to decide, whatever its figures say.
  auto aa = session(Outcome::Improved, -0.1, 0.01);
  aa.design.purpose = "calibration";
  CHECK(evidence::paired_next_steps(aa, "p", {nullptr, 0, false})[0].kind == NextKind::None);
}

TEST_CASE("a mixed interleaved sweep asks for its plan's headline, or without a plan for the rounds its "
          "undecided combinations need")
{
  auto v = session(Outcome::Mixed, -0.1, 0.01);
  v.series[0].outcome = Outcome::Improved;
  auto loses = v.series[0];
  loses.params = R"({"n":"8"})";
  loses.estimate = 0.1;
  loses.outcome = Outcome::Regressed;
  v.series.push_back(loses);
  auto steps = evidence::paired_next_steps(v, "p", {nullptr, 0, true});
  REQUIRE(steps.size() == 1);
  CHECK(steps[0].kind == NextKind::ChooseHeadline);
  CHECK(steps[0].command == "ej plan edit p --headline AXIS=VALUE");
  // No plan, every combination decided: nothing more rounds would change.
  steps = evidence::paired_next_steps(v, "", {nullptr, 0, true});
  REQUIRE(steps.size() == 1);
  CHECK(steps[0].kind == NextKind::None);
  // No plan, one combination undecided: the rounds it needs.
  auto open = v.series[0];
  open.params = R"({"n":"4"})";
  open.estimate = 0.005;
  open.outcome = Outcome::Inconclusive;
  v.series.push_back(open);
  steps = evidence::paired_next_steps(v, "", {nullptr, 0, true});
  CHECK(steps[0].kind == NextKind::MeasureMore);
  CHECK(steps[0].rounds == 35u);
}

TEST_CASE("a sweep inconclusive because false-discovery control left its one gain out sizes the rounds on it")
{
  // n=1 improved on its own (p = 0.026) but is no discovery beside n=2 (no change): the verdict is
  // inconclusive, and the noise to size the rounds at is n=1's, which more rounds may lift.
  test::TestJournal j;
  j.plan("p");
  j.bench("b", "time_ms", false, "us");
  j.attempt(1, "p");
  j.attempt(2, "p");
  const std::vector<double> ten(6, 10.0);
  j.run(1, 1, {{{{"n", "1"}}, {20, 21, 22, 23, 24, 25}}, {{{"n", "2"}}, ten}});
  j.run(2, 2, {{{{"n", "1"}}, {15, 16, 17, 18, 20.5, 22.5}}, {{{"n", "2"}}, ten}});
  j.baseline("p", 1);
  evidence::Reader reader(j.journal());
  const auto v = evidence::judge_attempt(reader, 2).verdict;
  REQUIRE(v);
  REQUIRE(v->combinations.size() == 2);
  REQUIRE(v->combinations[0].comparison.outcome == Outcome::Improved);
  REQUIRE(v->outcome == Outcome::Inconclusive);
  REQUIRE(v->next.size() == 2);
  CHECK(v->next[0].kind == NextKind::MeasureAgainst);
  CHECK(v->next[0].source == evidence::NoiseSource::Observed);
  CHECK(v->next[0].rounds);
  CHECK_THAT(v->next[0].why, !Catch::Contains("no noise"));
  CHECK(v->next[1].kind == NextKind::Calibrate);
  CHECK_THAT(v->next[1].why, Catch::Contains("sized at the noise this verdict observed"));
}

TEST_CASE("a mixed sweep of no plan sizes no round on a gain that lifting would not change")
{
  auto v = verdict(evidence::Design::Sequential, Outcome::Improved, -0.1, 0.01);
  v.combinations.push_back(v.combinations.front());
  v.combinations.back().comparison.outcome = Outcome::Regressed;
  v.combinations.push_back(v.combinations.front());
  v.combinations.back().comparison.outcome = Outcome::Inconclusive;
  v.combinations.back().comparison.ratio_low = 0.5; // a far wider interval: far more rounds
  v.combinations.back().comparison.ratio_high = 1.1;
  v.outcome = Outcome::Mixed;
  const auto steps = evidence::next_steps(v, "", {nullptr, 0, true});
  REQUIRE_FALSE(steps.empty());
  CHECK(steps[0].kind == NextKind::MeasureAgainst);
  REQUIRE(steps[0].noise);
  CHECK(*steps[0].noise > 10); // the inconclusive combination's noise, not the decided ones'
}
