#include "evidence/compare_sets.h"
#include "evidence/reader.h"
#include "unit/evidence/test_journal.h"
#include "util/error.h"

#include <catch2/catch.hpp>

using namespace ej;
using evidence::Reader;
using test::Combination;
using test::TestJournal;

namespace {

Combination combination(const std::string& variant, const std::string& size, std::vector<double> values)
{
  return {{{"variant", variant}, {"size", size}}, std::move(values)};
}

const std::vector<double> k_slow{10.0, 10.1, 9.9, 10.2, 9.8, 10.05, 9.95, 10.15, 9.85, 10.0};
const std::vector<double> k_fast{4.0, 4.04, 3.96, 4.08, 3.92, 4.02, 3.98, 4.06, 3.94, 4.0};

bool mentions(const std::vector<std::string>& warnings, const std::string& text)
{
  for (const auto& warning : warnings) {
    if (warning.find(text) != std::string::npos) {
      return true;
    }
  }
  return false;
}

} // namespace

TEST_CASE("Two combinations of one run are compared when the user names them, labelled with both sides")
{
  TestJournal j;
  j.plan("p");
  j.bench("b");
  j.attempt(1, "p");
  j.run(1, 1,
        {combination("naive", "1", k_slow), combination("naive", "2", k_slow),
         combination("blocked", "1", k_fast), combination("blocked", "2", k_fast)});
  Reader reader(j.journal());
  const auto naive = reader.run_set(1, {{"variant", "naive"}});
  const auto blocked = reader.run_set(1, {{"variant", "blocked"}});
  REQUIRE(naive);
  REQUIRE(blocked);
  CHECK(naive->label == "run #1 [variant=naive]");
  const auto report = evidence::compare_sets(reader, *naive, *blocked, {});
  REQUIRE(report.series.size() == 2);
  CHECK(report.series[0].params == "size=1");
  CHECK(report.series[0].reference_params == "variant=naive");
  CHECK(report.series[0].candidate_params == "variant=blocked");
  CHECK(report.series[0].label() == "time_ms [size=1, variant=naive vs variant=blocked]");
  CHECK(report.series[1].params == "size=2");
  CHECK(report.series[1].comparison.outcome == measure::Outcome::Improved);
  // The same combinations of the same run say nothing.
  std::string why;
  CHECK_FALSE(evidence::try_compare(reader, *naive, *naive, {}, why));
  CHECK(why.find("compared with itself says nothing") != std::string::npos);
}

TEST_CASE("Without selectors, combinations are matched value with value, and the missing ones are said")
{
  TestJournal j;
  j.plan("p");
  j.bench("b");
  j.attempt(1, "p");
  j.attempt(2, "p");
  j.run(1, 1, {combination("naive", "1", k_slow), combination("naive", "2", k_slow)});
  j.run(2, 2, {combination("naive", "2", k_fast), combination("naive", "4", k_fast)});
  Reader reader(j.journal());
  const auto report = evidence::compare_sets(reader, *reader.run_set(1), *reader.run_set(2), {});
  REQUIRE(report.series.size() == 1);
  CHECK(report.series[0].params == "size=2,variant=naive");
  CHECK(mentions(report.warnings, "not in the reference, so not compared: time_ms [size=4,variant=naive]"));
  CHECK(mentions(report.warnings, "not in the candidate, so not compared: time_ms [size=1,variant=naive]"));
}

TEST_CASE("Comparisons that make no sense are refused with what to do")
{
  TestJournal j;
  j.plan("p");
  j.bench("b");
  j.bench("other");
  j.attempt(1, "p");
  j.run(1, 1, {{{}, k_slow}});
  j.run(2, 1, {{{}, k_fast}});
  j.run(3, 1, {{{}, k_fast}}, "", "other");
  Reader reader(j.journal());
  const auto one = *reader.run_set(1);
  const auto two = *reader.run_set(2);
  CHECK_THROWS_WITH(evidence::compare_sets(reader, one, *reader.run_set(3), {}),
                    Catch::Contains("results of different benchmarks are not comparable"));
  evidence::CompareRequest request;
  request.metric = "tok_s";
  CHECK_THROWS_WITH(evidence::compare_sets(reader, one, two, request),
                    Catch::Contains("no samples of metric 'tok_s'"));
  CHECK_FALSE(reader.run_set(99));
  CHECK_FALSE(reader.attempt_set(42));
}

TEST_CASE("Series recorded in different units are compared in one, and units that do not convert are not")
{
  TestJournal j;
  j.plan("p");
  j.bench("b", "time_ms", false, "ms");
  j.attempt(1, "p");
  j.run(1, 1, {{{}, k_slow}}); // 10 ms
  j.bench("b", "time_ms", false, "us", 2);
  j.run(2, 1, {{{}, {4000, 4040, 3960, 4080, 3920, 4020, 3980, 4060, 3940, 4000}}}, "", "b",
        1); // 4 ms, in us
  Reader reader(j.journal());
  const auto report = evidence::compare_sets(reader, *reader.run_set(1), *reader.run_set(2), {});
  REQUIRE(report.series.size() == 1);
  CHECK(report.series[0].unit == "us");
  CHECK(report.series[0].comparison.reference_median == Approx(10000));
  CHECK(*report.series[0].comparison.change_pct == Approx(-60.0).margin(0.5));
  CHECK(mentions(report.warnings, "the reference's values were converted from ms to us"));

  j.bench("b", "time_ms", false, "GB", 3);
  j.run(3, 1, {{{}, k_fast}}, "", "b", 1);
  std::string why;
  CHECK_FALSE(evidence::try_compare(reader, *reader.run_set(1), *reader.run_set(3), {}, why));
  CHECK(why.find("no combination") != std::string::npos);
}
