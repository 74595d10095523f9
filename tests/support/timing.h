#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ej::test {

struct Timing {
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  long peak_rss_kb = 0; // the largest peak RSS of any run
  int failures = 0;     // runs that did not exit 0
};

struct Measured {
  double seconds = 0;
  long peak_rss_kb = 0; // of the process (wait4 rusage: the largest of it and its children)
  int exit_code = -1;   // 128 + signal when killed
};

// Runs argv once (output discarded) and measures it.
Measured measure_once(const std::vector<std::string>& argv, const std::filesystem::path& cwd);

// Runs argv `runs` times (output discarded) and reports wall time and peak memory (wait4 rusage).
Timing time_command(const std::vector<std::string>& argv, const std::filesystem::path& cwd, int runs);

// Runs the commands in turns, round after round (each once a round), so that a busy moment of a
// shared machine falls on all of them alike; one Timing per command, in the same order.
std::vector<Timing> time_interleaved(const std::vector<std::vector<std::string>>& commands,
                                     const std::filesystem::path& cwd, int rounds);

// "ej log -n 50        median 4.1 ms  (min 3.9, max 5.0)  peak RSS 7.8 MB"
void print_timing(const std::string& label, const Timing& timing, double goal_ms, double goal_mb);
// print_timing's line, then the ratio of the medians to a reference measured in the same run:
// "  1.32x git log -n 50 (goal <= 1.5x: met)"; with goal_ratio 0, the ratio alone.
void print_ratio(const std::string& label, const Timing& timing, const std::string& reference_label,
                 const Timing& reference, double goal_ratio);

} // namespace ej::test
