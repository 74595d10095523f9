// Where false-discovery control leaves a decisive series out of an overall outcome, what is said
// next follows that outcome: `ej compare`'s `next` is decisive only when its `outcome` is, and the
// note that a series was left out is given wherever one was. The figures: a side of 20..25 against
// 15, 16, 17, 18, 20.5, 22.5 is improved on its own at the exact Mann-Whitney p = 0.026 (SciPy
// mannwhitneyu(method="exact")), which is no discovery beside a second tested series of the judged
// metric (BH with m = 2 needs p <= 0.025).
#include "evidence/compare_sides.h"
#include "evidence/reader.h"
#include "evidence/verdict.h"
#include "unit/evidence/test_journal.h"

#include <catch2/catch.hpp>

using namespace ej;
using measure::Outcome;
using test::Combination;
using test::TestJournal;

namespace {

const std::vector<double> k_slower{20, 21, 22, 23, 24, 25};
const std::vector<double> k_faster{15, 16, 17, 18, 20.5, 22.5};
const std::vector<double> k_level(6, 10.0);
const std::vector<core::ParamAxis> k_axes{{"n", {"1", "2"}}};

Combination at_n(const std::string& n, std::vector<double> values)
{
  return {{{"n", n}}, std::move(values)};
}

} // namespace

TEST_CASE("ej compare's next is decisive only when the judged metric's outcome is and notes what BH left out")
{
  // Two combinations of time_ms, the judged metric: n=1 improved at p = 0.026, decisive on its own;
  // beside n=2 (the same on both sides, p = 1) it is no discovery, so the outcome over both is
  // inconclusive. A second metric never widens that family (nor decides).
  TestJournal j;
  j.plan("p");
  j.bench("b", "time_ms", false, "us", 1, k_axes);
  j.also_record("setup_ms", 3);
  j.attempt(1, "p");
  j.attempt(2, "p");
  j.run(1, 1, {at_n("1", k_slower), at_n("2", k_level)});
  j.run(2, 2, {at_n("1", k_faster), at_n("2", k_level)});
  evidence::Reader reader(j.journal());
  evidence::CompareQuery query;
  query.a = "r1";
  query.b = "r2";
  const auto answer = evidence::compare_sides(reader, query);
  const auto out = evidence::compare_json(answer);
  INFO(out.dump(2));
  REQUIRE(out["outcome"] == "inconclusive");
  bool improved_alone = false;
  for (const auto& s : out["series"]) {
    improved_alone = improved_alone || (s["params"] == "n=1" && s["outcome"] == "improved");
  }
  REQUIRE(improved_alone);
  REQUIRE_FALSE(out["next"].empty());
  CHECK(out["next"][0]["kind"] == "measure_against");
  CHECK_FALSE(out["next"][0]["noise"].is_null()); // sized on the series left out
  CHECK_THAT(out["warnings"].dump(),
             Catch::Contains("1 of 2 series improved or regressed on its own but is no discovery"));
}

TEST_CASE("an attempt whose headline combination decides gives no note that the overall outcome left one out")
{
  TestJournal j;
  j.plan("p", {"b:time_ms"}, {}, "n=2");
  j.bench("b", "time_ms", false, "us", 1, k_axes);
  j.attempt(1, "p");
  j.attempt(2, "p");
  j.run(1, 1, {at_n("1", k_slower), at_n("2", k_level)});
  j.run(2, 2, {at_n("1", k_faster), at_n("2", k_level)});
  j.baseline("p", 1);
  evidence::Reader reader(j.journal());
  const auto v = evidence::judge_attempt(reader, 2).verdict;
  REQUIRE(v);
  REQUIRE(v->headline_index);
  REQUIRE(v->combinations[0].comparison.outcome == Outcome::Improved);
  CHECK(v->decisive_outcome() == Outcome::NoChange);
  for (const auto& warning : v->warnings) {
    CHECK_THAT(warning, !Catch::Contains("no discovery"));
  }

  // Without the headline the same sweep's overall outcome leaves n=1 out, and says so.
  TestJournal k;
  k.plan("p");
  k.bench("b", "time_ms", false, "us", 1, k_axes);
  k.attempt(1, "p");
  k.attempt(2, "p");
  k.run(1, 1, {at_n("1", k_slower), at_n("2", k_level)});
  k.run(2, 2, {at_n("1", k_faster), at_n("2", k_level)});
  k.baseline("p", 1);
  evidence::Reader plain(k.journal());
  const auto w = evidence::judge_attempt(plain, 2).verdict;
  REQUIRE(w);
  CHECK(w->outcome == Outcome::Inconclusive);
  CHECK_THAT(Catch::Detail::stringify(w->warnings), Catch::Contains("no discovery"));
}
