#include "evidence/metric_rules.h"
#include "evidence/run_summary.h"
#include "measure/metric_spec.h"

#include "unit/evidence/series_of.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace ej::evidence;
using ej::measure::Direction;
using ej::measure::summarize;

namespace {

MetricRules rules(std::string primary)
{
  MetricRules r;
  r.primary = std::move(primary);
  r.directions["time_ms"] = Direction::LowerIsBetter;
  r.directions["gbs"] = Direction::HigherIsBetter;
  return r;
}

} // namespace

TEST_CASE("a run's summary gives mean ± σ, median and min … max in a readable unit")
{
  const auto text = run_summary_text({ej::test::series_of("wall_s", "", "s", {0.0991295, 0.0907593, 0.095})},
                                     rules("wall_s"));
  CHECK(text == "  wall_s\n"
                "    mean ± σ:    94.96 ms ± 4.19 ms\n"
                "    median:      95.00 ms\n"
                "    min … max:   90.76 ms … 99.13 ms    n = 3\n");
}

TEST_CASE("a sweep's summary is a table by combination and says how each value compares with the first")
{
  const auto text =
      run_summary_text({ej::test::series_of("time_ms", "variant=naive", "ms", {28.0, 28.5, 29.0}),
                        ej::test::series_of("time_ms", "variant=blocked", "ms", {11.5, 11.8, 12.1})},
                       rules("time_ms"));
  CHECK(text == "  time_ms\n"
                "    variant   mean ± σ             median     min … max             n\n"
                "    naive     28.50 ms ± 0.50 ms   28.50 ms   28.00 ms … 29.00 ms   3\n"
                "    blocked   11.80 ms ± 0.30 ms   11.80 ms   11.50 ms … 12.10 ms   3\n"
                "  variant=blocked ran 2.42 ± 0.07 times faster than variant=naive\n");
}

TEST_CASE("with two axes each value is compared with its axis's first, the other axis held fixed")
{
  const auto text = run_summary_text({ej::test::series_of("gbs", "variant=a,size=1", "GB/s", {10.0, 10.0}),
                                      ej::test::series_of("gbs", "variant=a,size=2", "GB/s", {12.0, 12.0}),
                                      ej::test::series_of("gbs", "variant=b,size=1", "GB/s", {5.0, 5.0}),
                                      ej::test::series_of("gbs", "variant=b,size=2", "GB/s", {24.0, 24.0})},
                                     rules("gbs"));
  CHECK_THAT(text, Catch::EndsWith("  variant=b ran 2.00 ± 0.00 times slower than variant=a (size=1)\n"
                                   "  variant=b ran 2.00 ± 0.00 times faster than variant=a (size=2)\n"
                                   "  size=2 ran 1.20 ± 0.00 times faster than size=1 (variant=a)\n"
                                   "  size=2 ran 4.80 ± 0.00 times faster than size=1 (variant=b)\n"));
}

TEST_CASE("relative figures follow the metric's direction and quantity")
{
  const auto fast = summarize(std::vector<double>{10.0, 10.0});
  const auto slow = summarize(std::vector<double>{20.0, 20.0});
  CHECK(relative_text(fast, slow, Direction::LowerIsBetter, Quantity::Time, "t") ==
        "ran 2.00 ± 0.00 times faster than");
  CHECK(relative_text(fast, slow, Direction::HigherIsBetter, Quantity::Rate, "r") ==
        "ran 2.00 ± 0.00 times slower than");
  CHECK(relative_text(fast, slow, Direction::LowerIsBetter, Quantity::Other, "rss") ==
        "had 2.00 ± 0.00 times lower rss than");
  const auto one = summarize(std::vector<double>{10.0});
  const auto other = summarize(std::vector<double>{25.0});
  CHECK(relative_text(other, one, Direction::LowerIsBetter, Quantity::Time, "t") ==
        "ran 2.50 times slower than");
}

TEST_CASE("outliers, a slow first repeat and high noise are warned about in hyperfine's words")
{
  const auto noisy = summarize(std::vector<double>{10, 14, 8, 15, 9, 13});
  const auto warnings = summary_warnings(noisy, "", "ms");
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0],
             Catch::StartsWith("Warning: high noise: σ is 25% of the mean (11.50 ms ± 2.88 ms)"));

  const auto outlier = summarize(std::vector<double>{10.1, 10.2, 10.3, 10.4, 30, 10.6, 10.7, 10.8, 10.9});
  const auto said = summary_warnings(outlier, "variant=a", "ms");
  REQUIRE(said.size() == 2);
  CHECK_THAT(said[0],
             Catch::StartsWith("Warning (variant=a): statistical outliers were detected (1 of 9 repeats). "
                               "Consider re-running on a quiet system"));
  CHECK_THAT(said[1], Catch::StartsWith("Warning (variant=a): high noise"));

  const auto first_slow = summarize(std::vector<double>{50, 10, 10.1, 10, 9.9, 10});
  const auto first = summary_warnings(first_slow, "", "ms");
  REQUIRE(!first.empty());
  CHECK_THAT(first[0],
             Catch::StartsWith("Warning: the first repeat was significantly slower than the rest."));

  CHECK(summary_warnings(summarize(std::vector<double>{10, 10.1, 9.9}), "", "ms").empty());
}

TEST_CASE("the primary metric comes first, alone gets the warnings, and a unit its name spells is written")
{
  const auto text = run_summary_text({ej::test::series_of("wall_s", "", "s", {0.001, 0.004, 0.001, 0.001}),
                                      ej::test::series_of("time_ms", "", "", {28.0, 28.5, 29.0})},
                                     rules("time_ms"));
  CHECK(text.find("  time_ms\n    mean ± σ:    28.50 ms ± 0.50 ms\n") == 0);
  CHECK_THAT(text, Catch::Contains("  wall_s\n"));
  CHECK_THAT(text, !Catch::Contains("Warning")); // wall_s is noisy, but not what the run is about
}

TEST_CASE("an inferred direction follows the unit a series was stored in, and a given one stays")
{
  ej::core::BenchDefinition definition;
  auto inferred = ej::measure::parse_metric_spec("med=regex:median throughput:\\s+([0-9.]+)");
  auto given = ej::measure::parse_metric_spec("lat=regex:lat ([0-9.]+)");
  given.better = ej::measure::Direction::HigherIsBetter;
  given.better_choice = ej::core::DirectionChoice::Given;
  definition.metrics = {inferred, given};
  const auto judged = rules_of(definition);
  // Before, a regex's tok/s was judged by the direction stored at bench add: lower.
  CHECK(judged.direction_of("med", "tok/s") == Direction::HigherIsBetter);
  CHECK(judged.direction_of("med", "ms") == Direction::LowerIsBetter);
  CHECK(judged.direction_of("med", "") == Direction::LowerIsBetter);
  CHECK(judged.direction_of("lat", "ms") == Direction::HigherIsBetter);
  CHECK(judged.direction_of("wall_s", "s") == Direction::LowerIsBetter);
}
