#include "support/pty_session.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

namespace ej::test {

namespace {

std::vector<std::string> pty_environment(const std::map<std::string, std::string>& extra)
{
  std::map<std::string, std::string> all{{"TERM", "xterm"}};
  for (const char* name : {"PATH", "HOME"}) {
    if (const char* value = std::getenv(name)) {
      all[name] = value;
    }
  }
  for (const auto& [key, value] : extra) {
    if (value.empty()) {
      all.erase(key);
    } else {
      all[key] = value;
    }
  }
  std::vector<std::string> out;
  for (const auto& [key, value] : all) {
    out.push_back(key + "=" + value);
  }
  return out;
}

// Everything the terminal receives until no process holds it open any more. The test keeps its own
// descriptor of the terminal until the child has exited (Linux answers EIO on a terminal nobody
// has open, which would end the reading before the child starts).
std::string drain(int master, int& slave, pid_t child, int& exit_code)
{
  std::string out;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  char buffer[4096];
  while (std::chrono::steady_clock::now() < deadline) {
    if (slave >= 0) {
      int status = 0;
      if (::waitpid(child, &status, WNOHANG) == child) {
        exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        ::close(slave);
        slave = -1;
      }
    }
    pollfd fd{master, POLLIN, 0};
    if (::poll(&fd, 1, 50) <= 0) {
      continue;
    }
    const auto n = ::read(master, buffer, sizeof buffer);
    if (n > 0) {
      out.append(buffer, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      if (slave < 0) {
        break; // EIO: the last writer (the child, or a pager it started) closed the terminal
      }
    }
  }
  return out;
}

} // namespace

PtyResult run_in_pty(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                     const std::map<std::string, std::string>& env)
{
  const int master = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0) {
    throw std::runtime_error("cannot open a pseudo-terminal");
  }
  int slave = ::open(::ptsname(master), O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (slave < 0) {
    ::close(master);
    throw std::runtime_error("cannot open the pseudo-terminal's other end");
  }
  winsize size{};
  size.ws_row = 24;
  size.ws_col = 80;
  ::ioctl(slave, TIOCSWINSZ, &size);
  auto environment = pty_environment(env);
  std::vector<std::string> args = argv;
  std::vector<char*> c_args;
  for (auto& arg : args) {
    c_args.push_back(arg.data());
  }
  c_args.push_back(nullptr);
  std::vector<char*> c_env;
  for (auto& entry : environment) {
    c_env.push_back(entry.data());
  }
  c_env.push_back(nullptr);
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(master);
    ::close(slave);
    throw std::runtime_error("cannot fork");
  }
  if (child == 0) {
    // Only async-signal-safe calls from here on.
    ::setsid();
    ::ioctl(slave, TIOCSCTTY, 0);
    ::dup2(slave, 0); // dup2 clears O_CLOEXEC on the copies
    ::dup2(slave, 1);
    ::dup2(slave, 2);
    if (::chdir(cwd.c_str()) != 0) {
      ::_exit(126);
    }
    ::execve(c_args[0], c_args.data(), c_env.data());
    ::_exit(127);
  }
  PtyResult result;
  result.output = drain(master, slave, child, result.exit_code);
  ::close(master);
  if (slave >= 0) { // the deadline passed
    ::close(slave);
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
  }
  return result;
}

} // namespace ej::test
