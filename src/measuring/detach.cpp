#include "measuring/detach.h"

#include "core/numbering.h"
#include "run/detach.h"
#include "run/owner.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/strings.h"
#include "util/time.h"
#include "util/ulid.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <poll.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace ej::measuring {

namespace {

constexpr int k_report_fd = 3; // the background ej's end of the pipe
constexpr const char* k_fd_variable = "EJ_DETACH_FD";
constexpr const char* k_log_variable = "EJ_DETACH_LOG";
constexpr std::string_view k_accepted = "accepted\n";

// What the background ej wrote before it closed its end; nullopt when `within_s` (0: no limit)
// passed first.
std::optional<std::string> read_report(int fd, double within_s)
{
  const auto deadline = util::monotonic_ns() + static_cast<std::int64_t>(within_s * 1e9);
  std::string text;
  char buffer[256];
  while (true) {
    if (within_s > 0) {
      const auto left_ms = (deadline - util::monotonic_ns()) / 1'000'000;
      pollfd ready{fd, POLLIN, 0};
      const int got = left_ms > 0 ? ::poll(&ready, 1, static_cast<int>(left_ms)) : 0;
      if (got < 0 && errno == EINTR) {
        continue;
      }
      if (got == 0) {
        return std::nullopt;
      }
    }
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

std::filesystem::path runs_dir(const Workspace& workspace)
{
  return workspace.ej_dir / "runs";
}

// ej/runs/@k3f9qx.pending: the note of a run accepted and not recorded yet.
std::filesystem::path pending_note_path(const Workspace& workspace, const std::string& name)
{
  return runs_dir(workspace) / (name + ".pending");
}

std::filesystem::path provisional_log_path(const Workspace& workspace, const std::string& name)
{
  return runs_dir(workspace) / (name + ".log");
}

// The last thing an ej said before it ended: its error, as main prints it.
std::string last_error(const std::filesystem::path& log)
{
  const auto text = util::read_file(log).value_or("");
  std::istringstream lines(text);
  std::string last;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("ej: error: ", 0) == 0) {
      last = line.substr(11);
    }
  }
  return last;
}

// The note that a run is being prepared: its ej's pid, with what tells that pid from a later one.
void write_pending_note(const Workspace& workspace, const std::string& name, const std::string& run_id,
                        pid_t pid)
{
  const nlohmann::json note = {{"run_id", run_id},
                               {"pid", pid},
                               {"start_ticks", run::process_start_ticks(pid).value_or(0)},
                               {"boot_id", run::boot_id()}};
  util::write_file_atomic(pending_note_path(workspace, name), note.dump() + "\n");
}

} // namespace

std::filesystem::path run_log_path(const Workspace& workspace, const core::RunRecord& run)
{
  if (!core::is_provisional(run.number)) {
    const auto numbered = runs_dir(workspace) / fmt::format("{}.log", run.number);
    std::error_code ec;
    if (std::filesystem::exists(numbered, ec)) {
      return numbered;
    }
  }
  return provisional_log_path(workspace, core::number_label(core::provisional_number(run.id)));
}

std::filesystem::path cancel_request_path(const Workspace& workspace, int run)
{
  return runs_dir(workspace) / fmt::format("{}.cancel", run);
}

DetachedStart start_detached_run(const Workspace& workspace)
{
  auto arguments = run::own_arguments();
  if (arguments.empty()) {
    throw Error("cannot read ej's own command line (/proc/self/cmdline)");
  }
  arguments.erase(arguments.begin());
  arguments.erase(std::remove(arguments.begin(), arguments.end(), "--detach"), arguments.end());
  return start_detached_run(workspace, arguments, 0);
}

DetachedStart start_detached_run(const Workspace& workspace, const std::vector<std::string>& arguments,
                                 double within_s)
{
  std::error_code ec;
  std::filesystem::create_directories(runs_dir(workspace), ec);
  const auto id = util::make_ulid(util::now_ms());
  const auto name = core::number_label(core::provisional_number(id));
  const auto log = provisional_log_path(workspace, name);
  std::vector<std::string> argv{run::own_executable().string()};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  // After "run": an option, whatever follows (a `--` would end the options there); `calibrate`
  // takes no `--`, so at its end.
  const auto run_word = std::find(argv.begin() + 1, argv.end(), "run");
  argv.insert(run_word == argv.end() ? argv.end() : run_word + 1, {"--run-id", id});
  auto started = run::start_detached(
      argv, log, {{k_fd_variable, std::to_string(k_report_fd)}, {k_log_variable, log.string()}}, k_report_fd);
  DetachedStart result;
  result.name = name;
  result.pid = started.pid;
  result.log = log;
  const auto report = read_report(started.report.get(), within_s);
  if (!report) {
    // Still checking the command line (a journal another writer holds, say): the run is left to it,
    // and noted as being prepared so that ej wait follows it from here and says how it ended.
    write_pending_note(workspace, name, id, started.pid);
    result.accepted = true;
    result.still_checking = true;
    return result;
  }
  if (*report == k_accepted) {
    result.accepted = true;
    return result; // the background ej is init's to reap
  }
  // It ended before accepting the command line: what it said is the error.
  int status = 0;
  while (::waitpid(started.pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.said = util::read_file(log).value_or("");
  std::filesystem::remove(log, ec);
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.exit_code = code == 0 ? 1 : code;
  return result;
}

std::optional<PendingRun> pending_run(const Workspace& workspace, int provisional_number)
{
  if (!core::is_provisional(provisional_number)) {
    return std::nullopt;
  }
  PendingRun pending;
  pending.name = core::number_label(provisional_number);
  const auto text = util::read_file(pending_note_path(workspace, pending.name));
  if (!text) {
    return std::nullopt;
  }
  const auto note = nlohmann::json::parse(*text, nullptr, false);
  if (!note.is_object()) {
    return std::nullopt;
  }
  pending.pid = static_cast<pid_t>(note.value("pid", 0));
  const auto ticks = note.value("start_ticks", std::uint64_t{0});
  pending.alive =
      pending.pid > 0 && run::owner_state(pending.pid, ticks == 0 ? std::nullopt : std::optional(ticks),
                                          note.value("boot_id", "")) == run::OwnerState::Running;
  pending.log = provisional_log_path(workspace, pending.name);
  if (!pending.alive) {
    pending.error = last_error(pending.log);
    if (pending.error.empty()) {
      pending.error = fmt::format("its ej (pid {}) ended without saying why (killed?)", pending.pid);
    }
  }
  return pending;
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

void DetachedReport::accepted(const Workspace& workspace, const std::string& run_id)
{
  if (!active()) {
    return;
  }
  const auto name = core::number_label(core::provisional_number(run_id));
  m_note = pending_note_path(workspace, name);
  write_pending_note(workspace, name, run_id, ::getpid());
  // A starter that stopped waiting (its bound passed) has closed its end: EPIPE, not SIGPIPE's death.
  struct sigaction ignore {};
  struct sigaction before {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &before);
  [[maybe_unused]] const auto written = ::write(m_fd, k_accepted.data(), k_accepted.size());
  ::sigaction(SIGPIPE, &before, nullptr);
  ::close(m_fd);
  m_fd = -1;
}

void DetachedReport::run_recorded(const Workspace& workspace, int run)
{
  if (m_note.empty()) {
    return;
  }
  std::error_code ec;
  if (!core::is_provisional(run)) {
    std::filesystem::rename(m_log, runs_dir(workspace) / fmt::format("{}.log", run),
                            ec); // open descriptors follow
  }
  std::filesystem::remove(m_note, ec);
  m_note.clear();
}

} // namespace ej::measuring
