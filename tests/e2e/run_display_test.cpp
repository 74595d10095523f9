// What `ej run` shows while it measures and after: the progress line on a real pseudo-terminal
// (and its absence on a pipe and with --quiet), --show-output, the summary and its warnings, and
// the run options --warmup, --prepare and parameter ranges.
#include "support/ej_repo.h"
#include "support/pty.h"
#include "support/runs.h"
#include "support/temp_dir.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

using namespace ej::test;
using Catch::Contains;
using nlohmann::json;

namespace {

// A repeat long enough (0.35 s) for the progress line to be drawn during it, after a first line
// of output.
void add_slow_bench(const EjRepo& repo)
{
  repo.ok({"bench", "add", "slow", "--repeat", "3", "--metric", "t=regex:t=([0-9.]+)", "--unit", "t=ms",
           "--shell", "echo step-one; sleep 0.35; echo t=12.5"});
}

} // namespace

TEST_CASE("on a terminal ej run redraws one progress line in place and hides the benchmark's output")
{
  EjRepo repo;
  add_slow_bench(repo);
  const auto result = run_ej_in_pty(repo.path(), {"run", "slow"});
  INFO(result.output);
  CHECK(result.exit_code == 0);
  // Redrawn in place, a spinner: which frame shows the first repeat depends on how long ej took
  // to start it, one frame every 100 ms.
  bool spinner_first_repeat = false;
  for (const auto* frame : {"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}) {
    spinner_first_repeat = spinner_first_repeat || result.output.find(std::string("\r") + frame +
                                                                      " repeat 1/3 · ") != std::string::npos;
  }
  CHECK(spinner_first_repeat);
  CHECK_THAT(result.output, Contains(": step-one\x1b[K")); // the last output line, during the repeat
  CHECK_THAT(result.output, Contains("repeat 3/3 · median t 12.50 ms")); // the median so far, with its unit
  CHECK_THAT(result.output, Contains(" · ETA "));
  CHECK_THAT(result.output, !Contains("step-one\r\n")); // the output itself is not shown
  CHECK_THAT(result.output, !Contains("t=12.5\r\n"));
  CHECK_THAT(result.output,
             Contains("\r\x1b[Krun #1 slow finished: 3 repeat(s)")); // the line gives way to the summary
  // ...and the output is kept in the capture all the same.
  CHECK(show_run(repo, 1, true)["stdout"] == "step-one\nt=12.5\n");
}

TEST_CASE(
    "on a terminal --show-output shows the benchmark's output instead of the progress line, --quiet neither")
{
  EjRepo repo;
  add_slow_bench(repo);
  const auto shown = run_ej_in_pty(repo.path(), {"run", "slow", "--repeat", "1", "--show-output"});
  INFO(shown.output);
  CHECK(shown.exit_code == 0);
  CHECK_THAT(shown.output, Contains("step-one\r\nt=12.5\r\n"));
  CHECK_THAT(shown.output, !Contains("ETA"));
  CHECK_THAT(shown.output, !Contains("⠙"));

  const auto quiet = run_ej_in_pty(repo.path(), {"run", "slow", "--repeat", "1", "--quiet"});
  INFO(quiet.output);
  CHECK(quiet.exit_code == 0);
  CHECK_THAT(quiet.output, !Contains("step-one"));
  CHECK_THAT(quiet.output, !Contains("⠙"));
  CHECK_THAT(quiet.output, Contains("run #2 slow finished: 1 repeat(s)"));

  CHECK(repo.ej({"run", "slow", "--quiet", "--show-output"}).exit_code == 2);
}

TEST_CASE("on a pipe ej run draws no progress line and passes the benchmark's output through")
{
  EjRepo repo;
  add_slow_bench(repo);
  const auto result = repo.ej({"run", "slow", "--repeat", "1"});
  CHECK(result.exit_code == 0);
  CHECK(result.out.find("step-one\nt=12.5\n") == 0);
  CHECK(result.err.find('\r') == std::string::npos);
  CHECK_THAT(result.err, !Contains("ETA"));
  CHECK_THAT(result.err, !Contains("repeat 1/1"));
}

TEST_CASE(
    "the summary after a run gives mean ± σ, median and min … max with units and four significant digits")
{
  EjRepo repo;
  repo.ok({"bench", "add", "b", "--repeat", "3", "--metric", "t=regex:t=([0-9.]+)", "--unit", "t=s",
           "--shell",
           "sleep 0.1; n=$(cat n 2>/dev/null || echo 0); n=$((n+1)); echo $n > n; echo t=0.0$((990 + n))1295"});
  const auto out = repo.ok({"run", "b", "--quiet"});
  CHECK_THAT(out, Contains("  t\n"
                           "    mean ± σ:    99.21 ms ± 0.10 ms\n"
                           "    median:      99.21 ms\n"
                           "    min … max:   99.11 ms … 99.31 ms    n = 3\n"));
  CHECK_THAT(out, !Contains("0.0991295"));
  CHECK_THAT(out, !Contains("Warning"));
}

TEST_CASE(
    "a sweep's summary is a table by combination and says how much faster each value ran than the first")
{
  EjRepo repo;
  repo.ok({"bench", "add", "sweep", "--repeat", "2", "--param", "variant=naive,blocked", "--metric",
           "time_ms=regex:time_ms=([0-9.]+)", "--shell",
           "if [ {variant} = naive ]; then sleep 0.03; echo time_ms=28.5; else sleep 0.012; echo time_ms=11.8; fi"});
  const auto out = repo.ok({"run", "sweep", "--quiet"});
  CHECK_THAT(out, Contains("  time_ms\n"
                           "    variant   mean ± σ             median     min … max             n\n"
                           "    naive     28.50 ms ± 0.00 ms   28.50 ms   28.50 ms … 28.50 ms   2\n"
                           "    blocked   11.80 ms ± 0.00 ms   11.80 ms   11.80 ms … 11.80 ms   2\n"));
  CHECK_THAT(out, Contains("  variant=blocked ran 2.42 ± 0.00 times faster than variant=naive\n"));
}

TEST_CASE("a noisy series gets a high-noise warning, an outlier an outlier warning")
{
  EjRepo repo;
  repo.ok({"bench", "add", "noisy", "--repeat", "6", "--metric", "t=regex:t=([0-9.]+)", "--unit", "t=ms",
           "--shell",
           "sleep 0.015; n=$(cat n 2>/dev/null || echo 0); n=$((n+1)); echo $n > n; echo t=$(echo 10 14 8 15 9 13 | cut -d' ' -f$n)"});
  const auto noisy = repo.ok({"run", "noisy", "--quiet"});
  CHECK_THAT(noisy, Contains("    Warning: high noise: σ is 25% of the mean (11.50 ms ± 2.88 ms)"));

  repo.ok({"bench", "add", "outlier", "--repeat", "9", "--metric", "t=regex:t=([0-9.]+)", "--unit", "t=ms",
           "--shell",
           "sleep 0.03; n=$(cat m 2>/dev/null || echo 0); n=$((n+1)); echo $n > m; if [ $n = 5 ]; then echo t=30; "
           "else echo t=10.$n; fi"});
  const auto outlier = repo.ok({"run", "outlier", "--quiet"});
  CHECK_THAT(outlier, Contains("    Warning: statistical outliers were detected (1 of 9 repeats)."));
}

TEST_CASE("ej run --warmup overrides the benchmark's warmups and --prepare runs before each of them and each "
          "repeat")
{
  EjRepo repo;
  repo.ok({"bench", "add", "p", "--repeat", "5", "--warmup", "3", "--shell", "echo bench >> order.log"});
  repo.ok(
      {"run", "p", "--quiet", "--warmup", "1", "--repeat", "2", "--prepare", "echo prepare >> order.log"});
  CHECK(read_text(repo.path() / "order.log") == "prepare\nbench\nprepare\nbench\nprepare\nbench\n");
  const auto run = show_run(repo, 1);
  CHECK(run["repeats"].size() == 3);
  CHECK(run["repeats"][0]["warmup"] == true);
  CHECK(run["repeats"][1]["warmup"] == false);
  CHECK(run["outputs"]["options"] ==
        json({{"warmup", 1}, {"repeat", 2}, {"prepare", "echo prepare >> order.log"}}));
  CHECK_THAT(repo.ok({"show", "run", "1"}), Contains("  prepare:   echo prepare >> order.log\n"));

  const auto failing =
      repo.ej({"run", "p", "--quiet", "--warmup", "0", "--prepare", "echo no cache >&2; exit 3"});
  CHECK(failing.exit_code == 1);
  CHECK_THAT(failing.err, Contains("run #2 failed: --prepare before repeat 1 exited with 3: no cache"));
  CHECK(show_run(repo, 2)["status"] == "failed");
  CHECK(repo.ej({"run", "p", "--warmup", "-1"}).exit_code == 2);
}

TEST_CASE("parameter ranges expand at bench add and at run, and a bad range is a clear usage error")
{
  EjRepo repo;
  repo.ok({"bench", "add", "r", "--repeat", "1", "--param", "size=1024..4096:1024", "--shell",
           "echo size={size}"});
  const auto definition =
      json::parse(repo.ok({"bench", "show", "r", "--json"}))["revisions"][0]["definition"];
  CHECK(definition["params"] == json::parse(R"([{"name":"size","values":["1024","2048","3072","4096"]}])"));

  repo.ok({"run", "r", "--quiet", "--param", "size=2048..3072:1024"});
  const auto run = show_run(repo, 1);
  CHECK(run["params"] == json({{"size", {"2048", "3072"}}}));

  const auto empty = repo.ej({"bench", "add", "bad", "--param", "size=4096..1024", "--shell", "true"});
  CHECK(empty.exit_code == 2);
  CHECK_THAT(empty.err, Contains("the range '4096..1024' is empty: its start is above its end"));
  const auto word = repo.ej({"bench", "add", "bad", "--param", "size=1..x", "--shell", "true"});
  CHECK(word.exit_code == 2);
  CHECK_THAT(word.err, Contains("'1..x' is not a range; write MIN..MAX or MIN..MAX:STEP"));
  const auto unregistered = repo.ej({"run", "r", "--param", "size=1..2"});
  CHECK(unregistered.exit_code == 2);
  CHECK_THAT(unregistered.err, Contains("'1' is not a value of the axis size"));
}
