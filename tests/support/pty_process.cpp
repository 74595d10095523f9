#include "support/pty_process.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <poll.h>
#include <pty.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace ej::test {

PtyProcess::PtyProcess(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                       const std::map<std::string, std::string>& env)
{
  // Everything the child needs is made before the fork: only async-signal-safe calls after it.
  std::vector<std::string> args = argv;
  std::vector<char*> c_args;
  for (auto& arg : args) {
    c_args.push_back(arg.data());
  }
  c_args.push_back(nullptr);
  std::vector<std::string> entries;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text = *entry;
    if (env.find(text.substr(0, text.find('='))) == env.end()) {
      entries.push_back(text);
    }
  }
  for (const auto& [key, value] : env) {
    entries.push_back(key + "=" + value);
  }
  std::vector<char*> c_env;
  for (auto& entry : entries) {
    c_env.push_back(entry.data());
  }
  c_env.push_back(nullptr);
  winsize size{};
  size.ws_row = 24;
  size.ws_col = 80;
  m_pid = ::forkpty(&m_master, nullptr, nullptr, &size);
  if (m_pid < 0) {
    throw std::runtime_error(std::string("forkpty: ") + std::strerror(errno));
  }
  if (m_pid == 0) {
    if (::chdir(cwd.c_str()) != 0) {
      ::_exit(126);
    }
    ::execve(c_args[0], c_args.data(), c_env.data());
    ::_exit(127);
  }
}

PtyProcess::~PtyProcess()
{
  if (!m_reaped && m_pid > 0) {
    ::kill(m_pid, SIGKILL);
    wait();
  }
  if (m_master >= 0) {
    ::close(m_master);
  }
}

bool PtyProcess::wait_for_output(const std::string& text, double seconds)
{
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  char buffer[4096];
  while (m_output.find(text) == std::string::npos) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0 || m_master < 0) {
      return false;
    }
    pollfd ready{m_master, POLLIN, 0};
    if (::poll(&ready, 1, static_cast<int>(left.count())) <= 0) {
      continue;
    }
    const ssize_t n = ::read(m_master, buffer, sizeof buffer);
    if (n > 0) {
      m_output.append(buffer, static_cast<std::size_t>(n));
    } else if (!(n < 0 && errno == EINTR)) {
      return m_output.find(text) != std::string::npos; // EIO: nothing holds the terminal any more
    }
  }
  return true;
}

void PtyProcess::hang_up()
{
  if (m_master >= 0) {
    ::close(m_master);
    m_master = -1;
  }
}

int PtyProcess::wait()
{
  int status = 0;
  while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
  }
  m_reaped = true;
  return status;
}

} // namespace ej::test
