#include "cli/pager.h"

#include "cli/output.h"
#include "util/term.h"
#include "util/unique_fd.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace ej::cli {

namespace {

bool g_pager_disabled = false;

// The pager's process: at exit, stdout is flushed and closed (the pager sees the end of its
// input) and the pager is waited for, so that the shell prompt comes back after it.
class PagerProcess {
public:
  explicit PagerProcess(pid_t pid) : m_pid(pid) {}
  PagerProcess(const PagerProcess&) = delete;
  PagerProcess& operator=(const PagerProcess&) = delete;
  ~PagerProcess()
  {
    std::fflush(stdout);
    ::close(STDOUT_FILENO);
    int status = 0;
    while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
    }
  }

private:
  pid_t m_pid;
};

std::optional<PagerProcess>& running_pager()
{
  static std::optional<PagerProcess> pager;
  return pager;
}

// The environment of the pager: ej's, with git's defaults for less (and lv) unless set.
std::vector<std::string> pager_environment()
{
  std::vector<std::string> env;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    env.emplace_back(*entry);
  }
  if (std::getenv("LESS") == nullptr) {
    env.emplace_back("LESS=FRX");
  }
  if (std::getenv("LV") == nullptr) {
    env.emplace_back("LV=-c");
  }
  return env;
}

} // namespace

void disable_pager()
{
  g_pager_disabled = true;
}

std::optional<std::string> pager_command()
{
  const char* chosen = std::getenv("EJ_PAGER");
  if (chosen == nullptr) {
    chosen = std::getenv("PAGER");
  }
  const std::string command = chosen == nullptr ? "less" : chosen;
  if (command.find_first_not_of(" \t") == std::string::npos || command == "cat") {
    return std::nullopt;
  }
  return command;
}

void page_output()
{
  if (g_pager_disabled || running_pager() || !util::is_terminal(STDOUT_FILENO) || util::is_dumb_terminal()) {
    return;
  }
  const auto command = pager_command();
  if (!command) {
    return;
  }
  stdout_colour(); // decided while stdout is still the terminal
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    return; // no pager, the output goes to the terminal as it is
  }
  util::UniqueFd read_end(fds[0]);
  util::UniqueFd write_end(fds[1]);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, read_end.get(), STDIN_FILENO);
  std::vector<std::string> argv{"/bin/sh", "-c", *command};
  auto env = pager_environment();
  std::vector<char*> c_argv;
  for (auto& arg : argv) {
    c_argv.push_back(arg.data());
  }
  c_argv.push_back(nullptr);
  std::vector<char*> c_env;
  for (auto& entry : env) {
    c_env.push_back(entry.data());
  }
  c_env.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, "/bin/sh", &actions, nullptr, c_argv.data(), c_env.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    return;
  }
  std::fflush(stdout);
  ::dup2(write_end.get(), STDOUT_FILENO);
  running_pager().emplace(pid);
}

} // namespace ej::cli
