// The cost of `ej run` itself, measured through the real binary in a scratch repository:
//   overhead: `ej run` of `true` with 1,001 and 101 repeats against `hyperfine -N` with as many
//             runs (wall time per repeat beyond the 101st; goal: ej's at most hyperfine's);
//   rounds:   `ej run --against HEAD` of `true` with 201 and 21 rounds (each round one repeat a
//             side, in a drawn order) against plain `ej run` and `hyperfine -N`: what a round costs
//             beyond its two repeats (goal: at most 2x hyperfine's cost per run);
//   capture:  a benchmark writing 1 GiB to stdout, against `head -c 1G /dev/zero | cat > /dev/null`
//             (goal: ej's throughput at least half of cat's, with ej's peak RSS under 64 MB).
// Prints figures; asserts nothing.
#include "support/command.h"
#include "support/temp_dir.h"
#include "support/timing.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <vector>

using ej::test::measure_once;

// `perf_run_bench [overhead|rounds|capture]` runs one part; no argument, all three.
int main(int argc, char** arguments)
{
  const std::string only = argc > 1 ? arguments[1] : "";
  const auto wanted = [&](const char* part) { return only.empty() || only == part; };
  ej::test::TempDir dir("ej-perf-run");
  ej::test::make_git_repo(dir.path());
  const std::string ej = EJ_BINARY;
  const auto run_ej = [&](const std::vector<std::string>& args) {
    std::vector<std::string> argv{ej};
    argv.insert(argv.end(), args.begin(), args.end());
    return ej::test::run_command(argv, {dir.path(), {}, {}});
  };
  run_ej({"init"});
  run_ej({"bench", "add", "true", "--", "true"});
  run_ej({"bench", "add", "gib", "--repeat", "1", "--shell", "head -c 1G /dev/zero"});

  // Whole commands include ej's start-up (environment capture, git status, three journal commits,
  // moving into the run's cgroup) and hyperfine's; the marginal cost of a repeat, (time of 1,001
  // repeats - time of 101) / 900, is what a repeat costs once running, and what the goal compares.
  // Not against a single repeat: a cost at the end of a run that only longer runs pay would be
  // counted as repeats' (ej's move out of the run's cgroup, an RCU grace period, was one until it
  // overlapped the run's last write). A thousand repeats, not two hundred: the start-up varies by 5-10 ms
  // from one command to the next, which over 200 repeats swung the estimate by 0.05 ms, a tenth
  // of it. The four commands take turns, round after round, so that a busy moment of the machine
  // falls on all of them.
  const auto median = [](std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
  };
  if (wanted("overhead")) {
    constexpr int k_overhead_rounds = 31;
    constexpr int k_repeats = 1000;
    constexpr int k_base_repeats = 101;
    const auto many = std::to_string(k_repeats + 1);
    const auto base = std::to_string(k_base_repeats);
    const std::vector<std::vector<std::string>> commands{
        {ej, "run", "true", "--quiet", "--repeat", many},
        {ej, "run", "true", "--quiet", "--repeat", base},
        {"hyperfine", "-N", "--runs", many, "--style", "none", "true"},
        {"hyperfine", "-N", "--runs", base, "--style", "none", "true"}};
    std::vector<std::vector<double>> seconds(commands.size());
    for (int round = 0; round < k_overhead_rounds; ++round) {
      for (std::size_t i = 0; i < commands.size(); ++i) {
        const auto measured = measure_once(commands[i], dir.path());
        if (measured.exit_code != 0) {
          fmt::print("{} failed (exit {}); is hyperfine installed?\n", commands[i].front(),
                     measured.exit_code);
        }
        seconds[i].push_back(measured.seconds);
      }
    }
    const auto best = [](const std::vector<double>& values) {
      return *std::min_element(values.begin(), values.end());
    };
    constexpr double k_extra = k_repeats + 1 - k_base_repeats;
    // The marginal cost in each round, from its two neighbouring commands, then the median of the
    // rounds: the machine's speed drifts over the minute the rounds take, and a difference within
    // one round does not see that drift, where a difference of two medians of the whole minute did.
    const auto marginal = [&](const std::vector<double>& many_runs, const std::vector<double>& base_runs) {
      std::vector<double> per_round;
      for (std::size_t round = 0; round < many_runs.size(); ++round) {
        per_round.push_back((many_runs[round] - base_runs[round]) / k_extra * 1000);
      }
      return median(per_round);
    };
    const double ej_marginal = marginal(seconds[0], seconds[1]);
    const double hf_marginal = marginal(seconds[2], seconds[3]);
    const double ej_best = (best(seconds[0]) - best(seconds[1])) / k_extra * 1000;
    const double hf_best = (best(seconds[2]) - best(seconds[3])) / k_extra * 1000;
    fmt::print("overhead, repeats of `true` ({} interleaved rounds; per repeat: the median of the rounds' "
               "marginal costs):\n",
               k_overhead_rounds);
    fmt::print(
        "  ej run        {} repeats {:6.3f} s, {} repeats {:6.3f} s: {:6.3f} ms per repeat (best rounds "
        "{:6.3f}), "
        "whole command {:6.3f} ms per repeat\n",
        many, median(seconds[0]), base, median(seconds[1]), ej_marginal, ej_best,
        median(seconds[0]) / (k_repeats + 1) * 1000);
    fmt::print(
        "  hyperfine -N  {} runs    {:6.3f} s, {} runs    {:6.3f} s: {:6.3f} ms per repeat (best rounds "
        "{:6.3f}), "
        "whole command {:6.3f} ms per repeat\n",
        many, median(seconds[2]), base, median(seconds[3]), hf_marginal, hf_best,
        median(seconds[2]) / (k_repeats + 1) * 1000);
    fmt::print("  goal: ej's wall time per repeat <= hyperfine's: {}\n\n",
               ej_marginal <= hf_marginal ? "met" : "NOT MET");
  }

  // An interleaved round: its two repeats, plus what alternating costs (the order drawn, the side
  // switched, both runs' repeats written). The same marginal method: 201 rounds against 21, in
  // turns with plain runs of twice as many repeats and hyperfine, each command's fixed costs (the
  // reference's worktree restored and removed) cancelled by the difference.
  if (wanted("rounds")) {
    constexpr int k_round_turns = 15;
    constexpr int k_many_rounds = 201;
    constexpr int k_base_rounds = 21;
    const std::vector<std::vector<std::string>> turns{
        {ej, "run", "true", "--quiet", "--against", "HEAD", "--repeat", std::to_string(k_many_rounds)},
        {ej, "run", "true", "--quiet", "--against", "HEAD", "--repeat", std::to_string(k_base_rounds)},
        {ej, "run", "true", "--quiet", "--repeat", std::to_string(2 * k_many_rounds)},
        {ej, "run", "true", "--quiet", "--repeat", std::to_string(2 * k_base_rounds)},
        {"hyperfine", "-N", "--runs", std::to_string(2 * k_many_rounds), "--style", "none", "true"},
        {"hyperfine", "-N", "--runs", std::to_string(2 * k_base_rounds), "--style", "none", "true"}};
    std::vector<std::vector<double>> taken(turns.size());
    for (int turn = 0; turn < k_round_turns; ++turn) {
      for (std::size_t i = 0; i < turns.size(); ++i) {
        const auto measured = measure_once(turns[i], dir.path());
        if (measured.exit_code != 0) {
          fmt::print("{} failed (exit {})\n", fmt::join(turns[i], " "), measured.exit_code);
        }
        taken[i].push_back(measured.seconds);
      }
    }
    const auto per_extra = [&](std::size_t many_index, double extra) {
      std::vector<double> per_turn;
      for (std::size_t t = 0; t < taken[many_index].size(); ++t) {
        per_turn.push_back((taken[many_index][t] - taken[many_index + 1][t]) / extra * 1000);
      }
      return median(per_turn);
    };
    const double round_ms = per_extra(0, k_many_rounds - k_base_rounds);
    const double repeat_ms = per_extra(2, 2.0 * (k_many_rounds - k_base_rounds));
    const double hyperfine_ms = per_extra(4, 2.0 * (k_many_rounds - k_base_rounds));
    const double beyond = round_ms - 2 * repeat_ms;
    fmt::print("rounds, `ej run true --against HEAD` ({} turns; the median of the turns' marginal costs):\n",
               k_round_turns);
    fmt::print("  a round             {:6.3f} ms (two repeats of a plain ej run: 2 x {:6.3f} ms)\n", round_ms,
               repeat_ms);
    fmt::print("  beyond its repeats  {:6.3f} ms\n", beyond);
    fmt::print("  hyperfine -N        {:6.3f} ms per run\n", hyperfine_ms);
    fmt::print("  goal: a round's cost beyond its two repeats <= 2x hyperfine's per run ({:.2f}x: {})\n\n",
               beyond / hyperfine_ms, beyond <= 2 * hyperfine_ms ? "met" : "NOT MET");
  }

  if (!wanted("capture")) {
    return 0;
  }
  constexpr int k_rounds = 5;
  double best_capture = 1e9;
  double best_cat = 1e9;
  long capture_rss = 0;
  for (int round = 0; round < k_rounds; ++round) {
    const auto capture = measure_once({ej, "run", "gib", "--quiet"}, dir.path());
    const auto cat = measure_once({"sh", "-c", "head -c 1G /dev/zero | cat > /dev/null"}, dir.path());
    best_capture = std::min(best_capture, capture.seconds);
    best_cat = std::min(best_cat, cat.seconds);
    capture_rss = std::max(capture_rss, capture.peak_rss_kb);
  }
  // ej's own peak: wait4 reports the largest of ej and its children (head is tiny).
  fmt::print("capture, 1 GiB on stdout (best of {}):\n", k_rounds);
  fmt::print("  ej run         {:7.3f} s  {:6.2f} GiB/s  peak RSS {:.1f} MB\n", best_capture,
             1.0 / best_capture, static_cast<double>(capture_rss) / 1024.0);
  fmt::print("  head | cat     {:7.3f} s  {:6.2f} GiB/s\n", best_cat, 1.0 / best_cat);
  fmt::print("  goal: ratio >= 0.5 ({:.2f}: {}), peak RSS < 64 MB ({})\n", best_cat / best_capture,
             best_cat / best_capture >= 0.5 ? "met" : "NOT MET", capture_rss < 64 * 1024 ? "met" : "NOT MET");
  return 0;
}
