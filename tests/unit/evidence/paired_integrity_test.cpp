#include "evidence/paired_integrity.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace ej::evidence;
using ej::measure::Outcome;

namespace {

// A series of an interleaved session judged on its pairs: `change` percent on the log-ratio scale,
// from `reference_median` in `unit`.
PairedVerdict judged_pairs(std::string metric, std::string params, std::string unit, measure::Outcome outcome,
                           double change, double reference_median)
{
  PairedVerdict v;
  v.metric = std::move(metric);
  v.params = std::move(params);
  v.unit = std::move(unit);
  v.outcome = outcome;
  v.rounds = 6;
  v.estimate = std::log1p(change / 100);
  v.low = v.estimate - 0.01;
  v.high = v.estimate + 0.01;
  v.reference_median = reference_median;
  v.reference_level = reference_median;
  v.candidate_median = reference_median * (1 + change / 100);
  return v;
}

} // namespace

TEST_CASE("a timer that improved on the pairs while wall_s regressed on the same rounds is a disagreement")
{
  const std::vector<PairedVerdict> series{
      judged_pairs("t", R"({"n":1})", "ms", Outcome::Improved, -50, 100),
      judged_pairs("t", R"({"n":2})", "ms", Outcome::Improved, -50, 100),
      judged_pairs("wall_s", R"({"n":1})", "s", Outcome::Regressed, 160, 0.15),
      judged_pairs("wall_s", R"({"n":2})", "s", Outcome::NoChange, 1, 0.15)};
  const auto flags = paired_timer_disagreements(series, "t");
  REQUIRE(flags.size() == 1);
  CHECK(flags.front() == "the benchmark's own timer and the process's wall time disagree at n=1: t -50.0% "
                         "while wall_s +160.0%");
  // Judged on wall_s itself there is no other timer to hold it against.
  CHECK(paired_timer_disagreements(series, "wall_s").empty());
}

TEST_CASE("a wall time slower on the pairs by less than a process's start jitter is no disagreement")
{
  // 2 ms to 3 ms: +50%, decisive on the pairs, yet within what a loaded machine adds to any start.
  CHECK(paired_timer_disagreements({judged_pairs("t", "{}", "ms", Outcome::Improved, -10, 1),
                                    judged_pairs("wall_s", "{}", "s", Outcome::Regressed, 50, 0.002)},
                                   "t")
            .empty());
  CHECK(paired_timer_disagreements({judged_pairs("t", "{}", "ms", Outcome::Improved, -10, 1),
                                    judged_pairs("wall_s", "{}", "s", Outcome::Regressed, 50, 0.100)},
                                   "t")
            .size() == 1);
  // A timer that did not improve decisively disagrees with nothing.
  CHECK(paired_timer_disagreements({judged_pairs("t", "{}", "ms", Outcome::Inconclusive, -10, 1),
                                    judged_pairs("wall_s", "{}", "s", Outcome::Regressed, 50, 0.1)},
                                   "t")
            .empty());
}
