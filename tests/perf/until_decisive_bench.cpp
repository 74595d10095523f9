// How measure::UntilDecisive behaves on simulated interleaved comparisons: the false-verdict rate
// of A/A sessions on a drifting machine, the power on a real change, and the rounds it saves
// against a fixed number of rounds with the same error rates. Prints figures; asserts nothing.
//
// A session alternates the candidate and the reference, one repeat each per round, in an order
// drawn per round. Each repeat takes base * (1 - change for the candidate) * speed(t) * exp(noise * e),
// e ~ N(0, 1), noise 10%; the machine's speed drifts: log speed(t) moves by a random walk of 0.5%
// per repeat plus a trend of +0.05% per repeat (about 35% slower by round 300), so runs measured
// at different times differ by far more than the change. Per-round value: log(candidate /
// reference). The rule: alpha 0.05, min effect 1%, at most k_max_rounds rounds.
//
// Figures:
// - A/A (no change): the share of sessions ending improved or regressed (false verdicts), with its
//   Monte-Carlo standard error, against alpha; beside it, the rate a naive rule gets that looks
//   after every round at a fixed 95% interval;
// - a real 3% change: the share found improved within the budget (power), the mean rounds to a
//   decision (a session that never decides counts the whole budget);
// - fixed N: the smallest N (multiples of 10) whose one test at 95% after N rounds finds the change
//   at least as often (the same power at the same alpha), its A/A false rate, and the saving in
//   mean rounds of the rule against it;
// - for contrast, the A/A false rate of a sequential comparison on the same machine (the reference's
//   150 repeats, then the candidate's 150, judged by compare()).
// Seeds are fixed: the output is the same on every run.
//
// Usage: perf_until_decisive_bench [SESSIONS] (default 1000 per scenario; A/A runs twice as many).
#include "measure/comparison.h"
#include "measure/paired.h"
#include "measure/until_decisive.h"
#include "perf/seeded_random.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

constexpr std::size_t k_max_rounds = 300;
constexpr double k_alpha = 0.05;
constexpr double k_min_effect_pct = 1.0;
constexpr double k_noise = 0.10;
constexpr double k_walk = 0.005;
constexpr double k_trend = 0.0005;
constexpr double k_change = 0.03;

// The per-round values of one session of k_max_rounds rounds.
std::vector<double> session(double change, ej::perf::SeededRandom& random)
{
  std::vector<double> values;
  double log_speed = 0;
  const auto repeat = [&](double factor) {
    log_speed += k_trend + k_walk * random.normal();
    return factor * std::exp(log_speed + k_noise * random.normal());
  };
  for (std::size_t round = 0; round < k_max_rounds; ++round) {
    double candidate = 0;
    double reference = 0;
    if (random.uniform() < 0.5) {
      candidate = repeat(1 - change);
      reference = repeat(1.0);
    } else {
      reference = repeat(1.0);
      candidate = repeat(1 - change);
    }
    values.push_back(std::log(candidate / reference));
  }
  return values;
}

// The same machine measured sequentially: half the session's repeats of the reference, then half of
// the candidate (identical code).
struct Runs {
  std::vector<double> reference;
  std::vector<double> candidate;
};

Runs sequential_runs(ej::perf::SeededRandom& random)
{
  Runs runs;
  double log_speed = 0;
  for (std::size_t i = 0; i < k_max_rounds; ++i) {
    log_speed += k_trend + k_walk * random.normal();
    (i < k_max_rounds / 2 ? runs.reference : runs.candidate)
        .push_back(std::exp(log_speed + k_noise * random.normal()));
  }
  return runs;
}

struct Outcome {
  ej::measure::Decision decision = ej::measure::Decision::Inconclusive;
  std::size_t rounds = 0;
};

Outcome until_decisive(const std::vector<double>& values)
{
  ej::measure::UntilDecisiveOptions options;
  options.direction = ej::measure::Direction::LowerIsBetter;
  options.min_effect = ej::measure::effect_band(ej::measure::PairedScale::LogRatio, k_min_effect_pct);
  options.alpha = k_alpha;
  options.max_rounds = k_max_rounds;
  ej::measure::UntilDecisive rule(options);
  for (const double value : values) {
    rule.add(value);
    const auto state = rule.state();
    if (state.decision != ej::measure::Decision::GoOn) {
      return {state.decision, state.rounds};
    }
  }
  return {};
}

// compare()'s reading of one interval: improved/regressed, or nothing (no change or undecided).
bool decides_change(const ej::measure::Location& at, double threshold, bool* improved)
{
  const bool down = at.high < 0 && at.estimate < std::log1p(-threshold);
  const bool up = at.low > 0 && at.estimate > std::log1p(threshold);
  *improved = down;
  return down || up;
}

// Does one test at 95% after the first n rounds call a change (and is it an improvement)?
bool fixed_decides(const std::vector<double>& values, std::size_t n, bool* improved)
{
  std::vector<double> sorted(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n));
  std::sort(sorted.begin(), sorted.end());
  return decides_change(ej::measure::paired_interval(sorted, 0.95), k_min_effect_pct / 100, improved);
}

// Looking after every round at a fixed 95% interval: does any look call a change?
bool naive_false(const std::vector<double>& values)
{
  std::vector<double> sorted;
  for (const double value : values) {
    sorted.insert(std::upper_bound(sorted.begin(), sorted.end(), value), value);
    bool improved = false;
    if (sorted.size() >= 6 &&
        decides_change(ej::measure::paired_interval(sorted, 0.95), k_min_effect_pct / 100, &improved)) {
      return true;
    }
  }
  return false;
}

std::string rate(std::size_t count, std::size_t total)
{
  const double p = static_cast<double>(count) / static_cast<double>(total);
  return fmt::format("{:.4f} +- {:.4f} ({} of {})", p, std::sqrt(p * (1 - p) / static_cast<double>(total)),
                     count, total);
}

} // namespace

int main(int argc, char** argv)
{
  const std::size_t sessions = argc > 1 ? static_cast<std::size_t>(std::atol(argv[1])) : 1000;
  fmt::print("until decisive: alpha {}, min effect {}%, at most {} rounds; noise {}%, drift: walk {}% + "
             "trend {}% per repeat\n",
             k_alpha, k_min_effect_pct, k_max_rounds, k_noise * 100, k_walk * 100, k_trend * 100);

  // A/A: identical code on a drifting machine.
  ej::perf::SeededRandom aa_random(29);
  std::vector<std::vector<double>> aa;
  for (std::size_t i = 0; i < 2 * sessions; ++i) {
    aa.push_back(session(0.0, aa_random));
  }
  std::size_t false_improved = 0;
  std::size_t false_regressed = 0;
  std::size_t equivalent = 0;
  double aa_rounds = 0;
  for (const auto& values : aa) {
    const Outcome o = until_decisive(values);
    false_improved += o.decision == ej::measure::Decision::Improved ? 1 : 0;
    false_regressed += o.decision == ej::measure::Decision::Regressed ? 1 : 0;
    equivalent += o.decision == ej::measure::Decision::Equivalent ? 1 : 0;
    aa_rounds +=
        static_cast<double>(o.decision == ej::measure::Decision::Inconclusive ? k_max_rounds : o.rounds);
  }
  std::size_t naive = 0;
  for (std::size_t i = 0; i < sessions; ++i) {
    naive += naive_false(aa[i]) ? 1 : 0;
  }
  // What the same machine does to a sequential comparison: the reference's repeats first, then the
  // candidate's, judged by compare() (Mann-Whitney on the two runs).
  ej::perf::SeededRandom sequential_random(31);
  std::size_t sequential_false = 0;
  for (std::size_t i = 0; i < sessions; ++i) {
    const Runs runs = sequential_runs(sequential_random);
    ej::measure::CompareOptions compare_options;
    compare_options.min_effect_pct = k_min_effect_pct;
    const auto c = ej::measure::compare(runs.reference, runs.candidate, compare_options);
    sequential_false +=
        c.outcome == ej::measure::Outcome::Improved || c.outcome == ej::measure::Outcome::Regressed;
  }
  fmt::print("\nA/A, {} sessions:\n", aa.size());
  fmt::print("  false improved or regressed: {} (alpha {})\n",
             rate(false_improved + false_regressed, aa.size()), k_alpha);
  fmt::print("    improved {}, regressed {}; equivalent {}; mean rounds {:.1f}\n", false_improved,
             false_regressed, equivalent, aa_rounds / static_cast<double>(aa.size()));
  fmt::print("  naive, a fixed 95% interval after every round: {}\n", rate(naive, sessions));
  fmt::print("  sequential, {} reference repeats then {} candidate repeats (compare()): {}\n",
             k_max_rounds / 2, k_max_rounds / 2, rate(sequential_false, sessions));

  // A real 3% improvement.
  ej::perf::SeededRandom change_random(2929);
  std::vector<std::vector<double>> changed;
  for (std::size_t i = 0; i < sessions; ++i) {
    changed.push_back(session(k_change, change_random));
  }
  std::size_t found = 0;
  std::size_t wrong = 0;
  double rounds_sum = 0;
  for (const auto& values : changed) {
    const Outcome o = until_decisive(values);
    found += o.decision == ej::measure::Decision::Improved ? 1 : 0;
    wrong += o.decision == ej::measure::Decision::Regressed ? 1 : 0;
    rounds_sum +=
        static_cast<double>(o.decision == ej::measure::Decision::Inconclusive ? k_max_rounds : o.rounds);
  }
  const double power = static_cast<double>(found) / static_cast<double>(sessions);
  const double mean_rounds = rounds_sum / static_cast<double>(sessions);
  fmt::print("\n3% faster candidate, {} sessions:\n", sessions);
  fmt::print("  found improved within {} rounds: {} (goal >= 0.90); regressed: {}\n", k_max_rounds,
             rate(found, sessions), wrong);
  fmt::print("  mean rounds to a decision (undecided count {}): {:.1f}\n", k_max_rounds, mean_rounds);

  // Fixed N with the same power at the same alpha.
  std::size_t fixed_n = 0;
  std::size_t fixed_found = 0;
  for (std::size_t n = 10; n <= k_max_rounds && fixed_n == 0; n += 10) {
    std::size_t count = 0;
    for (const auto& values : changed) {
      bool improved = false;
      count += fixed_decides(values, n, &improved) && improved ? 1 : 0;
    }
    if (static_cast<double>(count) / static_cast<double>(sessions) >= power) {
      fixed_n = n;
      fixed_found = count;
    }
  }
  if (fixed_n == 0) {
    fmt::print("\nfixed N: no N up to {} reaches the rule's power\n", k_max_rounds);
    return 0;
  }
  std::size_t fixed_false = 0;
  for (const auto& values : aa) {
    bool improved = false;
    fixed_false += fixed_decides(values, fixed_n, &improved) ? 1 : 0;
  }
  fmt::print("\nfixed N = {} rounds, one test at 95%: power {}, A/A false {}\n", fixed_n,
             rate(fixed_found, sessions), rate(fixed_false, aa.size()));
  fmt::print(
      "until decisive: {:.1f} mean rounds on the 3% change = {:.1f}% fewer than fixed N (goal >= 30%)\n",
      mean_rounds, 100 * (1 - mean_rounds / static_cast<double>(fixed_n)));
  return 0;
}
