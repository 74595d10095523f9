#include "evidence/bisect_step.h"
#include "util/error.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace ej;
using evidence::CommitClass;
using evidence::InterleavedVerdict;
using evidence::PairedVerdict;
using measure::Outcome;

namespace {

PairedVerdict series(measure::Outcome outcome, double estimate, const std::string& params = "{}",
                     const std::string& metric = "wall_s")
{
  PairedVerdict v;
  v.params = params;
  v.metric = metric;
  v.unit = "s";
  v.outcome = outcome;
  v.estimate = estimate;
  v.low = estimate - 0.05;
  v.high = estimate + 0.05;
  return v;
}

InterleavedVerdict verdict(std::vector<PairedVerdict> all, double min_effect_pct = 0)
{
  InterleavedVerdict v;
  v.primary = "wall_s";
  v.min_effect_pct = min_effect_pct;
  v.series = std::move(all);
  return v;
}

} // namespace

TEST_CASE("a 3x regression is judged in a band of half the step: about +73% up, -42% down")
{
  const auto step = evidence::step_of(verdict({series(Outcome::Regressed, std::log(3.0))}));
  REQUIRE(step);
  CHECK(step->outcome == Outcome::Regressed);
  CHECK(step->min_effect_pct == Approx(73.2)); // sqrt(3) - 1, to one decimal
  CHECK(evidence::change_text(step->series) == "+200.0% [+185.4%, +215.4%]");

  const auto faster = evidence::step_of(verdict({series(Outcome::Improved, -std::log(3.0))}));
  REQUIRE(faster);
  CHECK(faster->outcome == Outcome::Improved);
  CHECK(faster->min_effect_pct == Approx(42.3)); // 1 - 1 / sqrt(3)
}

TEST_CASE("the band is at least the benchmark's minimum effect and at most 99%")
{
  CHECK(evidence::step_of(verdict({series(Outcome::Regressed, std::log(1.1))}, 8))->min_effect_pct == 8);
  CHECK(evidence::step_of(verdict({series(Outcome::Regressed, std::log(10.0))}))->min_effect_pct == 99);
}

TEST_CASE("the smallest step of the series that moved sets the band, and other metrics are not read")
{
  const auto step = evidence::step_of(verdict({series(Outcome::Regressed, std::log(4.0), R"({"n":1})"),
                                               series(Outcome::Regressed, std::log(1.44), R"({"n":2})"),
                                               series(Outcome::NoChange, 0.0, R"({"n":3})"),
                                               series(Outcome::Improved, -3.0, "{}", "peak_mb")}));
  REQUIRE(step);
  CHECK(step->min_effect_pct == Approx(20.0));
  CHECK(step->series.params == R"({"n":1})");
}

TEST_CASE("no step when nothing moved decisively, and a refusal when combinations moved both ways")
{
  CHECK_FALSE(evidence::step_of(verdict({series(Outcome::Inconclusive, 0.3)})));
  CHECK_FALSE(evidence::step_of(verdict({series(Outcome::NoChange, 0.0)})));
  CHECK_FALSE(evidence::step_of(verdict({})));
  CHECK_THROWS_WITH(evidence::step_of(verdict({series(Outcome::Regressed, 1.0, R"({"n":1})"),
                                               series(Outcome::Improved, -1.0, R"({"n":2})")})),
                    Catch::Contains("--param AXIS=V") && Catch::Contains("n=1 regressed"));
}

TEST_CASE("a commit is bad when any series moved as the step did, good when all stayed or went back")
{
  const auto step = *evidence::step_of(verdict({series(Outcome::Regressed, std::log(3.0))}));
  CHECK(evidence::classify(verdict({series(Outcome::Regressed, 1.0)}), step) == CommitClass::Bad);
  CHECK(evidence::classify(verdict({series(Outcome::NoChange, 0.0), series(Outcome::Regressed, 1.0)}),
                           step) == CommitClass::Bad);
  CHECK(evidence::classify(verdict({series(Outcome::NoChange, 0.0)}), step) == CommitClass::Good);
  CHECK(evidence::classify(verdict({series(Outcome::Improved, -1.0), series(Outcome::NoChange, 0.0)}),
                           step) == CommitClass::Good);
  CHECK(evidence::classify(verdict({series(Outcome::NoChange, 0.0), series(Outcome::Inconclusive, 0.4)}),
                           step) == CommitClass::Inconclusive);
  CHECK(evidence::classify(verdict({series(Outcome::Regressed, 1.0, "{}", "peak_mb")}), step) ==
        CommitClass::Inconclusive); // no series of the metric
}

TEST_CASE("a commit whose output changed too is classed on its figures, not left inconclusive")
{
  const auto step = *evidence::step_of(verdict({series(Outcome::Regressed, std::log(3.0))}));
  auto changed = series(Outcome::Inconclusive, 1.0); // as an invalid session leaves it
  changed.figures_outcome = Outcome::Regressed;
  CHECK(evidence::classify(verdict({changed}), step) == CommitClass::Bad);
  changed.figures_outcome = Outcome::NoChange;
  CHECK(evidence::classify(verdict({changed}), step) == CommitClass::Good);
}

TEST_CASE("an improvement is bisected the same way: its commits are bad when they improved")
{
  const auto step = *evidence::step_of(verdict({series(Outcome::Improved, -1.0)}));
  CHECK(evidence::classify(verdict({series(Outcome::Improved, -1.0)}), step) == CommitClass::Bad);
  CHECK(evidence::classify(verdict({series(Outcome::Regressed, 0.2)}), step) == CommitClass::Good);
}

TEST_CASE("a recorded answer's change reads as the verdict's: percent for a log ratio, else its unit")
{
  core::LocatedStep located;
  located.estimate = std::log(2.0);
  located.low = std::log(1.5);
  located.high = std::log(2.5);
  CHECK(evidence::change_text(located) == "+100.0% [+50.0%, +150.0%]");
  located.log_ratio = false;
  located.unit = "ms";
  located.estimate = 2;
  located.low = 1;
  located.high = 3;
  CHECK(evidence::change_text(located) == "+2 ms [+1 ms, +3 ms]");
}
