#include "measuring/live_runs.h"

#include "core/numbering.h"
#include "measuring/stale_runs.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/time.h"
#include "util/unique_fd.h"

#include <fmt/format.h>

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <pwd.h>
#include <thread>
#include <unistd.h>

namespace ej::measuring {

namespace {

constexpr auto k_live_poll = std::chrono::milliseconds(100);

double seconds_since_start(std::chrono::steady_clock::time_point start)
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string user_name()
{
  if (const auto* entry = ::getpwuid(::getuid())) {
    return entry->pw_name;
  }
  return fmt::format("uid {}", ::getuid());
}

// Looks the run up without recovering stale runs first. The pending note is read first: its ej
// removes it only once the run is in the journal, so a run is never missed between the two looks.
WaitedRun look_up_now(const Workspace& workspace, store::Journal& journal, int number)
{
  WaitedRun waited;
  waited.number = number;
  waited.pending = pending_run(workspace, number);
  waited.run = store::find_run(journal.db(), number);
  if (waited.run) {
    waited.pending.reset();
  } else if (!waited.pending) {
    throw Error("there is no run {}; see 'ej runs'", core::number_label(number));
  }
  return waited;
}

} // namespace

WaitedRun look_up_run(const Workspace& workspace, store::Journal& journal, int number)
{
  recover_stale_runs(journal);
  return look_up_now(workspace, journal, number);
}

std::vector<WaitedRun> wait_for_runs(const Workspace& workspace, store::Journal& journal,
                                     const std::vector<int>& numbers, double timeout_s)
{
  const auto start = std::chrono::steady_clock::now();
  std::vector<WaitedRun> waited;
  while (true) {
    recover_stale_runs(journal);
    waited.clear();
    bool going = false;
    for (const int number : numbers) {
      waited.push_back(look_up_now(workspace, journal, number));
      going = going || waited.back().going();
    }
    const double left = timeout_s - seconds_since_start(start);
    if (!going || (timeout_s > 0 && left <= 0)) {
      return waited;
    }
    auto pause = std::chrono::duration<double>(k_live_poll * 2);
    if (timeout_s > 0 && left < pause.count()) {
      pause = std::chrono::duration<double>(left); // the caller's bound is kept, not overrun by a poll
    }
    std::this_thread::sleep_for(pause);
  }
}

CancelOutcome cancel_run(const Workspace& workspace, store::Journal& journal, int number, double wait_s,
                         bool kill_late)
{
  CancelOutcome outcome;
  outcome.name = core::number_label(number);
  if (const auto pending = pending_run(workspace, number);
      pending && !store::find_run(journal.db(), number)) {
    // Not recorded yet: its ej has not taken over SIGTERM, which ends it; nothing was measured.
    if (!pending->alive) {
      throw Error("run {} is not running: it failed before it was recorded: {}", pending->name,
                  pending->error);
    }
    // Said in its log, where ej wait reads why it ended.
    util::UniqueFd log(::open(pending->log.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC));
    const auto said =
        fmt::format("ej: error: cancelled with 'ej cancel' by {} at {}, before it was recorded\n",
                    user_name(), util::format_utc(util::now_ms()));
    if (log) {
      [[maybe_unused]] const auto written = ::write(log.get(), said.data(), said.size());
    }
    ::kill(pending->pid, SIGTERM);
    outcome.state = CancelOutcome::State::StoppedBeforeRecorded;
    outcome.name = pending->name;
    outcome.pid = pending->pid;
    return outcome;
  }
  auto run = store::find_run(journal.db(), number);
  if (!run) {
    throw Error("there is no run {}; see 'ej runs'", core::number_label(number));
  }
  if (run->status != core::RunStatus::Started) {
    throw Error("run {} is not running: it ended {}", core::number_label(number),
                core::to_string(run->status));
  }
  if (run->host != this_host()) {
    throw Error("run {} runs on {}, not here; cancel it there", core::number_label(number), run->host);
  }
  outcome.pid = static_cast<pid_t>(run->pid);
  outcome.name = core::number_label(run->number);
  // Who cancelled goes into the run's reason: the run's ej reads this when the signal comes, under
  // the number the run has (a detached run named @k3f9qx has one once recorded).
  const auto request = cancel_request_path(workspace, run->number);
  util::write_file_atomic(request, fmt::format("cancelled with 'ej cancel' by {} at {}", user_name(),
                                               util::format_utc(util::now_ms())));
  ::kill(outcome.pid, SIGTERM); // its ej stops the benchmark (TERM, then KILL)
  const auto current = [&] {
    recover_stale_runs(journal);
    return store::find_run(journal.db(), number);
  };
  const auto start = std::chrono::steady_clock::now();
  while (run && run->status == core::RunStatus::Started && seconds_since_start(start) < wait_s) {
    std::this_thread::sleep_for(k_live_poll);
    run = current();
  }
  if (run && run->status == core::RunStatus::Started && kill_late) {
    // An ej that does not react to SIGTERM: killed; its guardian stops the benchmark.
    ::kill(outcome.pid, SIGKILL);
    outcome.killed = true;
    for (int tries = 0; tries < 50 && run && run->status == core::RunStatus::Started; ++tries) {
      std::this_thread::sleep_for(k_live_poll);
      run = current();
    }
  }
  outcome.run = run;
  if (run && run->status == core::RunStatus::Started) {
    outcome.state = CancelOutcome::State::Stopping; // its ej records the ending and removes the request
    return outcome;
  }
  std::error_code ec;
  std::filesystem::remove(request, ec);
  outcome.state = CancelOutcome::State::Ended;
  return outcome;
}

} // namespace ej::measuring
