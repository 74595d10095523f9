// The memory `ej run` takes for a benchmark that prints a matching line per iteration, measured
// through the real binary in a scratch repository: ej's peak RSS for 1 and 3.5 million values of
// a regex metric in one repeat, and for both streams flooded with values of a metric each, against
// the same run printing no value (ej's fixed part) and the bytes of the output; then 1 and 20
// repeats of 200,000 values each, to show that the peak does not grow with the number of repeats
// (the summary is read from the journal, not from samples held). The goal (issue 26): at most 16
// bytes a value beyond the fixed part, from a million values up; docs/runs.md says what is met.
// Prints figures; asserts nothing.
#include "support/command.h"
#include "support/temp_dir.h"
#include "support/timing.h"

#include <fmt/format.h>

#include <string>
#include <vector>

using ej::test::measure_once;

int main()
{
  ej::test::TempDir dir("ej-perf-samples");
  ej::test::make_git_repo(dir.path());
  const std::string ej = EJ_BINARY;
  const auto run_ej = [&](const std::vector<std::string>& args) {
    std::vector<std::string> argv{ej};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto result = ej::test::run_command(argv, {dir.path(), {}, {}});
    if (result.exit_code != 0) {
      fmt::print("ej {} failed: {}\n", args.front(), result.err);
    }
    return result;
  };
  run_ej({"init"});
  struct Case {
    std::string name;
    long values; // of each stream's metric
    bool both_streams;
    int repeats = 1;
  };
  const std::vector<Case> cases{{"none", 0, false},        {"m1", 1'000'000, false},
                                {"m35", 3'500'000, false}, {"both", 1'000'000, true},
                                {"r1", 200'000, false, 1}, {"r20", 200'000, false, 20}};
  for (const auto& c : cases) {
    // awk, not seq | sed: one process, so that ej's is the peak wait4 reports.
    const auto print =
        fmt::format("awk 'BEGIN {{ for (i = 1; i <= {0}; i++) {{ print \"lat=\" i / 1000 \" ms\"{1} }} "
                    "print \"done 1\" }}'",
                    c.values, c.both_streams ? "; print \"tput=\" i > \"/dev/stderr\"" : "");
    std::vector<std::string> args{"bench",
                                  "add",
                                  c.name,
                                  "--repeat",
                                  std::to_string(c.repeats),
                                  "--metric",
                                  c.values == 0 ? "lat=regex:done ([0-9]+)" : "lat=regex:lat=([0-9.]+)"};
    if (c.both_streams) {
      args.insert(args.end(), {"--metric", "tput=regex:stderr:tput=([0-9]+)"});
    }
    args.insert(args.end(), {"--shell", print});
    run_ej(args);
  }
  fmt::print("peak RSS of `ej run` (wait4; the benchmark, awk, is smaller); values are of one repeat:\n");
  long fixed_kb = 0;
  long one_repeat_kb = 0;
  for (const auto& c : cases) {
    const auto measured = measure_once({ej, "run", c.name, "--quiet"}, dir.path());
    const auto out_bytes = ej::test::run_command(
        {"sh", "-c",
         fmt::format("awk 'BEGIN {{ for (i = 1; i <= {} ; i++) print \"lat=\" i / 1000 \" ms\" }}' | wc -c",
                     c.values)});
    const double values = static_cast<double>(c.values) * (c.both_streams ? 2 : 1);
    if (c.values == 0) {
      fixed_kb = measured.peak_rss_kb;
    }
    const double beyond = static_cast<double>(measured.peak_rss_kb - fixed_kb) * 1024.0;
    fmt::print("  {:<5} {:>2} x {:>9.0f} values  stdout {:>6.1f} MB  exit {}  {:6.2f} s  peak RSS {:7.1f} MB",
               c.name, c.repeats, values,
               std::stod(out_bytes.out.empty() ? "0" : out_bytes.out) / 1e6 * (c.both_streams ? 2 : 1),
               measured.exit_code, measured.seconds, static_cast<double>(measured.peak_rss_kb) / 1024.0);
    // The goal is read from a million values up: below that, the one-off part of a run that prints
    // values (SQLite's cache, the capture's buffers, the progress line's subsample: about 6 MB)
    // outweighs the values themselves.
    if (values >= 1e6) {
      fmt::print("  beyond the fixed part: {:5.1f} bytes a value (goal <= 16: {})", beyond / values,
                 beyond / values <= 16 ? "met" : "NOT MET");
    } else if (values > 0) {
      fmt::print("  beyond the fixed part: {:5.1f} MB", beyond / 1024.0 / 1024.0);
    }
    if (c.name == "r1") {
      one_repeat_kb = measured.peak_rss_kb;
    }
    if (c.repeats > 1 && one_repeat_kb > 0) {
      const double grown = static_cast<double>(measured.peak_rss_kb - one_repeat_kb) * 1024.0;
      fmt::print("\n        {} repeats against 1: {:+.1f} MB, {:.2f} bytes a value of the {} more repeats "
                 "(goal: about 0, the peak does not grow with repeats)",
                 c.repeats, grown / 1024.0 / 1024.0, grown / (values * (c.repeats - 1)), c.repeats - 1);
    }
    fmt::print("\n");
  }
  return 0;
}
