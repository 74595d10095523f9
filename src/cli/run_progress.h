#pragma once

#include "measuring/run_observer.h"

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

// The live progress of `ej run` on a terminal, as hyperfine shows it: one line on stderr,
// redrawn in place: combination i/N, repeat j/M, the median so far with its unit, elapsed time
// and an ETA for the whole run; while a repeat runs, a spinner, how long it has run and the
// benchmark's last output line. Drawn by its own thread ten times a second, so that the
// measuring thread only updates a few fields between repeats and a fast benchmark pays nothing
// for the drawing.
namespace ej::cli {

// What the line shows; progress_line() writes it.
struct ProgressState {
  int combination = 0; // 1-based
  int combinations = 0;
  std::string label; // "variant=naive", or "" without axes
  int repeat = 0;    // 1-based, of `repeats` (warmups counted apart)
  int repeats = 0;
  bool warmup = false;
  std::string median; // "28.54 ms"; empty before the first measured repeat
  std::string metric;
  double elapsed_s = 0;
  std::optional<double> eta_s;
  std::optional<double> repeat_running_s; // while a repeat runs
  std::string last_output;                // the benchmark's last line, printable characters only
  int frame = 0;                          // the spinner's
};

// The line, cut to `columns` code points (no newline, no escape sequences).
std::string progress_line(const ProgressState& state, std::size_t columns);
// "4.2 s", "3m05s", "1h02m".
std::string duration_text(double seconds);

// How `ej run` hears a run (measuring::RunObserver): the line is drawn from run_started to
// run_ended; ej's own lines go to stderr, above the line while it is drawn.
class RunProgress final : public measuring::RunObserver {
public:
  // Nothing is drawn, and every call is cheap, unless `shown`.
  explicit RunProgress(bool shown);
  ~RunProgress() override;
  RunProgress(const RunProgress&) = delete;
  RunProgress& operator=(const RunProgress&) = delete;

  void run_started(const measuring::RunShape& shape) override;
  void combination_started(int index, const std::string& label, int repeats) override;
  void repeat_started(int repeat, bool warmup) override;
  // After a repeat: the primary metric's median so far (nullopt: none yet).
  void repeat_ended(std::optional<double> median) override;
  // A chunk of the benchmark's output: its last line is shown.
  void output(std::string_view chunk) override;
  // A line of ej's own on stderr, printed above the progress line without tearing it. Never throws:
  // a terminal that hung up ends the run as a SIGHUP (run::InterruptGuard::hang_up).
  void message(std::string_view line) override;
  // The line is cleared: the summary takes its place.
  void run_ended() override;

private:
  void draw_loop();

  bool m_shown;
  std::string m_unit;
  int m_total = 0; // repeats of the whole run, warmups included
  int m_done = 0;
  std::int64_t m_started_ns = 0;
  std::int64_t m_repeat_started_ns = 0; // 0: no repeat running
  std::int64_t m_last_end_ns = 0;       // when the last repeat ended
  std::string m_partial;                // the output line being written
  bool m_drawn = false;
  bool m_gone = false; // stderr could not be written (the terminal hung up): nothing more is drawn
  ProgressState m_state;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_stop = false;
  std::thread m_thread; // last: started once the rest is ready
};

} // namespace ej::cli
