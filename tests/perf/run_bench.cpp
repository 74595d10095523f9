// The cost of `ej run` itself, measured through the real binary in a scratch repository:
//   overhead: `ej run` of `true` with 200 repeats against `hyperfine -N --runs 200 true`
//             (wall time per repeat; goal: ej's at most hyperfine's);
//   capture:  a benchmark writing 1 GiB to stdout, against `head -c 1G /dev/zero | cat > /dev/null`
//             (goal: ej's throughput at least half of cat's, with ej's peak RSS under 64 MB).
// Prints figures; asserts nothing.
#include "support/command.h"
#include "support/temp_dir.h"
#include "support/timing.h"

#include <fmt/format.h>


using ej::test::measure_once;

int main()
{
  ej::test::TempDir dir("ej-perf-run");
  ej::test::make_git_repo(dir.path());
  const std::string ej = EJ_BINARY;
  const auto run_ej = [&](const std::vector<std::string>& args) {
    std::vector<std::string> argv{ej};
    argv.insert(argv.end(), args.begin(), args.end());
    return ej::test::run_command(argv, {dir.path(), {}, {}});
  };
  run_ej({"init"});
  run_ej({"bench", "add", "true", "--repeat", "200", "--", "true"});
  run_ej({"bench", "add", "gib", "--repeat", "1", "--shell", "head -c 1G /dev/zero"});

  constexpr int k_rounds = 3;
  double best_ej = 1e9;
  double best_hyperfine = 1e9;
  for (int round = 0; round < k_rounds; ++round) {
    const auto ej_run = measure_once({ej, "run", "true", "--quiet"}, dir.path());
    const auto hyperfine = measure_once({"hyperfine", "-N", "--runs", "200", "--style", "none", "true"}, dir.path());
    if (ej_run.exit_code != 0 || hyperfine.exit_code != 0) {
      fmt::print("a run failed (ej exit {}, hyperfine exit {}); is hyperfine installed?\n", ej_run.exit_code,
                 hyperfine.exit_code);
    }
    best_ej = std::min(best_ej, ej_run.seconds);
    best_hyperfine = std::min(best_hyperfine, hyperfine.seconds);
  }
  fmt::print("overhead, 200 repeats of `true` (best of {}, whole command incl. start-up):\n", k_rounds);
  fmt::print("  ej run         {:7.3f} s  {:6.3f} ms per repeat\n", best_ej, best_ej / 200 * 1000);
  fmt::print("  hyperfine -N   {:7.3f} s  {:6.3f} ms per repeat\n", best_hyperfine, best_hyperfine / 200 * 1000);
  fmt::print("  goal: ej per repeat <= hyperfine per repeat: {}\n\n", best_ej <= best_hyperfine ? "met" : "NOT MET");

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
  fmt::print("  ej run         {:7.3f} s  {:6.2f} GiB/s  peak RSS {:.1f} MB\n", best_capture, 1.0 / best_capture,
             static_cast<double>(capture_rss) / 1024.0);
  fmt::print("  head | cat     {:7.3f} s  {:6.2f} GiB/s\n", best_cat, 1.0 / best_cat);
  fmt::print("  goal: ratio >= 0.5 ({:.2f}: {}), peak RSS < 64 MB ({})\n", best_cat / best_capture,
             best_cat / best_capture >= 0.5 ? "met" : "NOT MET", capture_rss < 64 * 1024 ? "met" : "NOT MET");
  return 0;
}
