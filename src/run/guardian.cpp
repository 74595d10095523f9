#include "run/guardian.h"

#include "run/owner.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <new>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ej::run {

namespace {

static_assert(std::atomic<int>::is_always_lock_free); // shared between two processes

constexpr int k_term_wait_steps = 50; // of 20 ms: TERM, then KILL after a second at most

void close_all_but(int keep)
{
  if (keep > 0 && ::close_range(0, static_cast<unsigned>(keep) - 1, 0) != 0) {
    for (int fd = 0; fd < keep; ++fd) {
      ::close(fd);
    }
  }
  if (::close_range(static_cast<unsigned>(keep) + 1, ~0U, 0) != 0) {
    for (int fd = keep + 1; fd < 65536; ++fd) {
      ::close(fd);
    }
  }
}

bool contains(const char* data, std::size_t size, const char* marker, std::size_t marker_size)
{
  return ::memmem(data, size, marker, marker_size) != nullptr;
}

// Whether /proc/PID/environ holds the marker as one of its entries.
bool has_marker(const char* pid, const char* marker, std::size_t marker_size)
{
  char path[64] = "/proc/";
  std::size_t at = 6;
  for (const char* c = pid; *c != '\0' && at < 40; ++c) {
    path[at++] = *c;
  }
  for (const char* c = "/environ"; *c != '\0'; ++c) {
    path[at++] = *c;
  }
  path[at] = '\0';
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return false;
  }
  // Entries are NUL-separated: look for "\0MARKER\0", the first entry preceded by a NUL of ours.
  char buffer[16384];
  buffer[0] = '\0';
  std::size_t kept = 1;
  bool found = false;
  while (!found) {
    const ssize_t n = ::read(fd, buffer + kept, sizeof buffer - kept - 1);
    if (n <= 0) {
      buffer[kept++] = '\0'; // the last entry's end
      found = contains(buffer, kept, marker, marker_size);
      break;
    }
    kept += static_cast<std::size_t>(n);
    found = contains(buffer, kept, marker, marker_size);
    // Keep the tail that could begin a match across reads.
    const std::size_t tail = std::min(kept, marker_size);
    std::memmove(buffer, buffer + kept - tail, tail);
    kept = tail;
  }
  ::close(fd);
  return found;
}

// Kills every process whose environment holds the marker; true when there was one.
bool sweep(const char* marker, std::size_t marker_size)
{
  const int proc = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (proc < 0) {
    return false;
  }
  const pid_t self = ::getpid();
  bool killed = false;
  alignas(8) char entries[8192];
  while (true) {
    const long n = ::syscall(SYS_getdents64, proc, entries, sizeof entries);
    if (n <= 0) {
      break;
    }
    for (long offset = 0; offset < n;) {
      struct Entry {
        std::uint64_t ino;
        std::int64_t off;
        unsigned short reclen;
        unsigned char type;
        char name[1];
      };
      const auto* entry = reinterpret_cast<const Entry*>(entries + offset);
      offset += entry->reclen;
      const char* name = entry->name;
      pid_t pid = 0;
      bool numeric = *name != '\0';
      for (const char* c = name; *c != '\0'; ++c) {
        numeric = numeric && *c >= '0' && *c <= '9';
        pid = pid * 10 + (*c - '0');
      }
      if (numeric && pid != self && has_marker(name, marker, marker_size)) {
        killed |= ::kill(pid, SIGKILL) == 0;
      }
    }
  }
  ::close(proc);
  return killed;
}

// The guardian's whole life, after fork: system calls only (ej may have had other threads).
[[noreturn]] void guard(int alive_fd, std::atomic<int>* group, const char* marker)
{
  ::setpgid(0, 0);
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU}) {
    ::sigaction(signal, &ignore, nullptr);
  }
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  close_all_but(alive_fd);
  char byte = 0;
  while (true) {
    const ssize_t n = ::read(alive_fd, &byte, 1);
    if (n == 0 || (n < 0 && errno != EINTR)) {
      break; // ej is gone
    }
  }
  const int target = group->load();
  if (target > 0 && ::kill(-target, SIGTERM) == 0) {
    ::kill(-target, SIGCONT); // stopped with ej (Ctrl-Z): TERM acts only once it runs
    const timespec step{0, 20'000'000};
    for (int i = 0; i < k_term_wait_steps && ::kill(-target, 0) == 0; ++i) {
      ::nanosleep(&step, nullptr);
    }
    ::kill(-target, SIGKILL);
  }
  // "\0EJ_GUARD=...\0": the whole entry, not a prefix of another ej's.
  char entry[80] = {};
  std::size_t size = 1;
  for (const char* c = marker; *c != '\0' && size < sizeof entry - 1; ++c) {
    entry[size++] = *c;
  }
  ++size; // the closing NUL
  for (int round = 0; round < 3 && sweep(entry, size); ++round) {
    // again: a process may have forked while the last sweep ran
  }
  ::_exit(0);
}

} // namespace

Guardian* Guardian::instance()
{
  static Guardian* const guardian = []() -> Guardian* {
    void* shared =
        ::mmap(nullptr, sizeof(std::atomic<int>), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) {
      return nullptr;
    }
    auto* group = new (shared) std::atomic<int>(0);
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
      ::munmap(shared, sizeof(std::atomic<int>));
      return nullptr;
    }
    char marker[64];
    std::snprintf(marker, sizeof marker, "EJ_GUARD=%d.%llu", static_cast<int>(::getpid()),
                  static_cast<unsigned long long>(process_start_ticks(::getpid()).value_or(0)));
    const pid_t pid = ::fork();
    if (pid == 0) {
      guard(fds[0], group, marker);
    }
    ::close(fds[0]);
    if (pid < 0) {
      ::close(fds[1]);
      ::munmap(shared, sizeof(std::atomic<int>));
      return nullptr;
    }
    static Guardian instance(fds[1], group, marker);
    return &instance;
  }();
  return guardian;
}

Guardian::Guardian(int alive_fd, std::atomic<int>* group, const char* marker)
    : m_alive_fd(alive_fd), m_group(group), m_marker{}
{
  std::snprintf(m_marker, sizeof m_marker, "%s", marker);
}

Guardian::~Guardian()
{
  // ej ends normally: what it ran is stopped already; the guardian sees the pipe close, sweeps for
  // escaped processes and goes.
  // Not waited for: its sweep for escaped processes must not delay ej's exit. It is reaped by
  // whoever inherits it.
  release();
  ::close(m_alive_fd);
}

} // namespace ej::run
