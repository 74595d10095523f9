#include "measure/alpha_spending.h"
#include "measure/mann_whitney.h"
#include "measure/until_decisive.h"
#include "util/error.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace ej::measure;

namespace {

// Values near `center` with a fixed, symmetric spread of +-spread (no two equal).
std::vector<double> around(double center, double spread, std::size_t n)
{
  std::vector<double> values;
  for (std::size_t i = 0; i < n; ++i) {
    const double position = static_cast<double>((i * 7) % 11) - 5.0; // -5 .. 5, in a scrambled order
    values.push_back(center + spread * (position / 5.0) + 1e-7 * static_cast<double>(i));
  }
  return values;
}

UntilDecisiveOptions options(Direction direction, double min_effect_pct, std::size_t max_rounds)
{
  UntilDecisiveOptions o;
  o.direction = direction;
  o.min_effect = effect_band(PairedScale::LogRatio, min_effect_pct);
  o.max_rounds = max_rounds;
  return o;
}

} // namespace

// Crossing probabilities checked with SciPy 1.10.1 (/usr/bin/python3) on the boundaries printed
// here: for looks t = k / K and correlation sqrt(t_i / t_j),
//   scipy.stats.multivariate_normal(mean=zeros(k), cov=cov).cdf(c[:k], lower_limit=-c[:k])
// equals 1 - alpha(t_k) = 1 - 2 * norm.sf(1.959964 / sqrt(t_k)) to 1e-5 (the MVN integration's own
// error) at every k, for K = 2, 3 and 5.
TEST_CASE("O'Brien-Fleming-type spending boundaries spend alpha as SciPy's multivariate normal says")
{
  const std::vector<std::vector<double>> expected{
      {2.77181, 1.97931}, {3.39476, 2.40673, 2.01525}, {4.38261, 3.09973, 2.55336, 2.25385, 2.06351}};
  for (const auto& boundaries : expected) {
    const auto& computed = obrien_fleming_boundaries(boundaries.size(), 0.05);
    REQUIRE(computed.size() == boundaries.size());
    for (std::size_t k = 0; k < boundaries.size(); ++k) {
      CHECK(computed[k].z == Approx(boundaries[k]).margin(2e-5));
      CHECK(computed[k].tail == Approx(normal_sf(boundaries[k])).epsilon(1e-3));
    }
  }
  // One look is the fixed-sample test.
  CHECK(obrien_fleming_boundaries(1, 0.05)[0].z == Approx(1.959964).margin(1e-6));
  // Early looks of a long plan spend nothing measurable: no decision is possible there.
  const auto& long_plan = obrien_fleming_boundaries(300, 0.05);
  CHECK(std::isinf(long_plan[0].z));
  CHECK(long_plan[0].tail == 0.0);
  CHECK(long_plan.back().z > 1.96);
  CHECK(long_plan.back().z < 2.3);
  CHECK_THROWS_AS(obrien_fleming_boundaries(0, 0.05), ej::Error);
  CHECK_THROWS_AS(obrien_fleming_boundaries(10, 1.5), ej::Error);
}

TEST_CASE("A clear improvement stops at the first round whose interval can exclude no change")
{
  UntilDecisive rule(options(Direction::LowerIsBetter, 2.0, 20));
  CHECK(rule.state().decision == Decision::GoOn);
  const auto& boundaries = obrien_fleming_boundaries(20, 0.05);
  // Every value is negative: the exact signed-rank interval excludes 0 as soon as one pair of Walsh
  // averages reaches the look's level, i.e. at the first n with P(T <= 0) = 2^-n <= tail_n.
  std::size_t first = 1;
  while (std::ldexp(1.0, -static_cast<int>(first)) > boundaries[first - 1].tail) {
    ++first;
  }
  REQUIRE(first > 5);
  REQUIRE(first < 20);
  std::size_t decided_at = 0;
  for (const double value : around(-0.10, 0.02, 20)) {
    rule.add(value);
    const DecisiveState s = rule.state();
    if (s.decision != Decision::GoOn) {
      decided_at = s.rounds;
      CHECK(s.decision == Decision::Improved);
      CHECK(s.high < 0);
      CHECK(s.estimate == Approx(-0.10).margin(0.02));
      break;
    }
    CHECK(std::isinf(s.low));
  }
  CHECK(decided_at == first);
}

TEST_CASE("The same values are a regression when higher is better")
{
  UntilDecisive rule(options(Direction::HigherIsBetter, 2.0, 20));
  for (const double value : around(-0.10, 0.02, 20)) {
    rule.add(value);
  }
  CHECK(rule.state().decision == Decision::Regressed);
}

TEST_CASE("A significant change smaller than the min effect is not called improved")
{
  // Every value is -0.5% (below 0) but the min effect is 2%: the interval excludes no change, the
  // estimate does not pass the min effect, and the interval lies within +-2%: equivalent.
  UntilDecisive rule(options(Direction::LowerIsBetter, 2.0, 30));
  for (const double value : around(-0.005, 0.001, 30)) {
    rule.add(value);
  }
  const DecisiveState s = rule.state();
  CHECK(s.decision == Decision::Equivalent);
  CHECK(s.high < 0);
  CHECK(s.low > std::log1p(-0.02));
}

TEST_CASE("Values spread around no change within the min effect are decisively equivalent")
{
  UntilDecisive rule(options(Direction::LowerIsBetter, 2.0, 40));
  Decision last = Decision::GoOn;
  for (const double value : around(0.0, 0.004, 40)) {
    rule.add(value);
    last = rule.state().decision;
    if (last != Decision::GoOn) {
      break;
    }
  }
  CHECK(last == Decision::Equivalent);
  CHECK(rule.rounds() < 40);
}

TEST_CASE("Without a min effect nothing is ever equivalent")
{
  UntilDecisive rule(options(Direction::LowerIsBetter, 0.0, 12));
  for (const double value : around(0.0, 0.004, 12)) {
    rule.add(value);
  }
  CHECK(rule.state().decision == Decision::Inconclusive);
}

TEST_CASE("A spent budget is inconclusive and says how many rounds would likely decide")
{
  // A 3% estimate in +-30% noise: far from decided after 15 rounds.
  UntilDecisive rule(options(Direction::LowerIsBetter, 1.0, 15));
  const auto values = around(-0.03, 0.30, 15);
  for (std::size_t i = 0; i < values.size(); ++i) {
    rule.add(values[i]);
    if (i + 1 < values.size()) {
      CHECK(rule.state().decision == Decision::GoOn);
    }
  }
  const DecisiveState s = rule.state();
  CHECK(s.decision == Decision::Inconclusive);
  REQUIRE(s.rounds_needed);
  // The half-width must shrink from (high - low) / 2 to |estimate|: rounds grow by its square.
  const double factor = (s.high - s.low) / 2 / std::abs(s.estimate);
  CHECK(*s.rounds_needed == static_cast<std::size_t>(std::ceil(15 * factor * factor)));
  CHECK(*s.rounds_needed > 100);
  CHECK_THROWS_AS(rule.add(0.0), ej::Error);
}

TEST_CASE("The stopping rule rejects options and values it cannot use")
{
  UntilDecisiveOptions bad;
  bad.min_effect = {0.01, 0.02};
  CHECK_THROWS_AS(UntilDecisive(bad), ej::Error);
  UntilDecisiveOptions none;
  none.max_rounds = 0;
  CHECK_THROWS_AS(UntilDecisive(none), ej::Error);
  UntilDecisive rule(UntilDecisiveOptions{});
  CHECK_THROWS_AS(rule.add(NAN), ej::Error);
  CHECK_THROWS_AS(effect_band(PairedScale::LogRatio, -1), ej::Error);
  const EffectBand band = effect_band(PairedScale::Difference, 5, -20.0);
  CHECK(band.low == Approx(-1.0));
  CHECK(band.high == Approx(1.0));
  CHECK(to_string(Decision::Equivalent) == "equivalent");
}
