#pragma once

#include "run/capture.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
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
  bool keep_whole_out = false;                          // spool all of stdout (Capture::whole)
  bool keep_whole_err = false;
  std::size_t head_bytes = 256 * 1024;                  // kept per stream from the start...
  std::size_t tail_bytes = 256 * 1024;                  // ...and from the end
  // Processes of the child's group still alive once the child exited (background jobs of a
  // script) are stopped (TERM, then KILL) so that no run leaves anything behind.
  bool kill_leftovers = true;
  // The children's stdin when >= 0 (the caller owns it and keeps it open); else /dev/null. A remote
  // repeat's ssh reads a pipe that ej never writes: its end of file tells the host ej is gone.
  int stdin_fd = -1;
  // Called after each chunk read (optional), e.g. for progress; runs on ej's thread.
  std::function<void(Stream, std::string_view)> on_output;
};

enum class Ending { Exited, Signaled, TimedOut, Interrupted, SpawnFailed };

struct ProcessResult {
  Ending ending = Ending::SpawnFailed;
  int exit_code = 0; // when Exited; 127 when SpawnFailed (as a shell would say)
  int signal = 0;    // the signal that ended the child (also after TimedOut/Interrupted)
  std::string error; // SpawnFailed: what went wrong and what to do; Interrupted: why, when not a signal
  double wall_s = 0; // monotonic, spawn to reaping
  double limit_s = 0; // TimedOut: the limit it ran past (wall_s also counts the stop and the reaping)
  double user_s = 0;
  double sys_s = 0;
  std::int64_t max_rss_kb = 0;   // peak resident set of the child (largest of its process tree)
  bool leftovers_killed = false; // other processes of its group had to be stopped after it exited
  bool stopped = false; // ej was stopped (Ctrl-Z) while it ran: its times are not a measurement
  Capture out;
  Capture err;

  bool succeeded() const { return ending == Ending::Exited && exit_code == 0; }
};

// Runs one ProcessSpec as often as asked (the repeats of a benchmark). Each run() spawns the
// process in its own process group with stdin from /dev/null, captures stdout and stderr
// (bounded) and waits for it, enforcing the timeout and reacting to an InterruptGuard.
// Never throws for what the child does; SpawnFailed carries the reason.
//
// What does not change between repeats (environment, program path, working directory check) is
// worked out once. From the second run on, the pipes of the next repeat are made, and those of
// the previous one closed, while the child runs: the time between one child's exit and the next
// one's start is what a fast benchmark's repeat costs beyond the benchmark itself.
class EchoTarget;
class Guardian;

class Launcher {
public:
  explicit Launcher(ProcessSpec spec);
  ~Launcher();
  Launcher(const Launcher&) = delete;
  Launcher& operator=(const Launcher&) = delete;

  ProcessResult run();

private:
  void close_retired();
  void prepare_spare_pipes();
  void echo(Stream stream, std::string_view chunk);

  ProcessSpec m_spec;
  std::vector<std::string> m_argv;
  std::vector<std::string> m_environment; // "K=V": ej's environment with the spec's applied
  std::filesystem::path m_program;        // argv[0] found in PATH
  std::string m_error;                    // why nothing can be spawned, when something is wrong
  bool m_change_directory = false;        // the spec's cwd is not ej's own
  int m_dev_null = -1;                    // the children's stdin
  std::vector<int> m_spare;               // out read/write, err read/write, made ahead
  std::vector<int> m_retired;             // descriptors of the previous repeat
  int m_runs = 0;
  bool m_large_pipes = false;                // the output has filled a pipe of the default size
  bool m_spare_large = false;                // m_spare was made large
  std::vector<char*> m_argv_pointers;        // into m_argv, for exec
  std::vector<char*> m_environment_pointers; // into m_environment
  std::vector<int> m_reset_signals;          // set back to their defaults in the child
  void* m_stack = nullptr;                   // the child's stack until it execs, reused
  Guardian* m_guardian = nullptr;            // stops the benchmark should ej die; may be absent
  std::unique_ptr<EchoTarget> m_echo_out;    // ej's stdout and stderr, when echoing
  std::unique_ptr<EchoTarget> m_echo_err;
  bool m_echo_dropped = false;               // said once
  static constexpr std::size_t k_child_stack_bytes = 64 * 1024;
};

// One run of a spec (Launcher(spec).run()).
ProcessResult run_process(const ProcessSpec& spec);

// "exited with 3", "killed by SIGSEGV", "timed out after 10 s", "interrupted", or the error.
std::string describe(const ProcessResult& result);

} // namespace ej::run
