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
// environment escapes that; the benchmark's first process also gets PR_SET_PDEATHSIG.
class Guardian {
public:
  // The guardian of this ej, started on first use; nullptr when it could not be started.
  static Guardian* instance();

  ~Guardian();
  Guardian(const Guardian&) = delete;
  Guardian& operator=(const Guardian&) = delete;

  void watch(pid_t group) noexcept { m_group->store(group); } // the benchmark's group now
  void release() noexcept { m_group->store(0); }              // nothing of it is left
  // "EJ_GUARD=..." for the benchmarks' environment.
  const char* marker() const noexcept { return m_marker; }

private:
  Guardian(int alive_fd, std::atomic<int>* group, const char* marker);

  int m_alive_fd; // ej's end of the pipe: closed only when ej ends
  std::atomic<int>* m_group;
  char m_marker[64];
};

} // namespace ej::run
