#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "cli/pager.h"
#include "cli/verdict_output.h"
#include "core/numbering.h"
#include "evidence/attempt_queries.h"
#include "evidence/reader.h"
#include "evidence/verdict.h"
#include "measuring/workspace.h"
#include "store/queries.h"
#include "util/error.h"
#include "util/strings.h"
#include "util/time.h"

#include <fmt/format.h>

#include <set>

// `ej why QUERY`: the audit. For each attempt that matches, why it is where it is.
namespace ej::cli {

namespace {

std::string describe_other(store::Journal& journal, int number)
{
  const auto other = store::find_attempt(journal.db(), number);
  if (!other) {
    return fmt::format("{} (missing)", core::number_label(number));
  }
  return fmt::format("{} {} ({}{})", core::number_label(number), other->title, core::to_string(other->status),
                     other->reason.empty() ? "" : ": " + util::first_line(other->reason, 80));
}

std::string since_date(const core::AttemptHistory& history)
{
  if (history.status_changes.empty()) {
    return util::format_date(history.attempt.created_ms);
  }
  return util::format_date(history.status_changes.back().time_ms);
}

void print_blockers(store::Journal& journal, const core::AttemptHistory& history)
{
  for (const auto& link : history.links_out) {
    if (link.kind != "blocked-by") {
      continue;
    }
    const auto blocker = store::find_attempt(journal.db(), link.to);
    if (!blocker) {
      continue;
    }
    std::string state;
    if (blocker->status == core::Status::Adopted) {
      state = fmt::format("since adopted ({}): the blocker is resolved, this can be tried again",
                          util::format_date(blocker->updated_ms));
    } else if (blocker->status == core::Status::Rejected || blocker->status == core::Status::Superseded) {
      state = fmt::format("{}: the blocker will not be resolved that way", core::to_string(blocker->status));
    } else {
      state = fmt::format("still {}", core::to_string(blocker->status));
    }
    fmt::print("  Blocked by {} {} — {}\n", core::number_label(blocker->number), blocker->title, state);
  }
}

void print_links(store::Journal& journal, const core::AttemptHistory& history)
{
  for (const auto& link : history.links_out) {
    if (link.kind == "retry-of") {
      fmt::print("  Retries {}\n", describe_other(journal, link.to));
    } else if (link.kind == "supersedes") {
      fmt::print("  Supersedes {}\n", describe_other(journal, link.to));
    }
  }
  for (const auto& link : history.links_in) {
    if (link.kind == "supersedes") {
      fmt::print("  Superseded by {}\n", describe_other(journal, link.from));
    } else if (link.kind == "retry-of") {
      fmt::print("  Retried by {}\n", describe_other(journal, link.from));
    } else if (link.kind == "blocked-by") {
      fmt::print("  Blocks {}\n", describe_other(journal, link.from));
    }
  }
}

void print_answer(evidence::Reader& reader, const core::AttemptHistory& history)
{
  auto& journal = reader.journal();
  const auto& a = history.attempt;
  fmt::print("{} {}  {}\n", paint(core::number_label(a.number), Colour::Bold), paint(a.title, Colour::Bold),
             paint("[" + a.plan + "]", Colour::Dim));
  const auto resolved = core::resolved_text(a.resolved_by);
  fmt::print("  {}{} since {}{}\n", paint_status(a.status), resolved.empty() ? "" : " (" + resolved + ")",
             since_date(history), a.reason.empty() ? "" : ": " + indent_continuation(a.reason, "    "));
  if (!a.hypothesis.empty()) {
    fmt::print("  Hypothesis: {}\n", indent_continuation(a.hypothesis, "    "));
  }
  // The evidence as it stood when the decision was taken: against the baseline of its runs' time.
  if (const auto verdict = evidence::judge_attempt(reader, a.number).verdict) {
    fmt::print("  Evidence: {} {}\n", verdict->metric, verdict->text);
    fmt::print("  Design: {}\n", verdict->design.sentence());
  }
  print_blockers(journal, history);
  print_links(journal, history);
  fmt::print("  History:\n    {}  created (proposed) at {}\n", util::format_date(a.created_ms),
             core::describe(a.git));
  for (const auto& change : history.status_changes) {
    fmt::print("    {}  {} -> {}{}\n", util::format_date(change.time_ms), change.from, change.to,
               change.reason.empty() ? "" : ": " + indent_continuation(change.reason, "      "));
  }
  if (!history.notes.empty()) {
    fmt::print("  Notes:\n");
    for (const auto& note : history.notes) {
      fmt::print("    {}  {}\n", util::format_date(note.time_ms), indent_continuation(note.text, "      "));
    }
  }
}

struct WhyOptions {
  std::string query;
  int limit = 10;
  bool json = false;
};

void run_why(const WhyOptions& options)
{
  auto journal = open_journal_for_reading(measuring::locate_workspace());
  const auto histories = evidence::why_matches(journal, options.query, options.limit);
  page_output();
  evidence::Reader reader(journal);
  if (options.json) {
    print_json(evidence::why_json(reader, histories));
    return;
  }
  if (histories.empty()) {
    throw Error("no attempt matches '{}'; try 'ej search' with other words, or 'ej log'", options.query);
  }
  for (std::size_t i = 0; i < histories.size(); ++i) {
    if (i > 0) {
      fmt::print("\n");
    }
    print_answer(reader, histories[i]);
  }
}

} // namespace

void register_why(CLI::App& app)
{
  auto options = std::make_shared<WhyOptions>();
  auto* why = app.add_subcommand(
      "why",
      "Why is an option where it is? Status, reasons, blockers, history and notes of matching attempts");
  why->add_option("query", options->query, "An attempt number, a tag, words of a title or any text")
      ->required();
  why->add_option("-n", options->limit, "At most N attempts (default 10)")->check(CLI::PositiveNumber);
  add_json_flag(why, options->json);
  why->callback([options] { run_why(*options); });
}

} // namespace ej::cli
