#include "run/run_cgroup.h"

#include "run/guardian.h"
#include "run/owner.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <optional>
#include <pthread.h>
#include <string_view>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>

namespace ej::run {

namespace {

constexpr int k_empty_wait_steps = 100; // of 20 ms: SIGKILLed processes are gone well before 2 s

// `directory` + `name` into `out` (of `size` bytes); false when it does not fit.
bool join_path(char* out, std::size_t size, const char* directory, const char* name) noexcept
{
  const std::size_t a = std::strlen(directory);
  const std::size_t b = std::strlen(name);
  if (a + b + 1 > size) {
    return false;
  }
  std::memcpy(out, directory, a);
  std::memcpy(out + a, name, b + 1);
  return true;
}

// Calls `each(pid)` for every pid in `directory`/cgroup.procs but `except`; returns how many, or
// -1 when the file cannot be read.
template <typename Each> int for_each_process(const char* directory, pid_t except, Each each) noexcept
{
  char path[4200];
  if (!join_path(path, sizeof path, directory, "/cgroup.procs")) {
    return -1;
  }
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return -1;
  }
  int count = 0;
  long pid = -1; // -1: between numbers
  char buffer[4096];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    for (ssize_t i = 0; i <= n; ++i) {
      const bool digit = i < n && buffer[i] >= '0' && buffer[i] <= '9';
      if (digit) {
        pid = (pid < 0 ? 0 : pid * 10) + (buffer[i] - '0');
      } else if (pid >= 0 && (i < n || n <= 0)) {
        if (static_cast<pid_t>(pid) != except) {
          each(static_cast<pid_t>(pid));
          ++count;
        }
        pid = -1;
      }
    }
    if (n <= 0) {
      break;
    }
  }
  ::close(fd);
  return count;
}

bool write_text(const char* path, const char* text) noexcept
{
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    return false;
  }
  const std::size_t size = std::strlen(text);
  ssize_t n = -1;
  do {
    n = ::write(fd, text, size);
  } while (n < 0 && errno == EINTR);
  const int error = errno;
  ::close(fd);
  errno = error;
  return n == static_cast<ssize_t>(size);
}

// SIGKILL to `pid` if it is still in the cgroup at `directory`: through a pidfd, which holds the
// process the list named, so that a pid that exits and is reused meanwhile is not killed in its
// stead (a child of the new process born in the cgroup is the cgroup's, and killed rightly).
void kill_if_inside(pid_t pid, const char* directory) noexcept
{
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (pidfd < 0) {
    if (errno == ENOSYS) {
      ::kill(pid, SIGKILL); // Linux before 5.3: as before pidfds
    }
    return; // ESRCH: gone already
  }
  bool listed = false;
  for_each_process(directory, 0, [&listed, pid](pid_t inside) { listed = listed || inside == pid; });
  if (listed) {
    ::syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, nullptr, 0);
  }
  ::close(pidfd);
}

// Kills what `directory` holds but `except` (the ej still inside when it could not move out), and
// waits for it to be empty of them. Returns how many there were at first.
int kill_all_inside(const char* directory, pid_t except) noexcept
{
  const int found = for_each_process(directory, except, [](pid_t) {});
  if (found <= 0) {
    return found < 0 ? 0 : found;
  }
  char kill_path[4200];
  // cgroup.kill (Linux 5.14) reaches processes forking as it runs; a sweep of the list may not.
  const bool killed_at_once = except == 0 &&
                              join_path(kill_path, sizeof kill_path, directory, "/cgroup.kill") &&
                              write_text(kill_path, "1");
  const timespec step{0, 20'000'000};
  for (int i = 0; i < k_empty_wait_steps; ++i) {
    const int left = for_each_process(directory, except, [killed_at_once, directory](pid_t pid) {
      if (!killed_at_once) {
        kill_if_inside(pid, directory);
      }
    });
    if (left <= 0) {
      break;
    }
    ::nanosleep(&step, nullptr);
  }
  return found;
}

// Undoes the \ooo escapes of /proc/self/mountinfo (a space is \040).
std::string unescape_mount_field(const std::string& field)
{
  std::string out;
  for (std::size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 3 < field.size()) {
      const std::string digits = field.substr(i + 1, 3);
      if (digits.find_first_not_of("01234567") == std::string::npos) {
        out += static_cast<char>(std::stoi(digits, nullptr, 8));
        i += 3;
        continue;
      }
    }
    out += field[i];
  }
  return out;
}

// Where the cgroup2 hierarchy is mounted, and the root of it that mount shows; empty when none.
std::pair<std::string, std::string> cgroup2_mount()
{
  std::ifstream mounts("/proc/self/mountinfo");
  for (std::string line; std::getline(mounts, line);) {
    const auto dash = line.find(" - ");
    if (dash == std::string::npos || line.compare(dash + 3, 8, "cgroup2 ") != 0) {
      continue;
    }
    // id parent major:minor root mount-point ...
    std::size_t field_start = 0;
    std::string fields[5];
    for (auto& field : fields) {
      const auto end = line.find(' ', field_start);
      field = line.substr(field_start, end - field_start);
      field_start = end == std::string::npos ? line.size() : end + 1;
    }
    return {unescape_mount_field(fields[4]), unescape_mount_field(fields[3])};
  }
  return {};
}

// ej's cgroup in the v2 hierarchy ("0::/path" in /proc/self/cgroup); empty when it has none.
std::string own_cgroup()
{
  std::ifstream groups("/proc/self/cgroup");
  for (std::string line; std::getline(groups, line);) {
    if (line.starts_with("0::")) {
      return line.substr(3);
    }
  }
  return {};
}

// ej's way home from a run's cgroup while it goes on writing the run (RunCgroup::leave_in_background):
// one helper thread at a time, waited for before the next run's cgroup is entered and at exit.
class Departure {
public:
  ~Departure() { wait(); }

  // False when no thread could be started: the caller leaves the cgroup itself.
  bool start(std::string home_procs, std::string directory)
  {
    wait();
    m_home_procs = std::move(home_procs);
    m_directory = std::move(directory);
    m_pid_text = std::to_string(::getpid());
    // Signals stay with ej's main thread (its handlers wake the run loop there).
    sigset_t all;
    sigset_t previous;
    sigfillset(&all);
    ::pthread_sigmask(SIG_BLOCK, &all, &previous);
    const bool started = ::pthread_create(&m_thread, nullptr, &Departure::run, this) == 0;
    ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    if (started) {
      m_owner = ::getpid();
    }
    return started;
  }

  void wait() noexcept
  {
    // A process forked since (a detached run) has the memory of this object, not the thread.
    if (m_owner != 0 && m_owner == ::getpid()) {
      ::pthread_join(m_thread, nullptr);
    }
    m_owner = 0;
  }

private:
  static void* run(void* self) noexcept
  {
    auto* departure = static_cast<Departure*>(self);
    if (write_text(departure->m_home_procs.c_str(), departure->m_pid_text.c_str())) {
      stop_cgroup(departure->m_directory.c_str()); // what forked while ej stopped the rest
      if (Guardian* guardian = Guardian::instance(); guardian != nullptr) {
        guardian->release_cgroup();
      }
      return nullptr;
    }
    // ej is still inside (its home refused it since): what it starts from now on is born there,
    // and the guardian removes the cgroup once ej is gone, as for leave(). Said, not silent.
    char message[512];
    const int size = std::snprintf(message, sizeof message,
                                   "ej: warning: cannot move back out of the run's cgroup %s (%s); what ej "
                                   "starts from now on runs inside it and is stopped when ej exits\n",
                                   departure->m_directory.c_str(), std::strerror(errno));
    if (size > 0) {
      (void)!::write(STDERR_FILENO, message,
                     std::min<std::size_t>(static_cast<std::size_t>(size), sizeof message - 1));
    }
    return nullptr;
  }

  pthread_t m_thread{};
  pid_t m_owner = 0; // the process that started the thread; 0: none to wait for
  std::string m_home_procs;
  std::string m_directory;
  std::string m_pid_text;
};

// Made by the first leave_in_background, never before: after the guardian (which enter() makes),
// so that at exit it is destroyed first and its thread has brought ej home before ~Guardian tells
// the guardian ej is gone, which would stop the cgroup with ej still inside.
Departure* g_departure = nullptr;

Departure& departure()
{
  Guardian::instance(); // (made already by enter(); called for the order of the two statics)
  static Departure instance;
  g_departure = &instance;
  return instance;
}

// The owner of a run cgroup, from its name: "ej-run-<pid>-<start ticks>" (or "ej-run-<pid>", as an
// older ej named it); nullopt for any other name.
struct CgroupOwner {
  std::int64_t pid = 0;
  std::optional<std::uint64_t> start_ticks;
};

std::optional<CgroupOwner> owner_of(std::string_view name)
{
  constexpr std::string_view prefix = "ej-run-";
  if (!name.starts_with(prefix)) {
    return std::nullopt;
  }
  name.remove_prefix(prefix.size());
  CgroupOwner owner;
  const auto [pid_end, pid_error] = std::from_chars(name.data(), name.data() + name.size(), owner.pid);
  if (pid_error != std::errc() || owner.pid <= 0) {
    return std::nullopt;
  }
  name.remove_prefix(static_cast<std::size_t>(pid_end - name.data()));
  if (name.empty()) {
    return owner;
  }
  std::uint64_t ticks = 0;
  const auto [ticks_end, ticks_error] = std::from_chars(name.data() + 1, name.data() + name.size(), ticks);
  if (name.front() != '-' || ticks_error != std::errc() || ticks_end != name.data() + name.size()) {
    return std::nullopt;
  }
  owner.start_ticks = ticks;
  return owner;
}

// The subdirectories (cgroups) of a cgroup directory.
std::vector<std::string> children_of(const std::string& directory)
{
  std::vector<std::string> names;
  DIR* dir = ::opendir(directory.c_str());
  if (dir == nullptr) {
    return names;
  }
  while (const dirent* entry = ::readdir(dir)) {
    const std::string_view name = entry->d_name;
    if (entry->d_type == DT_DIR && name != "." && name != "..") {
      names.emplace_back(name);
    }
  }
  ::closedir(dir);
  return names;
}

// Stops a cgroup and every cgroup below it (an ej run by a benchmark makes its own inside), the
// deepest first, since only an empty cgroup can be removed. Returns how many processes they held.
int stop_cgroup_tree(const std::string& directory)
{
  int stopped = 0;
  for (const auto& child : children_of(directory)) {
    stopped += stop_cgroup_tree(directory + "/" + child);
  }
  return stopped + stop_cgroup(directory.c_str());
}

int stop_abandoned_under(const std::string& directory, bool deep, const std::string& boot)
{
  int stopped = 0;
  for (const auto& child : children_of(directory)) {
    const auto path = directory + "/" + child;
    if (const auto owner = owner_of(child)) {
      if (owner_state(owner->pid, owner->start_ticks, boot) == OwnerState::Gone) {
        stopped += stop_cgroup_tree(path);
      }
    } else if (deep) {
      stopped += stop_abandoned_under(path, true, boot);
    }
  }
  return stopped;
}

// ej's cgroup directory in the mounted hierarchy, and the hierarchy's mount point; empty with
// why_not said when there is none.
std::pair<std::string, std::string> home_cgroup(std::string& why_not)
{
  const auto [mount_point, mount_root] = cgroup2_mount();
  auto own = own_cgroup();
  if (mount_point.empty() || own.empty()) {
    why_not = "this machine has no cgroup2 hierarchy";
    return {};
  }
  // Seen from a mount of part of the hierarchy, ej's cgroup is below that part's root.
  if (mount_root != "/") {
    if (!own.starts_with(mount_root)) {
      why_not = fmt::format("ej's cgroup {} is not under the mounted {}", own, mount_root);
      return {};
    }
    own = own.substr(mount_root.size());
  }
  return {mount_point + (own == "/" ? "" : own), mount_point};
}

} // namespace

int stop_abandoned_cgroups()
{
  std::string why_not;
  const auto mount_point = home_cgroup(why_not).second;
  return mount_point.empty() ? 0 : stop_abandoned_under(mount_point, true, boot_id());
}

int stop_cgroup(const char* directory) noexcept
{
  const int found = kill_all_inside(directory, 0);
  ::rmdir(directory);
  return found;
}

std::unique_ptr<RunCgroup> RunCgroup::enter(std::string& why_not)
{
  wait_for_departures(); // home first: the last run's helper must not move ej out of this one
  if (const char* setting = std::getenv("EJ_CGROUP");
      setting != nullptr && std::strcmp(setting, "off") == 0) {
    why_not = "EJ_CGROUP=off";
    return nullptr;
  }
  const auto home = home_cgroup(why_not).first;
  if (home.empty()) {
    return nullptr;
  }
  // The runs of an ej killed with its guardian (whose job it was) are stopped by the next.
  stop_abandoned_under(home, false, boot_id());
  const auto start_ticks = process_start_ticks(::getpid());
  const std::string directory = fmt::format("{}/ej-run-{}-{}", home, ::getpid(), start_ticks.value_or(0));
  // Made before the move, so that no process ej starts from here on is outside its reach.
  Guardian* guardian = Guardian::instance();
  if (::mkdir(directory.c_str(), 0755) != 0) {
    why_not = fmt::format("cannot make a cgroup in {}: {}", home, std::strerror(errno));
    return nullptr;
  }
  std::unique_ptr<RunCgroup> cgroup(new RunCgroup(directory, home + "/cgroup.procs"));
  if (guardian != nullptr) {
    guardian->watch_cgroup(directory.c_str());
  }
  if (!write_text((directory + "/cgroup.procs").c_str(), std::to_string(::getpid()).c_str())) {
    why_not = fmt::format("cannot move into a cgroup of {}: {}", home, std::strerror(errno));
    cgroup->m_left = true;
    if (guardian != nullptr) {
      guardian->release_cgroup();
    }
    ::rmdir(directory.c_str());
    return nullptr;
  }
  return cgroup;
}

RunCgroup::RunCgroup(std::string directory, std::string home_procs)
    : m_directory(std::move(directory)), m_home_procs(std::move(home_procs))
{
}

RunCgroup::~RunCgroup()
{
  if (!m_left) {
    leave();
  }
}

int RunCgroup::leave()
{
  m_left = true;
  if (!write_text(m_home_procs.c_str(), std::to_string(::getpid()).c_str())) {
    // Still inside: stop the others; the cgroup goes with ej, through its guardian.
    return kill_all_inside(m_directory.c_str(), ::getpid());
  }
  const int left_behind = stop_cgroup(m_directory.c_str());
  if (Guardian* guardian = Guardian::instance(); guardian != nullptr) {
    guardian->release_cgroup();
  }
  return left_behind;
}

int RunCgroup::leave_in_background()
{
  // Stopped one by one (cgroup.kill would stop ej too) and counted now; what a leftover forks
  // meanwhile is stopped by the helper's cgroup.kill once ej is out.
  const int left_behind = kill_all_inside(m_directory.c_str(), ::getpid());
  m_left = true;
  if (!departure().start(m_home_procs, m_directory)) {
    m_left = false;
    leave(); // what forked meanwhile: not counted, as above
  }
  return left_behind;
}

int RunCgroup::stop_others() noexcept
{
  return kill_all_inside(m_directory.c_str(), ::getpid());
}

void RunCgroup::wait_for_departures() noexcept
{
  if (g_departure != nullptr) {
    g_departure->wait();
  }
}

} // namespace ej::run

namespace ej::run {

RunContainment::RunContainment()
{
  std::string why_not; // not said: without a cgroup the environment marker still finds most
  m_cgroup = RunCgroup::enter(why_not);
}

Leftovers RunContainment::sweep()
{
  if (m_cgroup) {
    return {m_cgroup->stop_others(), "cgroup"};
  }
  const Guardian* guardian = Guardian::instance();
  return {guardian != nullptr ? guardian->stop_escaped() : 0, "environment"};
}

Leftovers RunContainment::finish()
{
  if (!m_cgroup) {
    return sweep();
  }
  const int processes = m_cgroup->leave_in_background();
  m_cgroup.reset();
  return {processes, "cgroup"};
}

} // namespace ej::run
