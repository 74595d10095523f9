// The overall outcome of a verdict over several series holds the false-discovery rate
// (Benjamini-Hochberg at the verdict's alpha across the series it is built from); each series keeps
// its own outcome. The p-values and their adjusted figures are those of
// tests/unit/measure/false_discovery_test.cpp ("A verdict's series pass ..."), computed by hand
// from the BH definition: with m = 2, p = 0.03125 adjusts to 2 * 0.03125 / 1 = 0.0625 > 0.05 beside
// 0.5, and to min(0.0625, 2 * 0.04 / 2) = 0.04 <= 0.05 beside 0.04.
#include "evidence/interleaved_verdict.h"
#include "evidence/verdict.h"

#include <catch2/catch.hpp>

#include <optional>
#include <vector>

using namespace ej;
using measure::Outcome;

namespace {

evidence::SeriesComparison fd_series(Outcome outcome, std::optional<double> p)
{
  evidence::SeriesComparison s;
  s.comparison.outcome = outcome;
  s.comparison.p_value = p;
  return s;
}

evidence::PairedVerdict fd_paired(const std::string& metric, Outcome outcome, double p)
{
  evidence::PairedVerdict v;
  v.metric = metric;
  v.outcome = outcome;
  v.p_value = p;
  return v;
}

} // namespace

TEST_CASE("A combination improved at p between alpha / m and alpha does not make the sweep improved")
{
  const std::vector<evidence::SeriesComparison> sweep{fd_series(Outcome::Improved, 0.03125),
                                                      fd_series(Outcome::Inconclusive, 0.5)};
  CHECK(evidence::summarize_outcomes(sweep) == Outcome::Inconclusive);
  CHECK(sweep[0].comparison.outcome == Outcome::Improved); // the series' own outcome stays
  CHECK(evidence::false_discovery_note(sweep) ==
        "1 of 2 series improved or regressed on its own but is no discovery at a false-discovery rate of "
        "0.05 (Benjamini-Hochberg): the overall outcome leaves it out");
  // The same series with no change elsewhere: the held-back one is not a no change either.
  const std::vector<evidence::SeriesComparison> flat{fd_series(Outcome::Improved, 0.03125),
                                                     fd_series(Outcome::NoChange, 0.5)};
  CHECK(evidence::summarize_outcomes(flat) == Outcome::Inconclusive);
  // Held back, a regression cannot make a real improvement mixed.
  const std::vector<evidence::SeriesComparison> one_way{fd_series(Outcome::Improved, 0.001),
                                                        fd_series(Outcome::Regressed, 0.04),
                                                        fd_series(Outcome::NoChange, 0.9)};
  // m = 3: 0.001 adjusts to 0.003; 0.04 to min(3 * 0.04 / 2, 3 * 0.9 / 3) = 0.06 > 0.05.
  CHECK(evidence::summarize_outcomes(one_way) == Outcome::Improved);
}

TEST_CASE("A combination that passes Benjamini-Hochberg still makes the sweep improved")
{
  const std::vector<evidence::SeriesComparison> sweep{fd_series(Outcome::Improved, 0.03125),
                                                      fd_series(Outcome::NoChange, 0.04)};
  CHECK(evidence::summarize_outcomes(sweep) == Outcome::Improved);
  CHECK(evidence::false_discovery_note(sweep).empty());
  const std::vector<evidence::SeriesComparison> strong{fd_series(Outcome::Improved, 0.01),
                                                       fd_series(Outcome::Inconclusive, 0.5)};
  CHECK(evidence::summarize_outcomes(strong) == Outcome::Improved); // 0.01 adjusts to 0.02
  // One series is its own family: the plain test. A series without a test is outside the family.
  CHECK(evidence::summarize_outcomes({fd_series(Outcome::Improved, 0.03125)}) == Outcome::Improved);
  CHECK(evidence::summarize_outcomes({fd_series(Outcome::Improved, 0.03125),
                                      fd_series(Outcome::Inconclusive, std::nullopt)}) == Outcome::Improved);
}

TEST_CASE("The interleaved overall outcome counts only the primary series that pass Benjamini-Hochberg")
{
  evidence::InterleavedVerdict verdict;
  verdict.primary = "time_ms";
  verdict.design.alpha = 0.05;
  verdict.series = {fd_paired("time_ms", Outcome::Improved, 0.03125),
                    fd_paired("rss_kb", Outcome::Improved, 0.001),
                    fd_paired("time_ms", Outcome::NoChange, 0.5)};
  const auto primary = evidence::primary_discoveries(verdict);
  REQUIRE(primary.size() == 2); // the family is the primary metric's series alone
  CHECK(primary[0].first == &verdict.series[0]);
  CHECK_FALSE(primary[0].second);
  CHECK_FALSE(primary[1].second);
  verdict.series[2].p_value = 0.04;
  const auto together = evidence::primary_discoveries(verdict);
  CHECK(together[0].second);
  CHECK(together[1].second);
}
