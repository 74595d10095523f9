#include "evidence/crossover.h"

#include <catch2/catch.hpp>

using namespace ej;
using evidence::SeriesComparison;
using measure::Outcome;

namespace {

SeriesComparison at(const std::string& params, Outcome outcome, const std::string& metric = "tok_s")
{
  SeriesComparison s;
  s.metric = metric;
  s.params = params;
  s.comparison.outcome = outcome;
  return s;
}

} // namespace

TEST_CASE("A crossover over one numeric axis reads as ranges from the ends of the sweep")
{
  const std::vector<SeriesComparison> sweep{
      at("concurrency=1", Outcome::Improved), at("concurrency=8", Outcome::Regressed),
      at("concurrency=2", Outcome::Improved), at("concurrency=4", Outcome::NoChange)};
  CHECK(evidence::crossover_words(sweep, "tok_s") == "wins at concurrency <= 2, no change at 4, loses at 8");
}

TEST_CASE("A crossover says every value when the candidate wins or loses everywhere")
{
  CHECK(evidence::crossover_words({at("size=1", Outcome::Improved), at("size=2", Outcome::Improved)},
                                  "tok_s") == "wins at every size");
  CHECK(evidence::crossover_words({at("size=1", Outcome::Regressed), at("size=10", Outcome::Improved),
                                   at("size=100", Outcome::Improved)},
                                  "tok_s") == "wins at size >= 10, loses at 1");
}

TEST_CASE("A crossover lists values that are no range, and whole combinations over several axes")
{
  CHECK(evidence::crossover_words(
            {at("n=1", Outcome::Improved), at("n=2", Outcome::Regressed), at("n=3", Outcome::Improved)},
            "tok_s") == "wins at n = 1 and 3, loses at 2");
  CHECK(evidence::crossover_words({at("a=1,b=x", Outcome::Improved), at("a=2,b=y", Outcome::Regressed)},
                                  "tok_s") == "wins at a=1,b=x, loses at a=2,b=y");
  CHECK(evidence::crossover_words(
            {at("variant=naive", Outcome::Inconclusive), at("variant=fused", Outcome::Improved)}, "tok_s") ==
        "wins at variant = fused, inconclusive at naive");
}

TEST_CASE("No crossover without a sweep of the metric")
{
  CHECK(evidence::crossover_words({at("", Outcome::Improved)}, "tok_s").empty());
  CHECK(evidence::crossover_words(
            {at("size=1", Outcome::Improved), at("size=2", Outcome::Regressed, "wall_s")}, "tok_s")
            .empty());
}
