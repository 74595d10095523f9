#include "run/guardian.h"

#include "run/owner.h"
#include "run/run_cgroup.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <limits>
#include <new>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ej::run {

// One page shared with the guardian: it reads it once ej is gone.
struct Guardian::Shared {
  std::atomic<int> group{0};
  std::atomic<int> has_cgroup{0}; // 1 while `cgroup` names the run's cgroup
  char cgroup[4000] = {};
};

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

// Kills every process but ej whose environment holds the marker entry; returns how many.
int sweep(const char* marker, std::size_t marker_size, pid_t self)
{
  const int proc = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (proc < 0) {
    return 0;
  }
  int killed = 0;
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
      // A pid, or a name of /proc that is none ("self", "sys", ...): never overflows.
      long pid = 0;
      bool numeric = *name != '\0';
      for (const char* c = name; *c != '\0' && numeric; ++c) {
        numeric = *c >= '0' && *c <= '9' && pid < (1L << 40);
        pid = numeric ? pid * 10 + (*c - '0') : 0;
      }
      numeric = numeric && pid > 0 && pid <= std::numeric_limits<pid_t>::max();
      if (numeric && pid != self && has_marker(name, marker, marker_size) &&
          ::kill(static_cast<pid_t>(pid), SIGKILL) == 0) {
        ++killed;
      }
    }
  }
  ::close(proc);
  return killed;
}

// "\0EJ_GUARD=...\0" into `entry`: the whole entry, not a prefix of another ej's. Returns its size.
std::size_t marker_entry(const char* marker, char (&entry)[80]) noexcept
{
  std::memset(entry, 0, sizeof entry);
  std::size_t size = 1;
  for (const char* c = marker; *c != '\0' && size < sizeof entry - 1; ++c) {
    entry[size++] = *c;
  }
  return size + 1; // the closing NUL
}

// The guardian's whole life, after fork: system calls only (ej may have had other threads).
[[noreturn]] void guard(int alive_fd, Guardian::Shared* shared, const char* marker)
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
  const int target = shared->group.load();
  if (target > 0 && ::kill(-target, SIGTERM) == 0) {
    ::kill(-target, SIGCONT); // stopped with ej (Ctrl-Z): TERM acts only once it runs
    const timespec step{0, 20'000'000};
    for (int i = 0; i < k_term_wait_steps && ::kill(-target, 0) == 0; ++i) {
      ::nanosleep(&step, nullptr);
    }
    ::kill(-target, SIGKILL);
  }
  if (shared->has_cgroup.load() == 1) {
    stop_cgroup(shared->cgroup); // what left the group, its environment cleared or not
  }
  char entry[80];
  const std::size_t size = marker_entry(marker, entry);
  for (int round = 0; round < 3 && sweep(entry, size, ::getpid()) > 0; ++round) {
    // again: a process may have forked while the last sweep ran
  }
  ::_exit(0);
}

} // namespace

Guardian* Guardian::instance()
{
  static Guardian* const guardian = []() -> Guardian* {
    void* memory = ::mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) {
      return nullptr;
    }
    auto* shared = new (memory) Shared;
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
      ::munmap(memory, sizeof(Shared));
      return nullptr;
    }
    char marker[64];
    std::snprintf(marker, sizeof marker, "EJ_GUARD=%d.%llu", static_cast<int>(::getpid()),
                  static_cast<unsigned long long>(process_start_ticks(::getpid()).value_or(0)));
    const pid_t pid = ::fork();
    if (pid == 0) {
      guard(fds[0], shared, marker);
    }
    ::close(fds[0]);
    if (pid < 0) {
      ::close(fds[1]);
      ::munmap(memory, sizeof(Shared));
      return nullptr;
    }
    static Guardian instance(fds[1], shared, marker, pid);
    return &instance;
  }();
  return guardian;
}

Guardian::Guardian(int alive_fd, Shared* shared, const char* marker, pid_t pid)
    : m_alive_fd(alive_fd), m_shared(shared), m_marker{}, m_pid(pid),
      m_inside_a_run(std::getenv("EJ_GUARD") != nullptr)
{
  std::snprintf(m_marker, sizeof m_marker, "%s", marker);
}

void Guardian::watch(pid_t group) noexcept
{
  m_shared->group.store(group);
}

void Guardian::release() noexcept
{
  m_shared->group.store(0);
}

void Guardian::watch_cgroup(const char* directory) noexcept
{
  m_shared->has_cgroup.store(0);
  std::snprintf(m_shared->cgroup, sizeof m_shared->cgroup, "%s", directory);
  m_shared->has_cgroup.store(1); // after the name: the guardian never reads half of one
}

void Guardian::release_cgroup() noexcept
{
  m_shared->has_cgroup.store(0);
}

int Guardian::stop_escaped() const noexcept
{
  char entry[80];
  const std::size_t size = marker_entry(m_marker, entry);
  const int found = sweep(entry, size, ::getpid());
  // Again, not counted (one killed a moment ago may still be listed): a process may have forked
  // while the sweep ran.
  for (int round = 0; round < 2 && found > 0 && sweep(entry, size, ::getpid()) > 0; ++round) {
  }
  return found;
}

Guardian::~Guardian()
{
  // ej ends normally: what it ran is stopped already; the guardian sees the pipe close, sweeps for
  // escaped processes and goes.
  // Not waited for: its sweep for escaped processes must not delay ej's exit. It is reaped by
  // whoever inherits it. Except inside another ej's benchmark (whose EJ_GUARD this ej inherited):
  // there a guardian that outlives this ej by moments is a process the benchmark left running.
  release();
  ::close(m_alive_fd);
  if (m_inside_a_run) {
    while (::waitpid(m_pid, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
}

} // namespace ej::run
