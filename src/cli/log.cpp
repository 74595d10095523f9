#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/current_plan.h"
#include "cli/live_runs.h"
#include "cli/lookup.h"
#include "cli/output.h"
#include "cli/pager.h"
#include "cli/runs.h"
#include "cli/verdict_output.h"
#include "cli/version.h"
#include "core/numbering.h"
#include "evidence/attempt_queries.h"
#include "evidence/reader.h"
#include "evidence/run_code.h"
#include "evidence/run_set.h"
#include "evidence/verdict.h"
#include "evidence/verdict_line.h"
#include "measuring/workspace.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/strings.h"
#include "util/time.h"

#include <fmt/format.h>

// Reading the journal: log, show, search.
namespace ej::cli {

namespace {

void print_attempt_line(const core::Attempt& attempt, const std::optional<std::string>& verdict)
{
  const auto resolved = core::resolved_text(attempt.resolved_by);
  fmt::print("{} {} {} {}{}{}\n",
             paint(fmt::format("{:<5}", core::number_label(attempt.number)), Colour::Bold),
             paint_status(attempt.status) + std::string(13 - core::to_string(attempt.status).size(), ' '),
             util::first_line(attempt.title, 60), paint("[" + attempt.plan + "]", Colour::Dim),
             resolved.empty() ? "" : "  " + resolved, verdict ? "  " + *verdict : "");
  if (!attempt.reason.empty()) {
    fmt::print("       {}\n", paint(util::first_line(attempt.reason, 100), Colour::Dim));
  }
}

// Attempts as a JSON array, or a line each (and what to do when there are none).
void print_attempts(store::Journal& journal, const std::vector<core::Attempt>& attempts, bool json,
                    const std::string& when_none)
{
  if (json) {
    print_json(evidence::attempts_json(attempts));
    return;
  }
  if (attempts.empty()) {
    fmt::print("{}\n", when_none);
    return;
  }
  evidence::Reader reader(journal);
  const auto verdicts = evidence::verdict_lines(reader, attempts, build_identity());
  for (std::size_t i = 0; i < attempts.size(); ++i) {
    print_attempt_line(attempts[i], verdicts[i]);
  }
}

struct LogOptions {
  std::string plan;
  bool all_plans = false;
  std::string status;
  std::string tag;
  std::string since;
  int limit = 0;
  bool json = false;
};

void run_log(const LogOptions& options)
{
  auto journal = open_journal_for_reading(measuring::locate_workspace());
  const auto attempts = evidence::log_attempts(
      journal, {options.plan, options.all_plans, options.status, options.tag, options.since, options.limit});
  page_output();
  print_attempts(journal, attempts, options.json,
                 "no attempts match; record one with: ej try \"TITLE\" --plan SLUG");
}

struct ShowOptions {
  std::vector<std::string> what; // ID, or "run" N
  bool json = false;
  bool diff = false;
  bool output = false;
  bool follow = false;
  std::string export_json; // with run N: the file for hyperfine's JSON layout
};

void print_history(const core::AttemptHistory& history)
{
  const auto& a = history.attempt;
  fmt::print("{} {}\n", paint(core::number_label(a.number), Colour::Bold), paint(a.title, Colour::Bold));
  const std::string indent(12, ' ');
  fmt::print("plan:       {}\n", a.plan);
  const auto resolved = core::resolved_text(a.resolved_by);
  fmt::print("status:     {}{}{}\n", paint_status(a.status), resolved.empty() ? "" : " (" + resolved + ")",
             a.reason.empty() ? "" : ": " + indent_continuation(a.reason, indent));
  if (!a.hypothesis.empty()) {
    fmt::print("hypothesis: {}\n", indent_continuation(a.hypothesis, indent));
  }
  if (!a.command.empty()) {
    fmt::print("command:    {}\n", indent_continuation(a.command, indent));
  }
  if (!a.tags.empty()) {
    fmt::print("tags:       {}\n", util::join(a.tags, ", "));
  }
  fmt::print("code:       {}\n", core::describe(a.git));
  for (const auto& link : history.links_out) {
    fmt::print("link:       {} {}\n", link.kind, core::number_label(link.to));
  }
  for (const auto& link : history.links_in) {
    fmt::print("link:       {} {} this\n", core::number_label(link.from), link.kind);
  }
  fmt::print("\ntimeline:\n");
  fmt::print("  {}  created as proposed at {}\n", util::format_utc(a.created_ms), core::describe(a.git));
  // Status changes and notes interleaved by time.
  std::size_t c = 0;
  std::size_t n = 0;
  while (c < history.status_changes.size() || n < history.notes.size()) {
    const bool take_change =
        n >= history.notes.size() ||
        (c < history.status_changes.size() && history.status_changes[c].time_ms <= history.notes[n].time_ms);
    if (take_change) {
      const auto& change = history.status_changes[c++];
      fmt::print("  {}  {} -> {}{} at {}\n", util::format_utc(change.time_ms), change.from, change.to,
                 change.reason.empty() ? "" : ": " + indent_continuation(change.reason, "      "),
                 core::describe(change.git));
    } else {
      const auto& note = history.notes[n++];
      fmt::print("  {}  note: {}\n", util::format_utc(note.time_ms),
                 indent_continuation(note.text, "      "));
    }
  }
}

void print_runs_of(evidence::Reader& reader, int attempt)
{
  auto& journal = reader.journal();
  store::RunFilter filter;
  filter.attempt = attempt;
  auto runs = store::list_runs(journal.db(), filter);
  if (runs.empty()) {
    return;
  }
  std::reverse(runs.begin(), runs.end());
  fmt::print("\nruns:\n");
  for (const auto& run : runs) {
    const auto verdict = evidence::judge_run(reader, run).verdict;
    fmt::print(
        "  run {:<5} {} r{} {}{}{}{}\n", core::number_label(run.number), run.bench, run.revision,
        core::to_string(run.status), run.status == core::RunStatus::Imported ? " (" + run.source + ")" : "",
        run.withdrawn() ? paint(", withdrawn", Colour::Yellow) : "", verdict ? "  " + verdict->text : "");
    if (run.withdrawn()) {
      fmt::print("            {}\n", paint(evidence::withdrawn_text(run), Colour::Dim));
    }
  }
  const auto judgement = evidence::judge_attempt(reader, attempt);
  if (judgement.verdict) {
    const auto meets = judgement.verdict->meets_target();
    fmt::print("verdict:  {} {}{}\n", judgement.verdict->metric, judgement.verdict->text,
               meets ? (*meets ? ", meets the plan's target" : ", misses the plan's target") : "");
    fmt::print("design:   {}\n", judgement.verdict->design.sentence());
    for (const auto& warning : judgement.verdict->warnings) {
      fmt::print("          {} {}\n", paint("warning:", Colour::Yellow), warning);
    }
  } else {
    fmt::print("verdict:  none: {}\n", judgement.why_not);
  }
}

// After the attempt's diff: whether its runs measured that code, and which did not (a fix committed
// or patched in since), with where to see theirs.
void print_code_of_runs(store::Journal& journal, const core::Attempt& attempt)
{
  store::RunFilter filter;
  filter.attempt = attempt.number;
  const auto groups = evidence::code_of_runs(attempt.git, store::list_runs(journal.db(), filter));
  if (groups.empty()) {
    return;
  }
  if (groups.size() == 1 && groups.front().same_as_attempt) {
    fmt::print("\n{} measured this code\n", evidence::runs_label(groups.front().runs));
    return;
  }
  fmt::print("\n{}\n", paint("runs that measured other code than this attempt's:", Colour::Yellow));
  for (const auto& group : groups) {
    if (group.same_as_attempt) {
      fmt::print("  {}: this code\n", evidence::runs_label(group.runs));
      continue;
    }
    std::string what = group.git.commit != attempt.git.commit ? "another commit" : "the same commit";
    what += !group.git.dirty                                              ? ", no diff"
            : attempt.git.dirty && group.git.commit == attempt.git.commit ? ", another diff"
                                                                          : ", with a diff";
    fmt::print("  {}: {}, {}{}\n", evidence::runs_label(group.runs), core::describe(group.git), what,
               group.git.dirty ? fmt::format(" ('ej show run {} --diff')", group.runs.front()) : "");
  }
}

void run_show(const ShowOptions& options)
{
  // A run: "ej show run 5", "ej show r5", "ej show run:5".
  const bool run_words = options.what.size() == 2 && options.what[0] == "run";
  if (run_words || (options.what.size() == 1 && run_reference(options.what[0]))) {
    const auto& run = options.what.back();
    if (options.follow) {
      follow_run(run);
      return;
    }
    if (!options.export_json.empty()) {
      export_run_json(run, options.export_json);
      return;
    }
    show_run(run, options.output, options.json, options.diff);
    return;
  }
  if (options.what.size() != 1) {
    throw UsageError("use 'ej show ID' for an attempt or 'ej show run N' for a run");
  }
  const int number = parse_attempt_number(options.what[0]);
  auto journal = open_journal_for_reading(measuring::locate_workspace());
  const auto attempt = require_attempt(journal, number);
  page_output();
  if (options.json) {
    evidence::Reader reader(journal);
    print_json(evidence::attempt_detail_json(reader, attempt, options.diff));
    return;
  }
  const auto history = store::load_history(journal.db(), attempt);
  std::optional<std::string> diff;
  if (options.diff && !attempt.git.diff_blob.empty()) {
    diff = journal.blob(attempt.git.diff_blob);
  }
  print_history(history);
  evidence::Reader reader(journal);
  print_runs_of(reader, number);
  if (options.diff) {
    if (!attempt.git.dirty) {
      fmt::print("\nno diff: the work tree was clean at {}\n", core::describe(attempt.git));
    } else {
      fmt::print("\ndiff against {}:\n{}", attempt.git.commit.substr(0, 10), diff.value_or(""));
    }
    print_code_of_runs(journal, attempt);
  }
}

struct SearchOptions {
  std::string text;
  int limit = 20;
  bool json = false;
};

void run_search(const SearchOptions& options)
{
  auto journal = open_journal_for_reading(measuring::locate_workspace());
  const auto attempts = evidence::search_attempts(journal, options.text, options.limit);
  print_attempts(journal, attempts, options.json, fmt::format("nothing matches '{}'", options.text));
}

} // namespace

void register_read_commands(CLI::App& app)
{
  auto log_options = std::make_shared<LogOptions>();
  auto* log = app.add_subcommand("log", "List attempts, newest first");
  auto* plan =
      log->add_option("--plan", log_options->plan, "Only this plan (default: the current plan, if any)");
  log->add_flag("--all-plans", log_options->all_plans, "Every plan, the current one too")->excludes(plan);
  log->add_option("--status", log_options->status, "Only this status");
  log->add_option("--tag", log_options->tag, "Only attempts with this tag");
  log->add_option("--since", log_options->since, "Only attempts changed since DATE (YYYY-MM-DD)");
  log->add_option("-n", log_options->limit, "At most N attempts")->check(CLI::NonNegativeNumber);
  add_json_flag(log, log_options->json);
  log->callback([log_options] { run_log(*log_options); });

  auto show_options = std::make_shared<ShowOptions>();
  auto* show =
      app.add_subcommand("show", "Show an attempt's full timeline (ej show ID), or a run (ej show run N)");
  show->add_option("what", show_options->what, "Attempt number, or: run N")->required()->expected(1, 2);
  add_json_flag(show, show_options->json);
  show->add_flag(
      "--diff", show_options->diff,
      "Print the uncommitted diff (and untracked files) it was created with, or a run measured; for "
      "an attempt, also which runs measured other code");
  show->add_flag("--output", show_options->output, "With run N: print the captured output");
  show->add_option(
      "--export-json", show_options->export_json,
      "With run N: write it to FILE in hyperfine's --export-json layout (for hyperfine's scripts)");
  show->add_flag(
      "--follow", show_options->follow,
      "With run N: print a detached run's output as it comes, until it ends (exit 1 unless it finished)");
  show->callback([show_options] { run_show(*show_options); });

  auto search_options = std::make_shared<SearchOptions>();
  auto* search = app.add_subcommand(
      "search", "Full-text search over titles, hypotheses, commands, tags, reasons and notes, newest first");
  search
      ->add_option(
          "text", search_options->text,
          "Words to find, all of them, as whole words; end one with * for the words it starts (allred*)")
      ->required();
  search->add_option("-n", search_options->limit, "At most N results (default 20)")
      ->check(CLI::PositiveNumber);
  add_json_flag(search, search_options->json);
  search->callback([search_options] { run_search(*search_options); });
}

} // namespace ej::cli
