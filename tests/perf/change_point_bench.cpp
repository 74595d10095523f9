// How well measure::find_change_points finds steps in generated histories, against two rules run
// on the same series: a t-test after Mozilla Perfherder's defaults (12 points before and after
// each point, Welch's t above 7 and a change of at least 2%, the best point of each run of alerts)
// and a lookback z-score (conbench's rule at z = 5). Prints figures; asserts nothing.
//
// Series of 1,000 points (one per commit), each point = level * (1 + noise * e), e ~ N(0, 1):
// - flat: noise 1, 2, 5, 10%: every change point found is false;
// - outliers: flat with 1% of the points single spikes 1.5-3x slower;
// - drift: a slow linear trend of 1% per 100 points (10% over the series);
// - steps: steps of 2, 5, 10, 20% (up or down at random) every 30-150 points, for each noise;
// - mixed: steps of 5-20% every 30-150 points, 2% noise, 1% outliers and the drift.
// A change point within k_tolerance points of a true step finds it (each step found once);
// the others are false. Figures: false change points per 1,000 points, the share of change
// points found that are false ("false positives", Mozilla's 12.5%), the share of steps missed
// (Mozilla's 6.8%), and how far found steps lie from the truth.
//
// Usage: perf_change_point_bench [MIN_SEGMENT ALPHA WINDOW] (the defaults of ChangePointOptions).
#include "measure/change_points.h"
#include "perf/seeded_random.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr std::size_t k_points = 1000;
constexpr int k_series = 60;           // per scenario
constexpr std::size_t k_tolerance = 5; // points either side of a true step
constexpr std::size_t k_lookback = 30; // the z-score's window
constexpr double k_lookback_z = 5.0;
constexpr std::size_t k_t_window = 12; // Perfherder's fore and back windows
constexpr double k_t_threshold = 7.0;
constexpr double k_t_min_change = 0.02;

struct Scenario {
  std::string name;
  double noise = 0.01;
  std::vector<double> steps; // step sizes drawn from (empty: no steps)
  double outliers = 0;       // share of points that are spikes
  double drift = 0;          // relative change per point
};

struct Series {
  std::vector<double> values;
  std::vector<std::size_t> steps; // the first point of each new level
};

Series generate(const Scenario& scenario, ej::perf::SeededRandom& random)
{
  Series series;
  double level = 100.0;
  std::size_t next_step =
      scenario.steps.empty() ? k_points : 30 + static_cast<std::size_t>(random.uniform() * 121);
  for (std::size_t i = 0; i < k_points; ++i) {
    if (i == next_step && i + 30 <= k_points) {
      const auto size = scenario.steps[static_cast<std::size_t>(random.uniform() * scenario.steps.size())];
      level *= random.uniform() < 0.5 ? 1 + size : 1 / (1 + size);
      series.steps.push_back(i);
      next_step = i + 30 + static_cast<std::size_t>(random.uniform() * 121);
    }
    double value =
        level * (1 + scenario.drift * static_cast<double>(i)) * (1 + scenario.noise * random.normal());
    if (random.uniform() < scenario.outliers) {
      value *= 1.5 + 1.5 * random.uniform();
    }
    series.values.push_back(value);
  }
  return series;
}

// conbench's lookback z-score: a point more than z standard deviations from the mean of the
// points before it alerts; alerts within k_tolerance points of the one before are one alert.
std::vector<std::size_t> lookback_z(const std::vector<double>& values)
{
  std::vector<std::size_t> alerts;
  for (std::size_t i = k_lookback; i < values.size(); ++i) {
    double mean = 0;
    for (std::size_t j = i - k_lookback; j < i; ++j) {
      mean += values[j];
    }
    mean /= k_lookback;
    double squares = 0;
    for (std::size_t j = i - k_lookback; j < i; ++j) {
      squares += (values[j] - mean) * (values[j] - mean);
    }
    const double sd = std::sqrt(squares / (k_lookback - 1));
    if (sd > 0 && std::abs(values[i] - mean) / sd > k_lookback_z) {
      if (alerts.empty() || i - alerts.back() > k_tolerance) {
        alerts.push_back(i);
      }
    }
  }
  return alerts;
}

// A t-test at every point between the 12 points before it and the 12 from it on; of each run of
// consecutive points over the threshold, the one with the largest t alerts.
std::vector<std::size_t> windowed_t(const std::vector<double>& values)
{
  const auto stats = [&](std::size_t begin, std::size_t end, double& mean, double& variance) {
    mean = 0;
    for (std::size_t j = begin; j < end; ++j) {
      mean += values[j];
    }
    mean /= static_cast<double>(end - begin);
    variance = 0;
    for (std::size_t j = begin; j < end; ++j) {
      variance += (values[j] - mean) * (values[j] - mean);
    }
    variance /= static_cast<double>(end - begin - 1);
  };
  std::vector<std::size_t> alerts;
  std::size_t run_best = 0;
  double run_t = 0;
  for (std::size_t i = k_t_window; i + k_t_window <= values.size(); ++i) {
    double back_mean = 0;
    double back_variance = 0;
    double fore_mean = 0;
    double fore_variance = 0;
    stats(i - k_t_window, i, back_mean, back_variance);
    stats(i, i + k_t_window, fore_mean, fore_variance);
    const double se = std::sqrt((back_variance + fore_variance) / k_t_window);
    const double t = se > 0 ? std::abs(fore_mean - back_mean) / se : 0;
    const bool over = t > k_t_threshold && std::abs(fore_mean / back_mean - 1) >= k_t_min_change;
    if (over && t > run_t) {
      run_t = t;
      run_best = i;
    }
    if (!over && run_t > 0) {
      alerts.push_back(run_best);
      run_t = 0;
    }
  }
  if (run_t > 0) {
    alerts.push_back(run_best);
  }
  return alerts;
}

struct Score {
  std::size_t points = 0;
  std::size_t steps = 0;
  std::size_t found = 0;   // change points reported
  std::size_t matched = 0; // of them, on a true step
  std::size_t exact = 0;   // matched at the very point
  std::size_t within_one = 0;
  double error_sum = 0;

  void add(const Series& series, const std::vector<std::size_t>& reported)
  {
    points += series.values.size();
    steps += series.steps.size();
    found += reported.size();
    std::vector<bool> used(series.steps.size(), false);
    for (const auto at : reported) {
      std::size_t best = series.steps.size();
      std::size_t best_distance = k_tolerance + 1;
      for (std::size_t s = 0; s < series.steps.size(); ++s) {
        const auto distance = at > series.steps[s] ? at - series.steps[s] : series.steps[s] - at;
        if (!used[s] && distance < best_distance) {
          best = s;
          best_distance = distance;
        }
      }
      if (best < series.steps.size()) {
        used[best] = true;
        ++matched;
        exact += best_distance == 0 ? 1 : 0;
        within_one += best_distance <= 1 ? 1 : 0;
        error_sum += static_cast<double>(best_distance);
      }
    }
  }
  double false_per_1000() const
  {
    return 1000.0 * static_cast<double>(found - matched) / static_cast<double>(points);
  }
  double false_share() const
  {
    return found == 0 ? 0 : 100.0 * static_cast<double>(found - matched) / static_cast<double>(found);
  }
  double missed_share() const
  {
    return steps == 0 ? 0 : 100.0 * static_cast<double>(steps - matched) / static_cast<double>(steps);
  }
};

std::string figures(const Score& s)
{
  if (s.steps == 0) {
    return fmt::format("{:6.2f} false/1000 ({} found)", s.false_per_1000(), s.found);
  }
  return fmt::format(
      "{:6.2f} false/1000, false {:5.1f}%, missed {:5.1f}%, exact {:5.1f}%, within 1 {:5.1f}%, "
      "mean error {:.2f}",
      s.false_per_1000(), s.false_share(), s.missed_share(),
      s.matched == 0 ? 0.0 : 100.0 * static_cast<double>(s.exact) / static_cast<double>(s.matched),
      s.matched == 0 ? 0.0 : 100.0 * static_cast<double>(s.within_one) / static_cast<double>(s.matched),
      s.matched == 0 ? 0.0 : s.error_sum / static_cast<double>(s.matched));
}

std::vector<std::size_t> indices(const std::vector<ej::measure::ChangePoint>& points)
{
  std::vector<std::size_t> out;
  for (const auto& point : points) {
    out.push_back(point.index);
  }
  return out;
}

struct Totals {
  Score ours;
  Score t;
  Score z;
};

void run(const Scenario& scenario, const ej::measure::ChangePointOptions& options,
         ej::perf::SeededRandom& random, std::vector<Totals*> totals)
{
  Totals here;
  for (int i = 0; i < k_series; ++i) {
    const auto series = generate(scenario, random);
    here.ours.add(series, indices(ej::measure::find_change_points(series.values, options)));
    here.t.add(series, windowed_t(series.values));
    here.z.add(series, lookback_z(series.values));
  }
  for (auto* total : totals) {
    for (auto [from, to] : {std::pair{&here.ours, &total->ours}, std::pair{&here.t, &total->t},
                            std::pair{&here.z, &total->z}}) {
      to->points += from->points;
      to->steps += from->steps;
      to->found += from->found;
      to->matched += from->matched;
      to->exact += from->exact;
      to->within_one += from->within_one;
      to->error_sum += from->error_sum;
    }
  }
  fmt::print("{:<30} change points: {}\n{:<30} t-test 12/12:  {}\n{:<30} lookback z=5:  {}\n", scenario.name,
             figures(here.ours), "", figures(here.t), "", figures(here.z));
}

void print_totals(const char* name, const Totals& totals)
{
  fmt::print("  {:<22} change points: {}\n  {:<22} t-test 12/12:  {}\n  {:<22} lookback z=5:  {}\n", name,
             figures(totals.ours), "", figures(totals.t), "", figures(totals.z));
}

} // namespace

int main(int argc, char** argv)
{
  ej::measure::ChangePointOptions options;
  if (argc == 4) {
    options.min_segment = static_cast<std::size_t>(std::atoi(argv[1]));
    options.alpha = std::atof(argv[2]);
    options.window = static_cast<std::size_t>(std::atoi(argv[3]));
  }
  fmt::print("change points: min_segment {}, alpha {}, window {}; {} series of {} points per scenario, "
             "a step found within {} points\n\n",
             options.min_segment, options.alpha, options.window, k_series, k_points, k_tolerance);
  ej::perf::SeededRandom random(31);
  const std::vector<double> noises = {0.01, 0.02, 0.05, 0.10};
  Totals quiet;      // flat, outliers, drift
  Totals all_steps;  // every step scenario
  Totals detectable; // steps at least as large as the noise
  Totals clear;      // steps at least twice the noise
  for (const double noise : noises) {
    run({fmt::format("flat, noise {:.0f}%", noise * 100), noise, {}, 0, 0}, options, random, {&quiet});
    run({fmt::format("outliers 1%, noise {:.0f}%", noise * 100), noise, {}, 0.01, 0}, options, random,
        {&quiet});
    run({fmt::format("drift 1%/100, noise {:.0f}%", noise * 100), noise, {}, 0, 0.0001}, options, random,
        {&quiet});
  }
  fmt::print("\n");
  for (const double step : {0.02, 0.05, 0.10, 0.20}) {
    for (const double noise : noises) {
      std::vector<Totals*> into = {&all_steps};
      if (step >= noise) {
        into.push_back(&detectable);
      }
      if (step >= 2 * noise) {
        into.push_back(&clear);
      }
      run({fmt::format("steps {:.0f}%, noise {:.0f}%", step * 100, noise * 100), noise, {step}, 0, 0},
          options, random, into);
    }
  }
  fmt::print("\n");
  Totals mixed;
  run({"mixed: 5-20%, 2%, outliers, drift", 0.02, {0.05, 0.10, 0.20}, 0.01, 0.0001}, options, random,
      {&mixed});

  fmt::print(
      "\nSummary (goal: false <= 12.5% and missed <= 6.8%, Mozilla's published figures; better than z=5)\n");
  print_totals("flat, outliers, drift", quiet);
  print_totals("steps >= 2x noise", clear);
  print_totals("steps >= noise", detectable);
  print_totals("all steps", all_steps);
  print_totals("mixed", mixed);

  // Time for one history of 10,000 points with steps.
  ej::perf::SeededRandom timing_random(7);
  std::vector<double> long_series;
  for (int block = 0; block < 10; ++block) {
    const auto part = generate({"", 0.02, {0.05, 0.10}, 0.01, 0}, timing_random);
    long_series.insert(long_series.end(), part.values.begin(), part.values.end());
  }
  std::vector<double> times;
  std::size_t count = 0;
  for (int i = 0; i < 7; ++i) {
    const auto start = std::chrono::steady_clock::now();
    count = ej::measure::find_change_points(long_series, options).size();
    times.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  fmt::print("\nfind_change_points on 10,000 points: median {:.2f} ms over 7 runs ({} change points)\n",
             times[3], count);
  return 0;
}
