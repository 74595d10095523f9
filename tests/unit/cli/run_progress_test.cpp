#include "cli/run_progress.h"

#include <catch2/catch.hpp>

using ej::cli::duration_text;
using ej::cli::progress_line;
using ej::cli::ProgressState;

TEST_CASE(
    "the progress line names the combination, the repeat, the median with its unit, elapsed time and ETA")
{
  ProgressState state;
  state.combination = 2;
  state.combinations = 4;
  state.label = "variant=blocked";
  state.repeat = 12;
  state.repeats = 30;
  state.metric = "time_ms";
  state.median = "11.80 ms";
  state.elapsed_s = 14.24;
  state.eta_s = 31.0;
  state.frame = 4;
  CHECK(progress_line(state, 200) ==
        "⠼ 2/4 variant=blocked · repeat 12/30 · median time_ms 11.80 ms · 14.2 s · ETA 31.0 s");

  // While a long repeat runs: how long, and the benchmark's last line.
  state.repeat_running_s = 2.26;
  state.last_output = "iteration 40 done";
  CHECK(progress_line(state, 200) ==
        "⠼ 2/4 variant=blocked · repeat 12/30 · median time_ms 11.80 ms · 14.2 s · "
        "ETA 31.0 s · this repeat 2.3 s: iteration 40 done");
  // Cut to the terminal's width, counted in characters, not bytes.
  CHECK(progress_line(state, 10) == "⠼ 2/4 vari");
}

TEST_CASE("a run without axes and before its first measured repeat shows only what it knows")
{
  ProgressState state;
  state.combination = 1;
  state.combinations = 1;
  state.repeat = 1;
  state.repeats = 2;
  state.warmup = true;
  state.elapsed_s = 0.1;
  CHECK(progress_line(state, 200) == "⠋ warmup 1/2 · 0.1 s");
}

TEST_CASE("durations read as seconds, then minutes, then hours")
{
  CHECK(duration_text(4.24) == "4.2 s");
  CHECK(duration_text(185) == "3m05s");
  CHECK(duration_text(3725) == "1h02m");
}
