#pragma once

#include <optional>
#include <string>
#include <string_view>

// What a run reports while it measures, to whoever drives it: the command line draws a progress
// line from it (cli/run_progress.h), a test records the events. The measuring layer prints nothing
// itself: every line it has to say goes through message().
namespace ej::measuring {

// The size of a run, known once its plan is read.
struct RunShape {
  std::string metric; // the primary metric ("wall_s" without one)
  std::string unit;   // its unit, for the median
  int combinations = 0;
  int total_repeats = 0; // of the whole run, warmups included
};

class RunObserver {
public:
  virtual ~RunObserver() = default;

  // Before the first repeat, and after everything the run waited for (GPUs, a Slurm job).
  virtual void run_started(const RunShape& shape) = 0;
  // Combination `index` (1-based) of the run starts; `label` is "variant=naive", or "" without axes.
  virtual void combination_started(int index, const std::string& label, int repeats) = 0;
  // repeat: 1-based, warmups counted apart.
  virtual void repeat_started(int repeat, bool warmup) = 0;
  // median: the primary metric's so far, when the plan asks for it (RunPlan::progress).
  virtual void repeat_ended(std::optional<double> median) = 0;
  // A chunk of the benchmark's output, as it comes.
  virtual void output(std::string_view chunk) = 0;
  // A line for the user ("ej: ..."), from the run or from what prepares it. Never throws.
  virtual void message(std::string_view line) = 0;
  // The last event of a run, however it ends (also when measuring throws). Never throws.
  virtual void run_ended() = 0;
};

// Hears nothing: for a plan that names no observer.
class SilentObserver final : public RunObserver {
public:
  void run_started(const RunShape&) override {}
  void combination_started(int, const std::string&, int) override {}
  void repeat_started(int, bool) override {}
  void repeat_ended(std::optional<double>) override {}
  void output(std::string_view) override {}
  void message(std::string_view) override {}
  void run_ended() override {}
};

inline RunObserver& silent_observer()
{
  static SilentObserver silent;
  return silent;
}

} // namespace ej::measuring
