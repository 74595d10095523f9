#include "support/pty.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <pty.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace ej::test {

PtyResult run_in_pty(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                     const std::map<std::string, std::string>& env, unsigned short columns)
{
  // Everything the child needs is made before the fork: only async-signal-safe calls after it.
  std::vector<std::string> args = argv;
  std::vector<char*> c_args;
  for (auto& arg : args) {
    c_args.push_back(arg.data());
  }
  c_args.push_back(nullptr);
  winsize size{};
  size.ws_row = 40;
  size.ws_col = columns;
  int master = -1;
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, &size);
  if (pid < 0) {
    throw std::runtime_error(std::string("forkpty: ") + std::strerror(errno));
  }
  if (pid == 0) {
    if (::chdir(cwd.c_str()) != 0) {
      ::_exit(126);
    }
    for (const auto& [key, value] : env) {
      ::setenv(key.c_str(), value.c_str(), 1);
    }
    ::execvp(c_args[0], c_args.data());
    ::_exit(127);
  }
  PtyResult result;
  char buffer[4096];
  while (true) {
    const ssize_t n = ::read(master, buffer, sizeof buffer);
    if (n > 0) {
      result.output.append(buffer, static_cast<std::size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break; // EIO: the child and everything holding the terminal are gone
    }
  }
  ::close(master);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

PtyResult run_ej_in_pty(const std::filesystem::path& cwd, const std::vector<std::string>& args,
                        const std::map<std::string, std::string>& env)
{
  std::vector<std::string> argv = {EJ_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_in_pty(argv, cwd, env);
}

} // namespace ej::test
