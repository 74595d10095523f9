#include "evidence/integrity.h"

#include "unit/evidence/series_of.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace ej::evidence;
using ej::measure::Direction;
using nlohmann::json;

namespace {

json stored_digests(json by_params, json varies = json::array())
{
  return {{"same_output", {{"kind", "stdout"}, {"name", ""}, {"digests", by_params}, {"varies", varies}}}};
}

SeriesComparison judged_series(std::string metric, std::string params, ej::measure::Outcome outcome,
                               double change, double reference_median = 0.1)
{
  SeriesComparison s;
  s.comparison.reference_median = reference_median;
  s.comparison.candidate_median = reference_median * (1 + change / 100);
  s.metric = std::move(metric);
  s.params = std::move(params);
  s.unit = "ms";
  s.quantity = Quantity::Time;
  s.comparison.outcome = outcome;
  s.comparison.change_pct = change;
  return s;
}

} // namespace

TEST_CASE("a value beyond its floor on the better side is implausible, in the floor's unit")
{
  const MetricRules::Floor floor{{"copy_ms", 0.8}, "ms"};
  CHECK(beyond_floor(floor, Direction::LowerIsBetter, "copy_ms", 0.11, "ms") ==
        "implausible: copy_ms 0.11 ms is below its floor 0.8 ms (--floor)");
  CHECK_FALSE(beyond_floor(floor, Direction::LowerIsBetter, "copy_ms", 0.8, "ms"));
  CHECK(beyond_floor(floor, Direction::LowerIsBetter, "copy_ms", 500, "us")); // 0.5 ms
  CHECK_FALSE(beyond_floor(floor, Direction::LowerIsBetter, "copy_ms", 900, "us"));
  CHECK_FALSE(beyond_floor(floor, Direction::LowerIsBetter, "copy_ms", 0.1, "tok/s")); // not a time
  const MetricRules::Floor ceiling{{"gbs", 3350}, "GB/s"};
  CHECK(beyond_floor(ceiling, Direction::HigherIsBetter, "gbs", 4000, "GB/s") ==
        "implausible: gbs 4000 GB/s is above its floor 3350 GB/s (--floor)");
}

TEST_CASE("floor flags name the series whose best value is beyond the floor")
{
  MetricRules rules;
  rules.directions["copy_ms"] = Direction::LowerIsBetter;
  rules.floors.push_back({{"copy_ms", 0.8}, "ms"});
  const auto flags = floor_flags({ej::test::series_of("copy_ms", "n=1", "ms", {2, 1.5}),
                                  ej::test::series_of("copy_ms", "n=2", "ms", {2, 0.5})},
                                 rules);
  REQUIRE(flags.size() == 1);
  CHECK(flags.front() == "implausible: copy_ms [n=2] 0.5 ms is below its floor 0.8 ms (--floor)");
}

TEST_CASE("output digests that differ at a combination make the comparison invalid, and say where")
{
  const std::vector<json> reference{stored_digests({{"n=1", "aa"}, {"n=2", "bb"}})};
  CHECK_FALSE(digests_differ(reference, {stored_digests({{"n=1", "aa"}, {"n=2", "bb"}})}));
  CHECK(digests_differ(reference, {stored_digests({{"n=1", "aa"}, {"n=2", "cc"}})}) ==
        "output differs from the baseline's at n=2");
  CHECK(digests_differ(reference, {stored_digests({{"n=1", "missing"}})}) ==
        "the candidate wrote no output file at n=1");
  CHECK(digests_differ(reference, {stored_digests({{"n=1", "aa"}}, {"n=1"})}) ==
        "the candidate's output varies from repeat to repeat at n=1, so it cannot be held against the "
        "baseline's");
  // Two runs of an attempt that disagree vary too.
  CHECK(digests_differ(reference, {stored_digests({{"n=1", "aa"}}), stored_digests({{"n=1", "ab"}})}));
  // A candidate measured without digests is not judged on them.
  CHECK_FALSE(digests_differ(reference, {json::object()}));
}

TEST_CASE("an interleaved comparison's outputs are held against the reference's, and say so")
{
  const std::vector<json> reference{stored_digests({{"n=1", "aa"}})};
  CHECK(digests_differ(reference, {stored_digests({{"n=1", "cc"}})}, "reference") ==
        "output differs from the reference's at n=1");
  CHECK(digests_differ({stored_digests({{"n=1", "aa"}}, {"n=1"})}, {stored_digests({{"n=1", "aa"}})},
                       "reference") == "the reference's output varies from repeat to repeat at n=1");
  const ej::core::SameOutput same{ej::core::SameOutput::Kind::Metric, "sum", 0};
  CHECK(metric_differs({ej::test::series_of("sum", "", "", {4950})},
                       {ej::test::series_of("sum", "", "", {0})}, same,
                       "reference") == "output differs from the reference's: sum 0 vs 4950");
}

TEST_CASE("outputs that differ make a comparison invalid whatever its flags, and flags alone make it suspect")
{
  const auto invalid = integrity_of("output differs from the baseline's", {"implausible: x"});
  CHECK(invalid.validity == Validity::Invalid);
  CHECK(invalid.invalid_reason == "output differs from the baseline's");
  CHECK(invalid.flags == std::vector<std::string>{"implausible: x"});
  CHECK(integrity_text(invalid) == "invalid: output differs from the baseline's; flagged: implausible: x");
  const auto suspect = integrity_of(std::nullopt, {"a", "b"});
  CHECK(suspect.validity == Validity::Suspect);
  CHECK(integrity_text(suspect) == "flagged: a; b");
  const auto valid = integrity_of(std::nullopt, {});
  CHECK(valid.validity == Validity::Valid);
  CHECK(integrity_text(valid).empty());
}

TEST_CASE("floor flags of both sides name the reference's side")
{
  MetricRules rules;
  rules.directions["copy_ms"] = Direction::LowerIsBetter;
  rules.floors.push_back({{"copy_ms", 0.8}, "ms"});
  const auto flags = sides_floor_flags({ej::test::series_of("copy_ms", "", "ms", {0.5})},
                                       {ej::test::series_of("copy_ms", "", "ms", {0.4})}, rules, "reference");
  REQUIRE(flags.size() == 2);
  CHECK(flags[0] == "implausible: copy_ms 0.4 ms is below its floor 0.8 ms (--floor)");
  CHECK(flags[1] == "implausible: copy_ms 0.5 ms is below its floor 0.8 ms (--floor), in the reference");
}

TEST_CASE("a metric compared as output differs beyond its tolerance only")
{
  const ej::core::SameOutput same{ej::core::SameOutput::Kind::Metric, "sum", 0.5};
  const std::vector<SeriesSummary> reference{ej::test::series_of("sum", "", "", {4950, 4950})};
  CHECK_FALSE(metric_differs(reference, {ej::test::series_of("sum", "", "", {4960})}, same)); // 0.2%
  CHECK(metric_differs(reference, {ej::test::series_of("sum", "", "", {4900})}, same) ==
        "output differs from the baseline's: sum 4900 vs 4950, beyond 0.5%");
  const ej::core::SameOutput exact{ej::core::SameOutput::Kind::Metric, "sum", 0};
  CHECK(metric_differs(reference, {ej::test::series_of("sum", "", "", {4950.001})}, exact));
}

TEST_CASE("a self-reported time that improved while the wall time regressed is a disagreement")
{
  using ej::measure::Outcome;
  const auto flags = timer_disagreements(
      {judged_series("t", "n=1", Outcome::Improved, -50), judged_series("t", "n=2", Outcome::Improved, -50)},
      {judged_series("wall_s", "n=1", Outcome::Regressed, 160),
       judged_series("wall_s", "n=2", Outcome::NoChange, 1)});
  REQUIRE(flags.size() == 1);
  CHECK_THAT(flags.front(),
             Catch::StartsWith("the benchmark's own timer and the process's wall time disagree "
                               "at n=1: t "));
}

TEST_CASE("a wall time slower by less than a loaded machine adds to starting a process is no disagreement")
{
  using ej::measure::Outcome;
  // 2 ms to 3 ms: +50%, decisive, yet 1 ms is what a busy machine adds to any process's start.
  CHECK(timer_disagreements({judged_series("t", "", Outcome::Improved, -10)},
                            {judged_series("wall_s", "", Outcome::Regressed, 50, 0.002)})
            .empty());
  CHECK(timer_disagreements({judged_series("t", "", Outcome::Improved, -10)},
                            {judged_series("wall_s", "", Outcome::Regressed, 50, 0.100)})
            .size() == 1);
  // A millisecond kernel that moved 12 ms of work out of its timed region: 5 ms -> 17 ms of wall
  // time (+240%) while its timer says 5 ms -> 1 ms. Under the 20 ms of stop 41 this went unflagged.
  CHECK(timer_disagreements({judged_series("t", "", Outcome::Improved, -80)},
                            {judged_series("wall_s", "", Outcome::Regressed, 240, 0.005)})
            .size() == 1);
}
