#pragma once

#include <csignal>
#include <iterator>

namespace ej::run {

// While alive, the signals that would end ej (SIGINT, SIGTERM, SIGHUP when the terminal or the ssh
// connection goes, SIGQUIT, SIGPIPE when whoever reads ej's output is gone) do not kill it: they
// set a flag and wake run_process (through a self-pipe it polls), which then stops the child's
// process group (TERM, then KILL) and reports Ending::Interrupted. The caller records the run as
// interrupted and exits. The previous handlers are restored on destruction. One guard at a time.
class InterruptGuard {
public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  // True once one of those signals arrived while a guard was alive (reset by a new guard).
  static bool interrupted();
  // The first signal that arrived, 0 when none: exit with 128 + it.
  static int signal_number();
  // The read end of the self-pipe, readable once a signal arrived; -1 without a guard.
  static int wake_fd();

  // SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE.
  static constexpr int k_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};

private:
  struct sigaction m_old[std::size(k_signals)]{};
};

} // namespace ej::run
