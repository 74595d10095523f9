#include "cli/detach.h"

#include "core/numbering.h"
#include "run/detach.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/time.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ej::cli {

namespace {

constexpr int k_report_fd = 3; // the background ej's end of the pipe
constexpr const char* k_fd_variable = "EJ_DETACH_FD";
constexpr const char* k_log_variable = "EJ_DETACH_LOG";

std::string read_all(int fd)
{
  std::string text;
  char buffer[256];
  while (true) {
    const auto got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got <= 0) {
      return text;
    }
    text.append(buffer, static_cast<std::size_t>(got));
  }
}

} // namespace

std::filesystem::path run_log_path(const Workspace& workspace, int run)
{
  return workspace.ej_dir / "runs" / fmt::format("{}.log", run);
}

std::filesystem::path cancel_request_path(const Workspace& workspace, int run)
{
  return workspace.ej_dir / "runs" / fmt::format("{}.cancel", run);
}

void start_detached_run(const Workspace& workspace)
{
  std::error_code ec;
  std::filesystem::create_directories(workspace.ej_dir / "runs", ec);
  const auto log =
      workspace.ej_dir / "runs" / fmt::format("starting-{}-{}.log", ::getpid(), util::monotonic_ns());
  auto argv = run::own_arguments();
  if (argv.empty()) {
    throw Error("cannot read ej's own command line (/proc/self/cmdline)");
  }
  argv[0] = run::own_executable().string();
  argv.erase(std::remove(argv.begin() + 1, argv.end(), "--detach"), argv.end());
  auto started = run::start_detached(
      argv, log, {{k_fd_variable, std::to_string(k_report_fd)}, {k_log_variable, log.string()}}, k_report_fd);
  const auto said = read_all(started.report.get());
  int run = 0;
  std::from_chars(said.data(), said.data() + said.size(), run);
  if (run > 0) {
    fmt::print("run {} started in the background (pid {})\n", core::number_label(run), started.pid);
    fmt::print(
        stderr,
        "ej: its output goes to {}\nej: follow it with 'ej show run {} --follow', wait for it with 'ej "
        "wait {}', stop it with 'ej cancel {}'\n",
        run_log_path(workspace, run).string(), run, run, run);
    return; // the background ej is init's to reap
  }
  // It ended before recording a run: what it said is the error.
  int status = 0;
  while (::waitpid(started.pid, &status, 0) < 0 && errno == EINTR) {
  }
  const auto text = util::read_file(log).value_or("");
  std::filesystem::remove(log, ec);
  fmt::print(stderr, "{}", text);
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  throw ExitCode{code == 0 ? 1 : code};
}

DetachedReport DetachedReport::from_environment()
{
  DetachedReport report;
  const char* fd = std::getenv(k_fd_variable);
  const char* log = std::getenv(k_log_variable);
  if (fd != nullptr && log != nullptr) {
    report.m_fd = std::atoi(fd);
    report.m_log = log;
    ::fcntl(report.m_fd, F_SETFD, FD_CLOEXEC); // the benchmarks and probes must not hold it open
  }
  ::unsetenv(k_fd_variable);
  ::unsetenv(k_log_variable);
  return report;
}

void DetachedReport::run_recorded(const Workspace& workspace, int run)
{
  if (!active()) {
    return;
  }
  std::error_code ec;
  std::filesystem::rename(m_log, run_log_path(workspace, run), ec); // the open descriptors follow
  const auto text = fmt::format("{}\n", run);
  [[maybe_unused]] const auto written = ::write(m_fd, text.data(), text.size());
  ::close(m_fd);
  m_fd = -1;
}

} // namespace ej::cli
