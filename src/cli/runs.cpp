#include "cli/runs.h"
#include "cli/arguments.h"

#include "cli/commands.h"
#include "cli/device_output.h"
#include "cli/live_runs.h"
#include "cli/lookup.h"
#include "cli/output.h"
#include "cli/pager.h"
#include "cli/run_summary_output.h"
#include "cli/verdict_output.h"
#include "core/numbering.h"
#include "evidence/interleaved_verdict.h"
#include "evidence/reader.h"
#include "evidence/run_exports.h"
#include "evidence/run_set.h"
#include "evidence/series.h"
#include "evidence/verdict.h"
#include "measure/statistics.h"
#include "measuring/workspace.h"
#include "render/run_exports.h"
#include "store/events.h"
#include "store/interleaved_queries.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/strings.h"
#include "util/time.h"

#include <fmt/format.h>

#include <filesystem>

// Reading runs: ej runs, ej show run N.
namespace ej::cli {

namespace {

struct RunsOptions {
  std::string bench;
  std::string attempt;
  int limit = 0;
  bool json = false;
  std::string format;
  bool running = false;
  bool queue = false;
};

void run_runs(RunsOptions options)
{
  if (options.format == "json") {
    options.json = true;
  } else if (!options.format.empty() && options.format != "csv" && options.format != "text") {
    throw UsageError("--format takes csv, json or text, not '{}'", options.format);
  }
  if (!options.format.empty() && options.format != "json" && options.json) {
    throw UsageError("--json and --format {} contradict each other; give one", options.format);
  }
  if (options.format == "csv" && (options.running || options.queue)) {
    throw UsageError("--format csv lists finished runs; --running and --queue print text or --json");
  }
  if (options.running) {
    list_running_runs(options.json);
    return;
  }
  if (options.queue) {
    list_gpu_queue(options.json);
    return;
  }
  auto journal = open_journal_for_reading(measuring::locate_workspace());
  store::RunFilter filter;
  if (!options.bench.empty()) {
    filter.bench = require_benchmark(journal, options.bench).name;
  }
  filter.limit = options.limit;
  if (!options.attempt.empty()) {
    filter.attempt = require_attempt(journal, parse_attempt_number(options.attempt)).number;
  }
  const auto runs = store::list_runs(journal.db(), filter);
  evidence::Reader reader(journal);
  if (options.format == "csv") {
    fmt::print("{}", render::runs_csv(evidence::run_figures(reader, runs)));
    return;
  }
  if (options.json) {
    auto out = nlohmann::json::array();
    for (const auto& run : runs) {
      out.push_back(run_json(reader, run, true));
    }
    print_json(out);
    return;
  }
  if (runs.empty()) {
    fmt::print("no runs yet; run a benchmark with: ej run NAME [--attempt ID]\n");
    return;
  }
  for (const auto& run : runs) {
    std::string primary;
    fmt::print("{} {:<12} {:<20} {}{}{}{}\n",
               paint(fmt::format("run {:<5}", core::number_label(run.number)), Colour::Bold),
               core::to_string(run.status), fmt::format("{} r{}", run.bench, run.revision),
               util::format_utc(run.started_ms),
               run.attempt ? fmt::format("  attempt {}", core::number_label(*run.attempt)) : "",
               run.status == core::RunStatus::Imported ? "  (imported: " + run.source + ")" : "",
               run.withdrawn() ? paint("  withdrawn", Colour::Yellow) : "");
    if (!run.reason.empty()) {
      fmt::print("           {}\n", paint(util::first_line(run.reason, 120), Colour::Dim));
    }
    if (run.withdrawn()) {
      fmt::print("           {}\n", paint(util::first_line(evidence::withdrawn_text(run), 120), Colour::Dim));
    }
    if (const auto verdict = evidence::judge_run(reader, run).verdict) {
      fmt::print("           {} {}\n", verdict->metric, verdict->text);
    }
  }
}

} // namespace

void export_run_json(const std::string& id, const std::filesystem::path& file)
{
  const auto target = std::filesystem::absolute(file); // before anything could change directory
  const int number = parse_run_number(id);
  auto journal = open_journal_for_reading(measuring::locate_workspace());
  const auto run = store::find_run(journal.db(), number);
  if (!run) {
    throw Error("there is no run {}; see 'ej runs'", core::number_label(number));
  }
  evidence::Reader reader(journal);
  const auto text = render::hyperfine_json(*run, evidence::hyperfine_results(reader, *run), k_json_schema)
                        .dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
                    "\n";
  util::write_file_atomic(target, text);
  fmt::print(stderr, "ej: wrote run {} to {} in hyperfine's JSON layout\n", core::number_label(number),
             file.string());
}

namespace {

// The code a run measured: its commit, and the diff and untracked files of its work tree when it
// had some (what 'ej checkout RUN DIR' writes out).
void print_run_diff(store::Journal& journal, const core::RunRecord& run)
{
  const auto label = core::number_label(run.number);
  if (run.status == core::RunStatus::Imported) {
    fmt::print("\nno diff: run {} was imported ({}); ej recorded no code for it\n", label, run.source);
  } else if (!run.git.dirty) {
    fmt::print("\nno diff: the work tree was clean at {}\n", core::describe(run.git));
  } else if (const auto diff = journal.blob(run.git.diff_blob)) {
    fmt::print("\ndiff against {}:\n{}", run.git.commit.substr(0, 10), *diff);
  } else {
    fmt::print("\nthe diff of run {} (blob {}) is not in this journal: it came without its blobs ('ej export "
               "--no-blobs', or a sync not finished); sync again or import it with its blobs\n",
               label, run.git.diff_blob.substr(0, 12));
  }
}

} // namespace

void show_run(const std::string& id, bool output, bool json, bool diff)
{
  const int number = parse_run_number(id);
  auto journal = open_journal_for_reading(measuring::locate_workspace());
  const auto run = store::find_run(journal.db(), number);
  evidence::Reader reader(journal);
  if (!run) {
    throw Error("there is no run {}; see 'ej runs'", core::number_label(number));
  }
  page_output();
  if (json) {
    print_json(*evidence::show_run_json(reader, number, output, diff));
    return;
  }
  const auto blob_text = [&](const char* key) {
    const auto hash = run->outputs.value(key, "");
    return hash.empty() ? std::string() : journal.blob(hash).value_or("");
  };
  const auto build_log = [&]() {
    const auto build = run->outputs.find("build");
    const auto hash = build != run->outputs.end() && build->is_object() ? build->value("log_blob", "") : "";
    return hash.empty() ? std::string() : journal.blob(hash).value_or("");
  };
  const auto on = evidence::run_location(journal, *run); // where it ran, when not here
  // The interleaved session it was measured in (ej run --against, ej calibrate), judged on its pairs.
  const auto comparison = store::interleaved_comparison_of(journal.db(), number);
  const auto paired =
      comparison ? std::optional(evidence::judge_interleaved(journal.db(), *comparison)) : std::nullopt;
  print_run_summary(journal, number);
  fmt::print("  benchmark: {} r{}\n", run->bench, run->revision);
  if (run->attempt) {
    fmt::print("  attempt:   {}\n", core::number_label(*run->attempt));
  }
  if (!run->label.empty()) {
    fmt::print("  label:     {}\n", run->label);
  }
  if (paired) {
    const bool candidate = paired->candidate == number;
    const int other = candidate ? paired->reference : paired->candidate;
    if (comparison->design.purpose == "calibration") {
      fmt::print("  compared:  calibration, against itself with run {} ('ej bench show {}')\n",
                 core::number_label(other), run->bench);
    } else {
      auto doubt = evidence::integrity_text(paired->integrity);
      if (!doubt.empty()) {
        doubt = ", " + doubt;
      }
      fmt::print("  compared:  {} of an interleaved comparison with run {}, {} round{}: {}{} ('ej compare "
                 "r{} r{}')\n",
                 candidate ? "candidate" : "reference", core::number_label(other),
                 comparison->design.rounds.size(), comparison->design.rounds.size() == 1 ? "" : "s",
                 evidence::paired_outcome_text(paired->outcome), doubt, paired->reference, paired->candidate);
    }
  }
  if (run->status == core::RunStatus::Imported) {
    fmt::print("  imported:  measured outside ej; source: {}\n", run->source);
  } else {
    fmt::print("  code:      {}\n  env:       {}\n  host:      {}\n", core::describe(run->git),
               run->env_blob.substr(0, 12), run->host);
  }
  if (const auto slurm = run->outputs.find("slurm"); slurm != run->outputs.end() && slurm->is_object()) {
    const auto gpus = slurm->value("gpus", "");
    fmt::print("  slurm:     job {} on {} (partition {}{})\n", slurm->value("job", ""),
               slurm->value("nodes", ""), slurm->value("partition", ""),
               gpus.empty() ? "" : ", GPUs " + gpus);
  }
  if (on.is_object()) {
    fmt::print("  on:        {} ({}), in {}\n", on.value("name", ""), on.value("hostname", ""),
               on.value("work_dir", ""));
  }
  if (const auto build = run->outputs.find("build"); build != run->outputs.end() && build->is_object()) {
    fmt::print("  build:     {} ({})\n", build->value("state", ""), build->value("command", ""));
  }
  if (const auto asked = run->outputs.find("options"); asked != run->outputs.end() && asked->is_object()) {
    if (asked->contains("prepare")) {
      fmt::print("  prepare:   {}\n", asked->value("prepare", ""));
    }
    if (asked->contains("warmup")) {
      fmt::print("  warmup:    {} (ej run --warmup)\n", asked->value("warmup", 0));
    }
  }
  fmt::print("  started:   {}\n", util::format_utc(run->started_ms));
  // Every withdrawal and restoration, then what the last one means.
  for (const auto& change : store::run_withdrawals(journal.db(), run->number)) {
    fmt::print("  {} {}{}\n",
               change.withdrawn ? "withdrawn:" : "restored: ", util::format_utc(change.time_ms),
               change.reason.empty() ? "" : ": " + change.reason);
  }
  if (run->withdrawn()) {
    fmt::print(
        "             {}\n",
        paint(fmt::format("left out of judgements and documents; 'ej run withdraw {} --undo' takes it back",
                          run->number),
              Colour::Yellow));
  }
  print_device_state(reader, *run);
  if (output) {
    const auto cut_note = [&](const char* key) {
      const auto cut = run->outputs.value(key, std::uint64_t{0});
      return cut > 0 ? fmt::format(" ({} bytes cut from the middle)", cut) : std::string();
    };
    // A stored output is shown, not replayed: its control characters cannot drive the terminal.
    if (const auto log = build_log(); !log.empty()) {
      fmt::print("\n--- build log ---\n{}", util::visible_controls(log));
    }
    fmt::print("\n--- stdout of the last repeat{} ---\n{}", cut_note("stdout_cut_bytes"),
               util::visible_controls(blob_text("stdout_blob")));
    fmt::print("\n--- stderr of the last repeat{} ---\n{}", cut_note("stderr_cut_bytes"),
               util::visible_controls(blob_text("stderr_blob")));
    if (run->outputs.contains("check_blob")) {
      fmt::print("\n--- output of the failed --check ---\n{}",
                 util::visible_controls(blob_text("check_blob")));
    }
  }
  if (diff) {
    print_run_diff(journal, *run);
  }
}

void register_runs(CLI::App& app)
{
  auto options = std::make_shared<RunsOptions>();
  auto* runs = app.add_subcommand("runs", "List benchmark runs, newest first");
  runs->add_option("--bench", options->bench, "Only this benchmark");
  runs->add_option("--attempt", options->attempt, "Only runs of this attempt");
  runs->add_option("-n", options->limit, "At most N runs")->check(CLI::NonNegativeNumber);
  runs->add_flag("--json", options->json, "Print JSON (with samples and summaries)");
  runs->add_option("--format", options->format,
                   "csv (one row per run and series, with mean, stddev, median, min, max), json or text");
  auto* running = runs->add_flag("--running", options->running,
                                 "Only the runs an ej is running now (or that wait for GPUs)");
  runs->add_flag("--queue", options->queue,
                 "Who holds and who waits for this machine's GPUs (every repository)")
      ->excludes(running);
  runs->callback([options] { run_runs(*options); });
}

} // namespace ej::cli
