#include "run/signals.h"

#include "util/error.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
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

} // namespace

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
}

InterruptGuard::~InterruptGuard()
{
  for (std::size_t i = 0; i < std::size(k_signals); ++i) {
    ::sigaction(k_signals[i], &m_old[i], nullptr);
  }
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
