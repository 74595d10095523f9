#include "run/tool.h"

#include "run/run_cgroup.h"

#include "util/error.h"
#include "util/unique_fd.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ej::run {

Spawned spawn_piped(const std::vector<std::string>& argv, bool own_group)
{
  RunCgroup::wait_for_departures(); // not born in the last run's cgroup, to be stopped with it
  int ends[2] = {-1, -1};
  if (::pipe2(ends, O_CLOEXEC) != 0) {
    throw Error("cannot run {}: {}", argv.at(0), std::strerror(errno));
  }
  Spawned spawned;
  spawned.out = util::UniqueFd(ends[0]);
  util::UniqueFd write_end(ends[1]);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, write_end.get(), 1);
  posix_spawn_file_actions_adddup2(&actions, write_end.get(), 2);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  if (own_group) {
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
  }
  std::vector<char*> args;
  for (const auto& arg : argv) {
    args.push_back(const_cast<char*>(arg.c_str()));
  }
  args.push_back(nullptr);
  const int failed = ::posix_spawnp(&spawned.pid, args[0], &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (failed != 0) {
    spawned.pid = -1;
    spawned.error = fmt::format("cannot run {}: {}", argv[0], std::strerror(failed));
  }
  return spawned;
}

ToolResult run_tool(const std::vector<std::string>& argv)
{
  auto spawned = spawn_piped(argv, false);
  ToolResult result;
  if (spawned.pid < 0) {
    result.exit_code = 127;
    result.output = spawned.error;
    return result;
  }
  const pid_t pid = spawned.pid;
  const auto& read_end = spawned.out;
  char buffer[4096];
  while (true) {
    const auto got = ::read(read_end.get(), buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got <= 0) {
      break;
    }
    result.output.append(buffer, static_cast<std::size_t>(got));
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (result.exit_code == 127 && result.output.empty()) {
    result.output = fmt::format("{} is not installed (not found in PATH)", argv[0]);
  }
  return result;
}

} // namespace ej::run
