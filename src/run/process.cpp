#include "run/process.h"

#include "run/guardian.h"
#include "run/run_cgroup.h"
#include "run/signals.h"
#include "util/time.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ej::run {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t k_read_chunk = 1024 * 1024;
constexpr int k_pipe_size = 1024 * 1024;
// A read this large found a pipe of the default size (16 pages) at least half full: the program
// writes faster than ej drains it, and larger pipes mean fewer, larger reads. Not "64 KiB": a full
// pipe holds less when writes leave pages part-filled (as little as 32 KiB and a few bytes).
constexpr ssize_t k_heavy_read = 32 * 1024;
// After SIGKILL, pipes still open belong to processes that left the group: stop waiting for them.
constexpr double k_give_up_after_kill_s = 1.0;
// Without pidfd (old kernels) the child's exit is noticed by polling this often.
constexpr int k_exit_poll_ms = 20;
// How often a process group told to stop is checked for being empty.
constexpr double k_group_poll_s = 0.01;

// Owns the file descriptors of one run; closes them whatever happens.
struct Fds {
  std::array<int, 2> out{-1, -1};
  std::array<int, 2> err{-1, -1};
  int pidfd = -1;

  Fds() = default;
  Fds(const Fds&) = delete;
  Fds& operator=(const Fds&) = delete;
  ~Fds()
  {
    for (int* fd : {&out[0], &out[1], &err[0], &err[1], &pidfd}) {
      close(*fd);
    }
  }
  static void close(int& fd)
  {
    if (fd >= 0) {
      ::close(fd);
    }
    fd = -1;
  }
};

double seconds_since(std::int64_t start_ns)
{
  return static_cast<double>(util::monotonic_ns() - start_ns) / 1e9;
}

double timeval_s(const timeval& tv)
{
  return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
}

// ej's environment with the overrides applied, as "K=V" strings.
std::vector<std::string> child_environment(const std::vector<std::pair<std::string, std::string>>& overrides)
{
  std::vector<std::string> result;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const std::string_view name = text.substr(0, text.find('='));
    const bool overridden =
        std::any_of(overrides.begin(), overrides.end(), [&](const auto& kv) { return kv.first == name; });
    if (!overridden) {
      result.emplace_back(text);
    }
  }
  for (const auto& [name, value] : overrides) {
    result.push_back(name + "=" + value);
  }
  return result;
}

std::string lookup(const std::vector<std::string>& environment, std::string_view name)
{
  for (const auto& entry : environment) {
    if (entry.size() > name.size() && entry.compare(0, name.size(), name) == 0 && entry[name.size()] == '=') {
      return entry.substr(name.size() + 1);
    }
  }
  return {};
}

// errno of why `path` cannot be executed, 0 when it can.
int executable_error(const fs::path& path)
{
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    return errno;
  }
  if (S_ISDIR(info.st_mode)) {
    return EISDIR;
  }
  if (::access(path.c_str(), X_OK) != 0) {
    return errno;
  }
  return 0;
}

struct Resolved {
  fs::path path; // empty on failure
  int error = 0;
};

// Finds the program as execvp would (PATH of the child's environment, relative to its cwd), in
// the parent, so that "not found" and "not executable" are reported precisely.
Resolved resolve_program(const std::string& name, const std::string& path_variable, const fs::path& cwd)
{
  const fs::path base = cwd.empty() ? fs::current_path() : fs::absolute(cwd);
  if (name.find('/') != std::string::npos) {
    const fs::path path = fs::path(name).is_absolute() ? fs::path(name) : base / name;
    return {path, executable_error(path)};
  }
  int first_error = ENOENT;
  std::string_view rest =
      path_variable.empty() ? std::string_view("/usr/local/bin:/usr/bin:/bin") : path_variable;
  while (true) {
    const std::size_t colon = rest.find(':');
    const std::string_view dir = rest.substr(0, colon);
    const fs::path candidate = (dir.empty() ? base : base / fs::path(dir)) / name;
    const int error = executable_error(candidate);
    if (error == 0) {
      return {candidate, 0};
    }
    if (error != ENOENT && error != ENOTDIR && first_error == ENOENT) {
      first_error = error; // found but not runnable: say so rather than "not found"
    }
    if (colon == std::string_view::npos) {
      break;
    }
    rest.remove_prefix(colon + 1);
  }
  return {{}, first_error};
}

std::string spawn_error(const std::string& name, int error)
{
  std::string hint = "check the path or register with --shell";
  if (error == EACCES) {
    hint = "make it executable (chmod +x) or register with --shell";
  } else if (error == ENOEXEC) {
    hint = "it is not a program: add a #! line or register with --shell";
  }
  return fmt::format("cannot run '{}': {} ({})", name, std::strerror(error), hint);
}

ProcessResult spawn_failed(std::string error)
{
  ProcessResult result;
  result.ending = Ending::SpawnFailed;
  result.exit_code = 127;
  result.error = std::move(error);
  return result;
}

} // namespace

// ej's stdout or stderr as the live echo writes it: never blocking, so that a terminal or pipe
// that does not read (`ej run ... | sleep 60`, Ctrl-S) cannot hold up the measurement. A pipe, FIFO
// or terminal is opened anew (its own non-blocking open file, not the shell's); what does not fit
// is dropped, and said once. The capture keeps everything regardless.
class EchoTarget {
public:
  explicit EchoTarget(int fd) : m_fd(fd)
  {
    struct stat info {};
    if (::fstat(fd, &info) != 0) {
      m_fd = -1;
      return;
    }
    m_socket = S_ISSOCK(info.st_mode);
    if (S_ISFIFO(info.st_mode) || S_ISCHR(info.st_mode)) {
      const auto path = fmt::format("/proc/self/fd/{}", fd);
      m_own = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
      m_fd = m_own >= 0 ? m_own : fd;
      m_poll_first = m_own < 0;
    }
  }
  ~EchoTarget()
  {
    if (m_own >= 0) {
      ::close(m_own);
    }
  }
  EchoTarget(const EchoTarget&) = delete;
  EchoTarget& operator=(const EchoTarget&) = delete;

  // Bytes of the chunk that were dropped (0: all shown).
  std::size_t write(const char* data, std::size_t size)
  {
    while (m_fd >= 0 && size > 0) {
      std::size_t piece = size;
      if (m_poll_first) {
        // A blocking descriptor shared with the shell: write only what surely fits.
        pollfd ready{m_fd, POLLOUT, 0};
        if (::poll(&ready, 1, 0) != 1 || (ready.revents & POLLOUT) == 0) {
          break;
        }
        piece = std::min<std::size_t>(size, PIPE_BUF);
      }
      const ssize_t written =
          m_socket ? ::send(m_fd, data, piece, MSG_DONTWAIT) : ::write(m_fd, data, piece);
      if (written < 0) {
        if (errno == EINTR) {
          continue;
        }
        if (errno != EAGAIN && errno != EWOULDBLOCK) {
          if (errno == EIO) { // ej's terminal hung up: as a SIGHUP, which may never come
            InterruptGuard::hang_up();
          }
          m_fd = -1; // ej's own output is gone (closed pipe): keep capturing silently
        }
        break;
      }
      data += written;
      size -= static_cast<std::size_t>(written);
    }
    return m_fd >= 0 ? size : 0;
  }

private:
  int m_fd;
  int m_own = -1;
  bool m_socket = false;
  bool m_poll_first = false;
};

namespace {

// The running child and the state of its process group.
class Supervisor {
public:
  Supervisor(const ProcessSpec& spec, pid_t pid, std::int64_t start_ns)
      : m_spec(spec), m_pid(pid), m_start_ns(start_ns), m_stopped_ns_at_start(InterruptGuard::stopped_ns())
  {
  }

  // Sends SIGTERM to the whole group once; SIGKILL follows after the grace period.
  void stop_group(Ending reason)
  {
    if (m_term_sent_s >= 0) {
      return;
    }
    if (reason != Ending::Exited) {
      m_reason = reason;
    }
    m_term_sent_s = seconds_since(m_start_ns);
    ::kill(-m_pid, SIGTERM);
  }

  // Reaps the child when it has exited; then deals with what is left of its group.
  void try_reap()
  {
    if (m_reaped) {
      return;
    }
    int status = 0;
    rusage usage{};
    const pid_t got = ::wait4(m_pid, &status, WNOHANG, &usage);
    if (got != m_pid) {
      return;
    }
    m_reaped = true;
    m_status = status;
    m_usage = usage;
    m_wall_s = seconds_since(m_start_ns);
    // The group id stays reserved while any member lives, so this reaches only our leftovers.
    if (m_term_sent_s < 0 && m_spec.kill_leftovers && group_alive()) {
      m_leftovers = true;
      stop_group(Ending::Exited);
    }
  }

  // Sends SIGKILL when the grace period is over; returns how long poll may sleep (ms, -1: forever).
  int tick(bool pipes_open)
  {
    const double now = seconds_since(m_start_ns);
    // The time ej spent stopped (Ctrl-Z, the benchmark with it) does not count towards the timeout.
    const double stopped_s = static_cast<double>(InterruptGuard::stopped_ns() - m_stopped_ns_at_start) / 1e9;
    if (m_term_sent_s < 0 && m_spec.timeout_s > 0 && now - stopped_s >= m_spec.timeout_s) {
      stop_group(Ending::TimedOut);
    }
    if (m_term_sent_s >= 0 && m_kill_sent_s < 0 && now >= m_term_sent_s + m_spec.kill_grace_s) {
      m_kill_sent_s = now;
      ::kill(-m_pid, SIGKILL);
    }
    double wait_s = -1;
    const auto consider = [&](double at) {
      const double left = std::max(0.0, at - now);
      wait_s = wait_s < 0 ? left : std::min(wait_s, left);
    };
    if (m_term_sent_s < 0 && m_spec.timeout_s > 0) {
      consider(m_spec.timeout_s + stopped_s);
    }
    if (m_term_sent_s >= 0 && m_kill_sent_s < 0) {
      consider(m_term_sent_s + m_spec.kill_grace_s);
    }
    if (m_reaped && m_term_sent_s >= 0 && waiting_for_group()) {
      consider(now + k_group_poll_s); // no descriptor says when a group is empty: look again soon
    }
    if (m_kill_sent_s >= 0 && pipes_open) {
      consider(m_kill_sent_s + k_give_up_after_kill_s);
    }
    if (wait_s < 0) {
      return -1;
    }
    return static_cast<int>(std::ceil(wait_s * 1000));
  }

  // Done once the child is reaped and its output is closed, or nothing more can come; and once
  // what was told to stop is gone, or has been sent SIGKILL: a leftover that ignores SIGTERM and
  // closed its output must not outlive its repeat.
  bool finished(bool pipes_open) const
  {
    if (!m_reaped) {
      return false;
    }
    if (m_term_sent_s >= 0 && waiting_for_group() && group_alive()) {
      return false;
    }
    if (!pipes_open) {
      return true;
    }
    if (m_kill_sent_s >= 0) {
      return seconds_since(m_start_ns) >= m_kill_sent_s + k_give_up_after_kill_s;
    }
    // Reaped and nothing of the group left (or leftovers allowed): the loop drains what is in
    // the pipes and stops; whoever still holds them is no business of this run.
    return false;
  }

  bool stopping() const { return m_term_sent_s >= 0; }

  // Whether a process of the group is left. Once the child is reaped, the group's zombies that are
  // ej's (orphans given to it as a subreaper) are reaped first: a zombie is no process left, and
  // kill(-group, 0) counts it until whoever is its parent reaps it.
  bool group_alive() const
  {
    if (m_reaped) {
      while (::waitpid(-m_pid, nullptr, WNOHANG) > 0) {
      }
    }
    return ::kill(-m_pid, 0) == 0;
  }

  // What was told to stop is waited for until it is gone; after SIGKILL for a moment only (a zombie
  // nobody reaps stays in its group).
  bool waiting_for_group() const
  {
    return m_kill_sent_s < 0 || seconds_since(m_start_ns) < m_kill_sent_s + k_give_up_after_kill_s;
  }
  bool reaped() const { return m_reaped; }

  void fill(ProcessResult& result) const
  {
    result.wall_s = m_wall_s;
    result.user_s = timeval_s(m_usage.ru_utime);
    result.sys_s = timeval_s(m_usage.ru_stime);
    result.max_rss_kb = m_usage.ru_maxrss;
    result.leftovers_killed = m_leftovers;
    if (WIFEXITED(m_status)) {
      result.ending = Ending::Exited;
      result.exit_code = WEXITSTATUS(m_status);
    } else if (WIFSIGNALED(m_status)) {
      result.ending = Ending::Signaled;
      result.signal = WTERMSIG(m_status);
    }
    if (m_reason == Ending::TimedOut || m_reason == Ending::Interrupted) {
      result.ending = m_reason;
    }
    if (m_reason == Ending::TimedOut) {
      result.limit_s = m_spec.timeout_s;
    }
  }

private:
  const ProcessSpec& m_spec;
  pid_t m_pid;
  std::int64_t m_start_ns;
  std::int64_t m_stopped_ns_at_start;
  Ending m_reason = Ending::Exited;
  double m_term_sent_s = -1;
  double m_kill_sent_s = -1;
  bool m_reaped = false;
  bool m_leftovers = false;
  int m_status = 0;
  rusage m_usage{};
  double m_wall_s = 0;
};

int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
  (void)pid;
  return -1;
#endif
}

// What the child does between clone and exec, prepared by the parent: the child shares ej's
// memory and may only make system calls (no allocation, no locks).
struct ChildSetup {
  const char* program = nullptr;
  char* const* argv = nullptr;
  char* const* environment = nullptr;
  int stdin_fd = -1; // -1: open /dev/null
  int stdout_fd = -1;
  int stderr_fd = -1;
  const char* cwd = nullptr; // nullptr: stay in ej's directory
  const int* reset_signals = nullptr;
  std::size_t reset_count = 0;
  pid_t parent = 0;
  volatile int error = 0; // errno of the step that failed, written by the child
};

// Makes fd the child's descriptor target, inherited across exec.
bool move_descriptor(int fd, int target)
{
  if (fd == target) {
    return ::fcntl(fd, F_SETFD, 0) == 0; // dup2 onto itself would keep close-on-exec
  }
  return ::dup2(fd, target) == target;
}

// Runs in the child on its own stack. ASan must not instrument it: it would poison and unpoison
// shadow memory from a stack it does not know, in memory it shares with ej.
__attribute__((no_sanitize("address"))) int child_main(void* raw)
{
  auto* setup = static_cast<ChildSetup*>(raw);
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (std::size_t i = 0; i < setup->reset_count; ++i) {
    ::sigaction(setup->reset_signals[i], &default_action, nullptr);
  }
  int stdin_fd = setup->stdin_fd;
  if (stdin_fd < 0) {
    stdin_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  }
  sigset_t none;
  sigemptyset(&none);
  // Killed with ej's thread (this one) if ej dies before its guardian can act: a second line of
  // defence, for this process only (its children are the guardian's). Checked against a death
  // before the prctl.
  // Raw system calls: a sanitizer's interceptors must not run here, in memory shared with ej.
  ::syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  if (static_cast<pid_t>(::syscall(SYS_getppid)) != setup->parent) {
    setup->error = ESRCH;
    ::_exit(127);
  }
  if (stdin_fd >= 0 && ::setpgid(0, 0) == 0 && move_descriptor(stdin_fd, STDIN_FILENO) &&
      move_descriptor(setup->stdout_fd, STDOUT_FILENO) && move_descriptor(setup->stderr_fd, STDERR_FILENO) &&
      (setup->cwd == nullptr || ::chdir(setup->cwd) == 0) && ::sigprocmask(SIG_SETMASK, &none, nullptr) == 0) {
    ::execve(setup->program, setup->argv, setup->environment);
  }
  setup->error = errno;
  ::_exit(127);
}

// Spawns the child as posix_spawn does (clone with CLONE_VM | CLONE_VFORK: ej waits until the
// exec, which reports its failure through the shared setup), but on a stack kept for all the
// repeats, and resetting only the signals that are not at their default: glibc's posix_spawn maps
// and unmaps a stack and makes 64 sigaction calls per spawn, all of it while ej waits. Returns 0
// or the errno of what failed.
int spawn(pid_t& pid, void* stack_top, ChildSetup& setup)
{
  // Blocked in ej while the child shares its memory, so that no handler of ej's runs in the child
  // before it has put them back to their defaults.
  sigset_t all;
  sigset_t previous;
  sigfillset(&all);
  ::pthread_sigmask(SIG_BLOCK, &all, &previous);
  pid = ::clone(child_main, stack_top, CLONE_VM | CLONE_VFORK | SIGCHLD, &setup);
  const int clone_error = pid < 0 ? errno : 0;
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  if (clone_error != 0) {
    return clone_error;
  }
  if (setup.error != 0) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return setup.error;
  }
  return 0;
}

// The signals whose disposition in ej is not the default: the child puts them back (a program
// expects SIGPIPE to kill it, whatever ej ignores). Those ej handles are always included, in
// case a handler is installed later.
std::vector<int> signals_to_reset()
{
  std::vector<int> result{SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGCONT};
  for (int signal = 1; signal < NSIG; ++signal) {
    struct sigaction current {};
    if (signal == SIGKILL || signal == SIGSTOP || ::sigaction(signal, nullptr, &current) != 0) {
      continue;
    }
    const bool is_default = (current.sa_flags & SA_SIGINFO) == 0 && current.sa_handler == SIG_DFL;
    if (!is_default && std::find(result.begin(), result.end(), signal) == result.end()) {
      result.push_back(signal);
    }
  }
  return result;
}

// The two pipes of a child, read ends non-blocking (and large, when asked); false (errno set) on
// failure.
bool make_pipes(std::array<int, 2>& out, std::array<int, 2>& err, bool large)
{
  if (::pipe2(out.data(), O_CLOEXEC) != 0) {
    return false;
  }
  if (::pipe2(err.data(), O_CLOEXEC) != 0) {
    const int error = errno;
    ::close(out[0]);
    ::close(out[1]);
    out = {-1, -1};
    errno = error;
    return false;
  }
  for (int fd : {out[0], err[0]}) {
    if (large) {
      ::fcntl(fd, F_SETPIPE_SZ, k_pipe_size); // fewer, larger reads; the default still works
    }
    ::fcntl(fd, F_SETFL, O_NONBLOCK);
  }
  return true;
}

} // namespace

Launcher::Launcher(ProcessSpec spec) : m_spec(std::move(spec))
{
  // The benchmark's orphans (a child whose shell a signal killed first) are given to ej rather than
  // to init, which in many containers and VMs reaps them late: ej reaps those of the group it
  // stops at once (Supervisor::group_alive), so it never waits on a zombie to leave the group.
  static const bool subreaper = ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
  (void)subreaper;
  // A process started while ej is still on its way out of the last run's cgroup would be born
  // inside it, and stopped with it.
  RunCgroup::wait_for_departures();
  m_argv = m_spec.shell ? std::vector<std::string>{"/bin/sh", "-c", *m_spec.shell} : m_spec.argv;
  if (m_argv.empty() || m_argv[0].empty()) {
    m_error = "nothing to run: the command is empty (give a program, or a shell string with --shell)";
    return;
  }
  if (!m_spec.cwd.empty()) {
    std::error_code ec;
    if (!fs::is_directory(m_spec.cwd, ec)) {
      m_error = fmt::format("cannot run '{}': working directory '{}' does not exist (create it or fix the "
                            "benchmark's --cwd)",
                            m_argv[0], m_spec.cwd.string());
      return;
    }
    // Skipping a chdir to where ej already is saves each child a path walk; on any doubt, chdir.
    m_change_directory = !fs::equivalent(m_spec.cwd, fs::current_path(ec), ec);
  }
  m_environment = child_environment(m_spec.env);
  m_guardian = Guardian::instance(); // forked now, not while a repeat is timed
  if (m_guardian != nullptr) {
    // Marks every process of the benchmark, those that leave its process group included.
    std::erase_if(m_environment,
                  [](const std::string& entry) { return entry.starts_with("EJ_GUARD="); });
    m_environment.emplace_back(m_guardian->marker());
  }
  const Resolved program = resolve_program(m_argv[0], lookup(m_environment, "PATH"), m_spec.cwd);
  if (program.error != 0) {
    m_error = spawn_error(m_argv[0], program.error);
    return;
  }
  m_program = program.path;
  m_dev_null = ::open("/dev/null", O_RDONLY | O_CLOEXEC); // -1: each child opens it instead
  for (auto& arg : m_argv) {
    m_argv_pointers.push_back(arg.data());
  }
  m_argv_pointers.push_back(nullptr);
  for (auto& entry : m_environment) {
    m_environment_pointers.push_back(entry.data());
  }
  m_environment_pointers.push_back(nullptr);
  m_reset_signals = signals_to_reset();
  if (m_spec.echo) {
    m_echo_out = std::make_unique<EchoTarget>(STDOUT_FILENO);
    m_echo_err = std::make_unique<EchoTarget>(STDERR_FILENO);
  }
  void* stack = ::mmap(nullptr, k_child_stack_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK,
                       -1, 0);
  if (stack == MAP_FAILED) {
    m_error = fmt::format("cannot run '{}': no memory for the child's stack: {}", m_argv[0], std::strerror(errno));
    return;
  }
  m_stack = stack;
}

Launcher::~Launcher()
{
  if (m_stack != nullptr) {
    ::munmap(m_stack, k_child_stack_bytes);
  }
  close_retired();
  for (int fd : m_spare) {
    ::close(fd);
  }
  if (m_dev_null >= 0) {
    ::close(m_dev_null);
  }
}

void Launcher::close_retired()
{
  for (int fd : m_retired) {
    ::close(fd);
  }
  m_retired.clear();
}

void Launcher::prepare_spare_pipes()
{
  std::array<int, 2> out{-1, -1};
  std::array<int, 2> err{-1, -1};
  if (m_spare.empty() && make_pipes(out, err, m_large_pipes)) { // on failure run() makes them and says why
    m_spare = {out[0], out[1], err[0], err[1]};
    m_spare_large = m_large_pipes;
  }
}

ProcessResult Launcher::run()
{
  if (!m_error.empty()) {
    return spawn_failed(m_error);
  }
  if (InterruptGuard::interrupted()) {
    ProcessResult result;
    result.ending = Ending::Interrupted;
    return result;
  }
  ++m_runs;
  Fds fds;
  bool pipes_large = m_large_pipes;
  if (m_spare.size() == 4) {
    fds.out = {m_spare[0], m_spare[1]};
    fds.err = {m_spare[2], m_spare[3]};
    pipes_large = m_spare_large;
    m_spare.clear();
  } else if (!make_pipes(fds.out, fds.err, m_large_pipes)) {
    return spawn_failed(
        fmt::format("cannot run '{}': cannot create pipes: {}", m_argv[0], std::strerror(errno)));
  }
  ChildSetup setup;
  setup.program = m_program.c_str();
  setup.argv = m_argv_pointers.data();
  setup.environment = m_environment_pointers.data();
  setup.stdin_fd = m_spec.stdin_fd >= 0 ? m_spec.stdin_fd : m_dev_null;
  setup.stdout_fd = fds.out[1];
  setup.stderr_fd = fds.err[1];
  setup.cwd = m_change_directory ? m_spec.cwd.c_str() : nullptr;
  setup.reset_signals = m_reset_signals.data();
  setup.reset_count = m_reset_signals.size();
  setup.parent = ::getpid();

  const std::int64_t start_ns = util::monotonic_ns();
  pid_t pid = -1;
  if (const int error = spawn(pid, static_cast<char*>(m_stack) + k_child_stack_bytes, setup); error != 0) {
    return spawn_failed(spawn_error(m_argv[0], error));
  }
  if (m_guardian != nullptr) {
    m_guardian->watch(pid);
  }
  InterruptGuard::set_running_group(pid);
  const unsigned stops_at_start = InterruptGuard::stops();
  fds.pidfd = open_pidfd(pid);
  // With a pidfd, ej keeps its own copy of the write ends until the child is reaped: the end of
  // the streams then cannot wake ej up on its own a moment before the exit does, which saves a
  // sleep and a wake-up per repeat, and once the child is reaped everything it wrote is in the
  // pipes already. Without one, the end of the streams is the fast signal.
  const bool hold_write_ends = fds.pidfd >= 0;
  if (!hold_write_ends) {
    Fds::close(fds.out[1]);
    Fds::close(fds.err[1]);
  }
  // While the child execs (hundreds of microseconds even for `true`, far longer than this takes):
  // tidy up after the previous repeat, and get the next one's pipes ready once this launcher is
  // clearly used for repeats. Nothing slower may go here: the child's wall time ends when ej
  // reaps it.
  close_retired();
  if (m_runs >= 2) {
    prepare_spare_pipes();
  }

  Supervisor supervisor(m_spec, pid, start_ns);
  CaptureBuffer out(m_spec.head_bytes, m_spec.tail_bytes);
  CaptureBuffer err(m_spec.head_bytes, m_spec.tail_bytes);
  if (m_spec.keep_whole_out) {
    out.keep_whole();
  }
  if (m_spec.keep_whole_err) {
    err.keep_whole();
  }
  // One read buffer for the process's lifetime: allocating (and faulting in) 1 MiB per repeat
  // would cost fast benchmarks more than the read itself.
  thread_local std::vector<char> buffer(k_read_chunk);

  // Reads once from a stream; closes it at end of file. True when it got data.
  const auto read_stream = [&](int& fd, Stream stream) {
    ssize_t n = 0;
    do {
      n = ::read(fd, buffer.data(), buffer.size());
    } while (n < 0 && errno == EINTR);
    if (n >= k_heavy_read && !pipes_large) {
      // Made large from here on, these included (what they hold fits). Not from the start: a
      // 1 MiB pipe costs the kernel an allocation per stream and repeat, while the benchmark runs,
      // and most benchmarks print a few lines.
      m_large_pipes = pipes_large = true;
      for (int read_end : {fds.out[0], fds.err[0]}) {
        if (read_end >= 0) {
          ::fcntl(read_end, F_SETPIPE_SZ, k_pipe_size);
        }
      }
    }
    if (n > 0) {
      const std::string_view chunk(buffer.data(), static_cast<std::size_t>(n));
      (stream == Stream::Out ? out : err).append(chunk);
      if (m_spec.echo) {
        echo(stream, chunk);
      }
      if (m_spec.on_output) {
        m_spec.on_output(stream, chunk);
      }
    } else if (n == 0 || errno != EAGAIN) {
      Fds::close(fd);
    }
    return n > 0;
  };

  while (true) {
    supervisor.try_reap();
    if (supervisor.reaped() && hold_write_ends && !supervisor.stopping()) {
      // Exited with nothing of its group left: all it wrote is in the pipes. Read that; whatever
      // comes later belongs to processes outside this run. The descriptors are closed while the
      // next repeat runs.
      for (auto [fd, stream] : {std::pair{&fds.out[0], Stream::Out}, std::pair{&fds.err[0], Stream::Err}}) {
        while (*fd >= 0 && read_stream(*fd, stream)) {
        }
      }
      for (int* fd : {&fds.out[0], &fds.out[1], &fds.err[0], &fds.err[1], &fds.pidfd}) {
        if (*fd >= 0) {
          m_retired.push_back(std::exchange(*fd, -1));
        }
      }
      break;
    }
    if (supervisor.reaped() && fds.out[1] >= 0) {
      Fds::close(fds.out[1]); // its leftovers are being stopped: the streams end when they are gone
      Fds::close(fds.err[1]);
    }
    const bool pipes_open = fds.out[0] >= 0 || fds.err[0] >= 0;
    if (supervisor.finished(pipes_open)) {
      break;
    }
    int wait_ms = supervisor.tick(pipes_open);
    std::array<pollfd, 4> polled{};
    nfds_t count = 0;
    const auto watch = [&](int fd) {
      if (fd >= 0) {
        polled[count++] = pollfd{fd, POLLIN, 0};
      }
    };
    watch(fds.out[0]);
    watch(fds.err[0]);
    if (!supervisor.reaped()) {
      if (fds.pidfd >= 0) {
        watch(fds.pidfd);
      } else {
        wait_ms = wait_ms < 0 ? k_exit_poll_ms : std::min(wait_ms, k_exit_poll_ms);
      }
    }
    const int wake = InterruptGuard::wake_fd();
    if (!supervisor.stopping()) {
      watch(wake);
    }
    if (supervisor.reaped() && !supervisor.stopping() && pipes_open) {
      wait_ms = 0; // drain what is already there, then finished() ends the loop
    }
    const int ready = ::poll(polled.data(), count, wait_ms);
    if (ready < 0 && errno != EINTR) {
      // Without poll ej cannot watch the child: stop it rather than report it as succeeded.
      const int error = errno;
      ::kill(-pid, SIGKILL);
      InterruptGuard::set_running_group(0);
      int status = 0;
      while (!supervisor.reaped() && ::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      return spawn_failed(fmt::format("lost track of '{}': poll failed: {}; the benchmark was stopped",
                                      m_argv[0], std::strerror(error)));
    }
    if (InterruptGuard::interrupted() && !supervisor.stopping()) {
      supervisor.stop_group(Ending::Interrupted);
    }
    bool got_data = false;
    for (nfds_t i = 0; i < count && ready > 0; ++i) {
      if ((polled[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) {
        continue;
      }
      if (polled[i].fd == fds.out[0]) {
        got_data |= read_stream(fds.out[0], Stream::Out);
      } else if (polled[i].fd == fds.err[0]) {
        got_data |= read_stream(fds.err[0], Stream::Err);
      }
    }
    if (supervisor.reaped() && !supervisor.stopping() && !got_data) {
      break; // drained: the rest belongs to processes outside this run
    }
  }

  InterruptGuard::set_running_group(0);
  // Its group is empty (or was sent SIGKILL): nothing left for the guardian. Without
  // kill_leftovers whatever stays is still stopped should ej die.
  if (m_guardian != nullptr && m_spec.kill_leftovers) {
    m_guardian->release();
  }
  ProcessResult result;
  supervisor.fill(result);
  result.stopped = InterruptGuard::stops() != stops_at_start;
  result.out = out.finish();
  result.err = err.finish();
  return result;
}

void Launcher::echo(Stream stream, std::string_view chunk)
{
  auto& target = stream == Stream::Out ? m_echo_out : m_echo_err;
  if (target == nullptr || target->write(chunk.data(), chunk.size()) == 0 || m_echo_dropped) {
    return;
  }
  m_echo_dropped = true;
  constexpr std::string_view note = "\nej: the output is not read fast enough; ej drops what does not fit "
                                    "rather than wait (the benchmark's output is still captured in full)\n";
  m_echo_err->write(note.data(), note.size());
}

ProcessResult run_process(const ProcessSpec& spec)
{
  Launcher launcher(spec);
  return launcher.run();
}

std::string describe(const ProcessResult& result)
{
  const auto signal_text = [](int signal) {
    const char* abbrev = ::sigabbrev_np(signal);
    return abbrev != nullptr ? fmt::format("SIG{}", abbrev) : fmt::format("signal {}", signal);
  };
  switch (result.ending) {
  case Ending::Exited:
    return fmt::format("exited with {}", result.exit_code);
  case Ending::Signaled:
    return fmt::format("killed by {}", signal_text(result.signal));
  case Ending::TimedOut:
    // The limit, as the user set it: the wall time also holds the stop and, on a loaded machine or
    // through srun, runs a little past it ("timed out after 1.1 s" for --timeout 1 reads as a bug).
    return fmt::format("timed out after {:.1f} s", result.limit_s > 0 ? result.limit_s : result.wall_s);
  case Ending::Interrupted:
    return result.error.empty() ? "interrupted" : result.error;
  case Ending::SpawnFailed:
    return result.error;
  }
  return "unknown";
}

} // namespace ej::run
