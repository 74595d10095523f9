#pragma once

#include <csignal>
#include <cstdint>
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
  // ej's terminal is gone (a write to it failed with EIO: the ssh session dropped, the tmux pane
  // was killed) although no SIGHUP came, or not yet: the same as a SIGHUP, from any thread.
  static void hang_up() noexcept;

  // Ctrl-Z (SIGTSTP): ej stops the running benchmark's process group (SIGSTOP) before it stops
  // itself, and continues it on SIGCONT, so nothing runs unwatched. A repeat during which ej was
  // stopped (SIGSTOP included, seen at the SIGCONT) is not a measurement: stops() counts them.
  // The benchmark's group is named by set_running_group.
  static void set_running_group(int group) noexcept;
  // How many times ej was stopped and continued since the process began.
  static unsigned stops() noexcept;
  // Nanoseconds ej spent stopped by SIGTSTP since the process began (not SIGSTOP's: unseen).
  static std::int64_t stopped_ns() noexcept;

  // SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE.
  static constexpr int k_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};

private:
  struct sigaction m_old[std::size(k_signals)]{};
  struct sigaction m_old_stop {};
  struct sigaction m_old_continue {};
};

} // namespace ej::run
