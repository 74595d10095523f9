#pragma once

#include <csignal>

namespace ej::run {

// While alive, SIGINT and SIGTERM do not kill ej: they set a flag and wake run_process (through
// a self-pipe it polls), which then stops the child's process group (TERM, then KILL) and
// reports Ending::Interrupted. The caller records the run as interrupted and exits.
// The previous handlers are restored on destruction. One guard at a time.
class InterruptGuard {
public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  // True once SIGINT or SIGTERM arrived while a guard was alive (reset by a new guard).
  static bool interrupted();
  // The signal that arrived (SIGINT or SIGTERM), 0 when none: exit with 128 + it.
  static int signal_number();
  // The read end of the self-pipe, readable once a signal arrived; -1 without a guard.
  static int wake_fd();

private:
  struct sigaction m_old_int {};
  struct sigaction m_old_term {};
};

} // namespace ej::run
