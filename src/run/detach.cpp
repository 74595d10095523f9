#include "run/detach.h"

#include "util/error.h"
#include "util/fs.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

extern char** environ;

namespace ej::run {

DetachedProcess start_detached(const std::vector<std::string>& argv, const std::filesystem::path& log,
                               const std::vector<std::pair<std::string, std::string>>& env, int report_fd)
{
  if (argv.empty()) {
    throw Error("nothing to start in the background");
  }
  util::UniqueFd log_fd(::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644));
  if (!log_fd) {
    throw Error("cannot create the log {}: {}", log.string(), std::strerror(errno));
  }
  util::UniqueFd null_fd(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  int ends[2] = {-1, -1};
  if (!null_fd || ::pipe2(ends, O_CLOEXEC) != 0) {
    throw Error("cannot start a background process: {}", std::strerror(errno));
  }
  util::UniqueFd read_end(ends[0]);
  util::UniqueFd write_end(ends[1]);

  // Everything the child needs is made before fork: after it, only async-signal-safe calls.
  std::vector<std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const auto name = text.substr(0, text.find('='));
    bool replaced = false;
    for (const auto& [key, value] : env) {
      replaced = replaced || key == name;
    }
    if (!replaced) {
      environment.emplace_back(text);
    }
  }
  for (const auto& [key, value] : env) {
    environment.push_back(key + "=" + value);
  }
  std::vector<char*> argv_pointers;
  for (const auto& arg : argv) {
    argv_pointers.push_back(const_cast<char*>(arg.c_str()));
  }
  argv_pointers.push_back(nullptr);
  std::vector<char*> env_pointers;
  for (const auto& entry : environment) {
    env_pointers.push_back(const_cast<char*>(entry.c_str()));
  }
  env_pointers.push_back(nullptr);

  const pid_t pid = ::fork();
  if (pid < 0) {
    throw Error("cannot start a background process: {}", std::strerror(errno));
  }
  if (pid == 0) {
    ::setsid();
    // dup2 clears close-on-exec on the copies; the originals close at exec.
    if (::dup2(null_fd.get(), 0) < 0 || ::dup2(log_fd.get(), 1) < 0 || ::dup2(log_fd.get(), 2) < 0 ||
        ::dup2(write_end.get(), report_fd) < 0) {
      ::_exit(127);
    }
    if (write_end.get() == report_fd) { // dup2 onto itself keeps close-on-exec
      ::fcntl(report_fd, F_SETFD, 0);
    }
    ::execve(argv_pointers[0], argv_pointers.data(), env_pointers.data());
    const char message[] = "ej: cannot start the background ej\n";
    [[maybe_unused]] const auto written = ::write(2, message, sizeof message - 1);
    ::_exit(127);
  }
  DetachedProcess started;
  started.pid = pid;
  started.report = std::move(read_end);
  return started;
}

std::filesystem::path own_executable()
{
  std::error_code ec;
  auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) {
    throw Error("cannot find ej's own program (/proc/self/exe): {}", ec.message());
  }
  return path;
}

std::vector<std::string> own_arguments()
{
  const auto text = util::read_file("/proc/self/cmdline").value_or("");
  std::vector<std::string> args;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto end = text.find('\0', start);
    args.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) {
      break;
    }
    start = end + 1;
  }
  return args;
}

} // namespace ej::run
