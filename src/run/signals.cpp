#include "run/signals.h"

#include "util/error.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <unistd.h>

namespace ej::run {

namespace {

// Plain statics: the handler may only touch lock-free atomics and write(2).
std::atomic<int> g_signal{0};
std::atomic<int> g_read_fd{-1};
std::atomic<int> g_write_fd{-1};
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void on_interrupt(int signal_number)
{
  const int saved_errno = errno;
  int none = 0;
  g_signal.compare_exchange_strong(none, signal_number); // the first one is the reason
  const int fd = g_write_fd.load();
  if (fd >= 0) {
    const char byte = 1;
    // Non-blocking: a full pipe already means "woken".
    [[maybe_unused]] const auto written = ::write(fd, &byte, 1);
  }
  errno = saved_errno;
}

std::atomic<int> g_group{0};
std::atomic<unsigned> g_stops{0};
std::atomic<std::int64_t> g_stopped_ns{0};
static_assert(std::atomic<std::int64_t>::is_always_lock_free);

std::int64_t now_ns()
{
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

extern "C" void on_continue(int)
{
  const int saved_errno = errno;
  g_stops.fetch_add(1);
  if (const int group = g_group.load(); group > 0) {
    ::kill(-group, SIGCONT);
  }
  errno = saved_errno;
}

// Ctrl-Z: the benchmark stops first, then ej, by the default action of SIGTSTP (which the kernel
// discards when ej's process group is orphaned: then neither stays stopped).
extern "C" void on_stop(int signal_number)
{
  const int saved_errno = errno;
  if (const int group = g_group.load(); group > 0) {
    ::kill(-group, SIGSTOP);
  }
  const std::int64_t stopped_at = now_ns();
  struct sigaction stop_default {};
  struct sigaction ours {};
  stop_default.sa_handler = SIG_DFL;
  ::sigaction(signal_number, &stop_default, &ours);
  ::raise(signal_number); // pending while blocked in this handler...
  sigset_t just_this;
  sigemptyset(&just_this);
  sigaddset(&just_this, signal_number);
  ::sigprocmask(SIG_UNBLOCK, &just_this, nullptr); // ...ej stops here, and goes on at SIGCONT
  ::sigaction(signal_number, &ours, nullptr);
  g_stopped_ns.fetch_add(now_ns() - stopped_at);
  on_continue(SIGCONT); // also when the stop was discarded
  errno = saved_errno;
}

} // namespace

void InterruptGuard::hang_up() noexcept
{
  on_interrupt(SIGHUP);
}

void InterruptGuard::set_running_group(int group) noexcept
{
  g_group.store(group);
}

unsigned InterruptGuard::stops() noexcept
{
  return g_stops.load();
}

std::int64_t InterruptGuard::stopped_ns() noexcept
{
  return g_stopped_ns.load();
}

InterruptGuard::InterruptGuard()
{
  if (g_read_fd.load() >= 0) {
    throw Error("an interrupt guard is already installed; create only one at a time");
  }
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
    throw Error("cannot create a pipe for signal handling: {}", std::strerror(errno));
  }
  g_signal.store(0);
  g_read_fd.store(fds[0]);
  g_write_fd.store(fds[1]);

  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (std::size_t i = 0; i < std::size(k_signals); ++i) {
    ::sigaction(k_signals[i], &action, &m_old[i]);
  }
  struct sigaction stop {};
  stop.sa_handler = on_stop;
  sigemptyset(&stop.sa_mask);
  stop.sa_flags = SA_RESTART;
  ::sigaction(SIGTSTP, &stop, &m_old_stop);
  struct sigaction resume = stop;
  resume.sa_handler = on_continue;
  ::sigaction(SIGCONT, &resume, &m_old_continue);
}

InterruptGuard::~InterruptGuard()
{
  for (std::size_t i = 0; i < std::size(k_signals); ++i) {
    ::sigaction(k_signals[i], &m_old[i], nullptr);
  }
  ::sigaction(SIGTSTP, &m_old_stop, nullptr);
  ::sigaction(SIGCONT, &m_old_continue, nullptr);
  const int read_fd = g_read_fd.exchange(-1);
  const int write_fd = g_write_fd.exchange(-1);
  ::close(read_fd);
  ::close(write_fd);
}

bool InterruptGuard::interrupted()
{
  return g_signal.load() != 0;
}

int InterruptGuard::signal_number()
{
  return g_signal.load();
}

int InterruptGuard::wake_fd()
{
  return g_read_fd.load();
}

} // namespace ej::run
