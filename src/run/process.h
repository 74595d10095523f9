#pragma once

#include "run/capture.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ej::run {

enum class Stream { Out, Err };

struct ProcessSpec {
  std::vector<std::string> argv;    // run directly (no shell); argv[0] is looked up in PATH
  std::optional<std::string> shell; // when set, run with /bin/sh -c and argv is ignored
  std::filesystem::path cwd;        // empty: ej's own working directory
  std::vector<std::pair<std::string, std::string>> env; // added to (or replacing) ej's environment
  double timeout_s = 0;                                 // 0: no timeout
  double kill_grace_s = 2;                              // between SIGTERM and SIGKILL
  bool echo = false;                                    // copy output live to ej's stdout/stderr
  std::size_t head_bytes = 256 * 1024;                  // kept per stream from the start...
  std::size_t tail_bytes = 256 * 1024;                  // ...and from the end
  // Processes of the child's group still alive once the child exited (background jobs of a
  // script) are stopped (TERM, then KILL) so that no run leaves anything behind.
  bool kill_leftovers = true;
  // Called after each chunk read (optional), e.g. for progress; runs on ej's thread.
  std::function<void(Stream, std::string_view)> on_output;
};

enum class Ending { Exited, Signaled, TimedOut, Interrupted, SpawnFailed };

struct ProcessResult {
  Ending ending = Ending::SpawnFailed;
  int exit_code = 0; // when Exited; 127 when SpawnFailed (as a shell would say)
  int signal = 0;    // the signal that ended the child (also after TimedOut/Interrupted)
  std::string error; // SpawnFailed: what went wrong and what to do
  double wall_s = 0; // monotonic, spawn to reaping
  double user_s = 0;
  double sys_s = 0;
  std::int64_t max_rss_kb = 0;   // peak resident set of the child (largest of its process tree)
  bool leftovers_killed = false; // other processes of its group had to be stopped after it exited
  Capture out;
  Capture err;

  bool succeeded() const { return ending == Ending::Exited && exit_code == 0; }
};

// Spawns the process in its own process group with stdin from /dev/null, captures stdout and
// stderr (bounded) and waits for it, enforcing the timeout and reacting to an InterruptGuard.
// Never throws for what the child does; SpawnFailed carries the reason.
ProcessResult run_process(const ProcessSpec& spec);

// "exited with 3", "killed by SIGSEGV", "timed out after 10 s", "interrupted", or the error.
std::string describe(const ProcessResult& result);
std::string_view ending_name(Ending ending); // "exited", "signaled", "timed-out", ...

} // namespace ej::run
