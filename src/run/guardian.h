#pragma once

#include <atomic>
#include <sys/types.h>

namespace ej::run {

// A small process of its own, forked once by ej, that outlives it by moments: when ej ends,
// however it ends (SIGKILL included), the guardian sees the pipe to ej close and stops the process
// group of the benchmark that was running (TERM, then KILL within a second). ej names that group
// through a word of shared memory, which costs a repeat nothing. The guardian ignores the signals
// a terminal sends and sits in a process group of its own, so what ends ej's job does not end it.
//
// Processes that left the benchmark's process group (setsid, a daemon) are found by a variable
// every benchmark inherits, EJ_GUARD=<ej's pid>.<its start time>: when ej ends, the guardian kills
// every process of this user whose environment holds it. Only a process that clears its
// environment escapes that, unless the run has a cgroup of its own (RunCgroup), which the guardian
// then empties and removes. The benchmark's first process also gets PR_SET_PDEATHSIG.
class Guardian {
public:
  // The guardian of this ej, started on first use; nullptr when it could not be started.
  static Guardian* instance();

  ~Guardian();
  Guardian(const Guardian&) = delete;
  Guardian& operator=(const Guardian&) = delete;

  void watch(pid_t group) noexcept; // the benchmark's group now
  void release() noexcept;          // nothing of it is left
  // The run's cgroup, stopped and removed should ej die while it exists.
  void watch_cgroup(const char* directory) noexcept;
  void release_cgroup() noexcept;
  // Stops, as the guardian would, every process but ej that holds the marker: those the benchmark
  // left outside its process group. Returns how many there were.
  int stop_escaped() const noexcept;
  // "EJ_GUARD=..." for the benchmarks' environment.
  const char* marker() const noexcept { return m_marker; }

  struct Shared; // what ej tells the guardian, in memory both see

private:
  Guardian(int alive_fd, Shared* shared, const char* marker, pid_t pid);

  int m_alive_fd; // ej's end of the pipe: closed only when ej ends
  Shared* m_shared;
  char m_marker[64];
  pid_t m_pid;         // the guardian's
  bool m_inside_a_run; // this ej runs as part of another ej's benchmark: its guardian is waited for
};

} // namespace ej::run
