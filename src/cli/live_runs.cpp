#include "cli/live_runs.h"
#include "cli/arguments.h"

#include "cli/commands.h"
#include "cli/output.h"
#include "cli/run_summary_output.h"
#include "cli/runs.h"
#include "core/numbering.h"
#include "evidence/live_progress.h"
#include "evidence/reader.h"
#include "measuring/detach.h"
#include "measuring/live_runs.h"
#include "measuring/stale_runs.h"
#include "measuring/workspace.h"
#include "run/gpu_lock.h"
#include "run/owner.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/time.h"

#include <fmt/format.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <pwd.h>
#include <thread>
#include <unistd.h>

namespace ej::cli {

namespace {

constexpr auto k_poll = std::chrono::milliseconds(100);
constexpr double k_cancel_wait_s = 15; // for the run's ej to stop its benchmark and record the run

core::RunRecord existing_run(store::Journal& journal, int number)
{
  auto run = store::find_run(journal.db(), number);
  if (!run) {
    throw Error("there is no run {}; see 'ej runs'", core::number_label(number));
  }
  return *run;
}

// The run as it is now: a run whose ej died meanwhile is marked interrupted first.
core::RunRecord current_run(store::Journal& journal, int number)
{
  measuring::recover_stale_runs(journal);
  return existing_run(journal, number);
}

// Says how the run ended; exit 0 for finished, 1 for any other ending.
void report_ending(store::Journal& journal, const core::RunRecord& run)
{
  print_run_summary(journal, run.number);
  if (run.status != core::RunStatus::Finished) {
    throw ExitCode{1};
  }
}

struct WaitOptions {
  std::vector<std::string> runs;
  double timeout_s = 0;
  bool json = false;
};

// In the order given: the summary of each run that ended, then how far each still going has come.
// A run still going at the timeout is no failure (exit 0): an agent's shell that waits in turns of
// 10 s reads "still running" and waits again; exit 1 says a run ended otherwise than finished.
void run_wait(const WaitOptions& options)
{
  const auto workspace = measuring::locate_workspace();
  std::vector<int> numbers;
  for (const auto& given : options.runs) {
    numbers.push_back(parse_run_number(given));
  }
  auto journal = open_journal(workspace);
  const auto waited = measuring::wait_for_runs(workspace, journal, numbers, options.timeout_s);
  evidence::Reader reader(journal);
  bool failed = false;
  auto out = nlohmann::json::array();
  for (const auto& w : waited) {
    failed =
        failed || w.failed_before_recorded() ||
        (w.run && w.run->status != core::RunStatus::Started && w.run->status != core::RunStatus::Finished);
    out.push_back(evidence::waited_json(reader, workspace, w));
  }
  if (options.json) {
    print_json(out);
  } else {
    for (std::size_t i = 0; i < waited.size(); ++i) {
      const auto& w = waited[i];
      if (w.going()) {
        for (const auto& line : evidence::progress_lines(out[i])) {
          fmt::print("{}\n", line);
        }
      } else if (w.run) {
        print_run_summary(journal, w.run->number);
      } else {
        fmt::print("run {} failed before it was recorded: {}\n", core::number_label(w.number),
                   w.pending->error);
        fmt::print(stderr, "ej: its output is in {}\n", w.pending->log.string());
      }
    }
  }
  if (failed) {
    throw ExitCode{1};
  }
}

struct CancelOptions {
  std::string run;
};

void run_cancel(const CancelOptions& options)
{
  const int number = parse_run_number(options.run);
  const auto workspace = measuring::locate_workspace();
  auto journal = open_journal(workspace);
  const auto outcome = measuring::cancel_run(workspace, journal, number, k_cancel_wait_s, true);
  if (outcome.state == measuring::CancelOutcome::State::StoppedBeforeRecorded) {
    fmt::print(stderr, "ej: stopped run {} (pid {}) before it was recorded; nothing was measured\n",
               outcome.name, outcome.pid);
    return;
  }
  fmt::print(stderr, "ej: asked the ej of run {} (pid {}) to stop it\n", outcome.name, outcome.pid);
  if (outcome.killed) {
    fmt::print(stderr, "ej: the ej of run {} did not stop within {:g} s; it was killed\n", outcome.name,
               k_cancel_wait_s);
  }
  print_run_summary(journal, number);
}

// Copies what the log gained since `offset` to stdout.
void copy_new_output(int fd, std::uint64_t& offset)
{
  char buffer[64 * 1024];
  while (true) {
    const auto got = ::pread(fd, buffer, sizeof buffer, static_cast<off_t>(offset));
    if (got <= 0) {
      break;
    }
    std::fwrite(buffer, 1, static_cast<std::size_t>(got), stdout);
    offset += static_cast<std::uint64_t>(got);
  }
  std::fflush(stdout);
}

} // namespace

void follow_run(const std::string& id)
{
  const int number = parse_run_number(id);
  const auto workspace = measuring::locate_workspace();
  auto journal = open_journal(workspace);
  // A detached run still being prepared: its output so far, until it is recorded (or its ej ends).
  std::uint64_t offset = 0;
  auto pending = measuring::pending_run(workspace, number);
  while (pending && !store::find_run(journal.db(), number)) {
    util::UniqueFd early(::open(pending->log.c_str(), O_RDONLY | O_CLOEXEC));
    if (early) {
      copy_new_output(early.get(), offset);
    }
    if (!pending->alive) {
      fmt::print(stderr, "ej: run {} failed before it was recorded: {}\n", pending->name, pending->error);
      throw ExitCode{1};
    }
    std::this_thread::sleep_for(k_poll);
    pending = measuring::pending_run(workspace, number);
  }
  auto run = existing_run(journal, number);
  util::UniqueFd log(::open(measuring::run_log_path(workspace, run).c_str(), O_RDONLY | O_CLOEXEC));
  if (!log && run.status == core::RunStatus::Started) {
    fmt::print(stderr,
               "ej: run {} was not started with --detach: its output goes to the ej that runs it; waiting "
               "for it to end\n",
               core::number_label(number));
  }
  while (true) {
    if (log) {
      copy_new_output(log.get(), offset);
    }
    if (run.status != core::RunStatus::Started) {
      break;
    }
    std::this_thread::sleep_for(k_poll);
    run = current_run(journal, number);
  }
  if (!log) {
    report_ending(journal, run);
    return;
  }
  // The detached ej writes the run's summary after it records the ending: the rest of the log is
  // whole once that ej is gone (bounded, for an ej that hangs on after it).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!measuring::run_process_gone(journal, run) && run.host == measuring::this_host() &&
         std::chrono::steady_clock::now() < deadline) {
    copy_new_output(log.get(), offset);
    std::this_thread::sleep_for(k_poll);
  }
  copy_new_output(log.get(), offset); // what came after the last look, the run's summary included
  fmt::print(stderr, "ej: run {} ended {}\n", core::number_label(number), core::to_string(run.status));
  if (run.status != core::RunStatus::Finished) {
    throw ExitCode{1};
  }
}

void list_running_runs(bool json)
{
  const auto workspace = measuring::locate_workspace();
  auto journal = open_journal(workspace);
  const auto runs = store::runs_with_status(journal.db(), core::RunStatus::Started);
  const auto tickets = run::GpuLock::tickets(run::default_lock_dir());
  const auto waiting = [&](const core::RunRecord& run) {
    for (const auto& t : tickets) {
      if (t.pid == run.pid && t.host == run.host && !t.holding) {
        return true;
      }
    }
    return false;
  };
  if (json) {
    evidence::Reader reader(journal);
    auto out = nlohmann::json::array();
    for (const auto& run : runs) {
      auto entry = run_json(reader, run, false);
      const auto log = measuring::run_log_path(workspace, run);
      entry["host"] = run.host;
      entry["pid"] = run.pid;
      entry["waiting_for_gpus"] = waiting(run);
      entry["log"] = std::filesystem::exists(log) ? nlohmann::json(log.string()) : nlohmann::json();
      out.push_back(std::move(entry));
    }
    print_json(out);
    return;
  }
  if (runs.empty()) {
    fmt::print("no run is running\n");
    return;
  }
  for (const auto& run : runs) {
    fmt::print("{} {:<20} {:<10} on {} (pid {}) since {}\n",
               paint(fmt::format("run {:<5}", core::number_label(run.number)), Colour::Bold),
               fmt::format("{} r{}", run.bench, run.revision), waiting(run) ? "waiting" : "running", run.host,
               run.pid, util::format_utc(run.started_ms));
  }
}

void list_gpu_queue(bool json)
{
  const auto workspace = measuring::locate_workspace();
  const auto tickets = run::GpuLock::tickets(run::default_lock_dir());
  if (json) {
    auto out = nlohmann::json::array();
    for (const auto& t : tickets) {
      out.push_back({{"state", t.holding ? "running" : "waiting"},
                     {"run", t.run > 0 ? nlohmann::json(t.run) : nlohmann::json()},
                     {"bench", t.bench},
                     {"repository", t.journal},
                     {"host", t.host},
                     {"gpus", run::describe(t.gpus)},
                     {"pid", t.pid},
                     {"since", util::format_utc(t.since_ms)}});
    }
    print_json(out);
    return;
  }
  if (tickets.empty()) {
    fmt::print("no run holds or waits for this machine's GPUs\n");
    return;
  }
  for (const auto& t : tickets) {
    fmt::print("{:<8} {}  ({}, since {})\n", t.holding ? "running" : "waiting",
               run::describe(t, workspace.work_tree.string()), t.bench, util::format_utc(t.since_ms));
  }
}

void register_live_runs(CLI::App& app)
{
  auto wait_options = std::make_shared<WaitOptions>();
  auto* wait = app.add_subcommand(
      "wait",
      "Wait for runs to end, or --timeout S; exit 0 when all finished or still run, 1 when one did not");
  wait->footer(
      R"(Exit status: 0 every run finished, or the timeout passed with a run still going (and none ended
otherwise): its progress is printed (repeats done of those planned, the primary metric's medians and
their intervals so far, the time left); 1 a run ended otherwise (failed, interrupted, build-failed,
or its detached ej failed before recording it) or an error; 2 a usage error.

Examples:
  ej wait r5 --timeout 10     # returns within 10 s: how it ended, or how far it has come
  ej wait @k3f9qx @p2m8wd     # the runs two 'ej run --detach' started)");
  wait->add_option("runs", wait_options->runs, "Runs (r5, 5, @k3f9qx)")->required();
  wait->add_option("--timeout", wait_options->timeout_s,
                   "Stop waiting after S seconds, saying how far each run still going has come (exit 0)")
      ->check(CLI::NonNegativeNumber & finite_number());
  wait->add_flag(
      "--json", wait_options->json,
      "Print JSON: each run's state, its progress while it goes, its summary and verdict once ended");
  wait->callback([wait_options] { run_wait(*wait_options); });

  auto cancel_options = std::make_shared<CancelOptions>();
  auto* cancel =
      app.add_subcommand("cancel", "Stop a running run; it is recorded interrupted, saying who cancelled it");
  cancel->add_option("run", cancel_options->run, "Run number")->required();
  cancel->callback([cancel_options] { run_cancel(*cancel_options); });
}

} // namespace ej::cli
