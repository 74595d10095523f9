#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/current_plan.h"
#include "cli/lookup.h"
#include "cli/output.h"
#include "core/numbering.h"
#include "core/slug.h"
#include "core/status.h"
#include "evidence/attempt_changes.h"
#include "measuring/code_state.h"
#include "measuring/workspace.h"
#include "store/queries.h"
#include "util/error.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <algorithm>

// Commands that create and change attempts: try, status, note, attempt edit.
namespace ej::cli {

namespace {

struct TryOptions {
  std::string title;
  std::string plan;
  std::string hypothesis;
  std::vector<std::string> tags;
  std::string command;
  std::vector<std::string> supersedes;
  std::vector<std::string> retry_of;
  std::vector<std::string> blocked_by;
  std::string keep_untracked; // --keep-untracked-up-to SIZE
  bool json = false;
};

void run_try(const TryOptions& options)
{
  const auto workspace = measuring::locate_workspace();
  auto journal = open_journal(workspace);
  const int number = evidence::create_attempt(
      workspace, journal,
      {options.title, options.plan, options.hypothesis, options.command, options.tags, options.supersedes,
       options.retry_of, options.blocked_by,
       options.keep_untracked.empty() ? 0 : parse_keep_untracked(options.keep_untracked)});
  if (options.json) {
    print_json(to_json(require_attempt(journal, number)));
    return;
  }
  fmt::print("{}\n", core::number_label(number));
}

struct StatusOptions {
  std::string id;
  std::string status;
  std::string reason;
  bool json = false;
};

void run_status(const StatusOptions& options)
{
  const int number = parse_attempt_number(options.id);
  const auto status = parse_status_argument(options.status);
  const auto workspace = measuring::locate_workspace();
  auto journal = open_journal(workspace);
  const auto previous = evidence::change_status(workspace, journal, number, status, options.reason);
  if (options.json) {
    auto out = to_json(require_attempt(journal, number));
    out["previous_status"] = core::to_string(previous);
    print_json(out);
    return;
  }
  fmt::print("{}: {} -> {}\n", core::number_label(number), core::to_string(previous),
             core::to_string(status));
}

struct NoteOptions {
  std::string id;
  std::string text;
  bool json = false;
};

void run_note(const NoteOptions& options)
{
  const int number = parse_attempt_number(options.id);
  auto journal = open_journal(measuring::locate_workspace());
  evidence::add_note(journal, number, options.text);
  if (options.json) {
    auto out = to_json(store::load_history(journal.db(), require_attempt(journal, number)));
    print_json(out);
    return;
  }
  fmt::print("{}: note added\n", core::number_label(number));
}

struct EditOptions {
  std::string id;
  std::optional<std::string> title;
  std::optional<std::string> hypothesis;
  std::optional<std::string> command;
  std::vector<std::string> tags;
  std::vector<std::string> untags;
  std::vector<std::string> blocked_by;
  std::vector<std::string> unblock;
  std::vector<std::string> retry_of;
};

// The links an edit adds and removes, checked against the attempt's links now: a link that exists
// is not added twice, one that does not is not removed, an attempt is never linked to itself.
store::events::AttemptLinked link_changes(store::Journal& journal, const core::Attempt& attempt,
                                          const EditOptions& options)
{
  const auto history = store::load_history(journal.db(), attempt);
  const auto linked = [&](const std::string& kind, int to) {
    return std::any_of(history.links_out.begin(), history.links_out.end(),
                       [&](const core::Link& link) { return link.kind == kind && link.to == to; });
  };
  store::events::AttemptLinked change;
  change.attempt = store::events::Ref::to(attempt.id);
  const auto add = [&](const std::vector<std::string>& ids, const char* kind, const char* already) {
    for (const auto& id : ids) {
      const auto other = require_attempt(journal, parse_attempt_number(id));
      if (other.number == attempt.number) {
        throw UsageError("{} cannot be linked to itself", core::number_label(attempt.number));
      }
      if (linked(kind, other.number)) {
        throw Error("{} is {} {} already", core::number_label(attempt.number), already,
                    core::number_label(other.number));
      }
      change.add.push_back({kind, store::events::Ref::to(other.id)});
    }
  };
  add(options.blocked_by, "blocked-by", "blocked by");
  add(options.retry_of, "retry-of", "a retry of");
  for (const auto& id : options.unblock) {
    const auto other = require_attempt(journal, parse_attempt_number(id));
    if (!linked("blocked-by", other.number)) {
      std::vector<std::string> blockers;
      for (const auto& link : history.links_out) {
        if (link.kind == "blocked-by") {
          blockers.push_back(core::number_label(link.to));
        }
      }
      throw Error("{} is not blocked by {}; {}", core::number_label(attempt.number),
                  core::number_label(other.number),
                  blockers.empty() ? "it has no blocker" : "its blockers: " + util::join(blockers, ", "));
    }
    change.remove.push_back({"blocked-by", store::events::Ref::to(other.id)});
  }
  return change;
}

void run_edit(const EditOptions& options)
{
  const int number = parse_attempt_number(options.id);
  store::events::AttemptEdited edit;
  if (options.title) {
    edit.title = checked_text(*options.title, "title", false);
  }
  if (options.hypothesis) {
    edit.hypothesis = checked_text(*options.hypothesis, "hypothesis");
  }
  if (options.command) {
    edit.command = checked_text(*options.command, "command");
  }
  edit.add_tags = evidence::checked_tags(options.tags);
  edit.remove_tags = evidence::checked_tags(options.untags);
  const bool relinks = !options.blocked_by.empty() || !options.unblock.empty() || !options.retry_of.empty();
  if (edit.changes_nothing() && !relinks) {
    throw UsageError(
        "nothing to change: give --title, --hypothesis, --command, --tag, --untag, --blocked-by, "
        "--unblock or --retry-of");
  }
  auto journal = open_journal(measuring::locate_workspace());
  journal.write([&](store::Writer& writer) {
    const auto attempt = require_attempt(journal, number);
    if (!edit.changes_nothing()) {
      edit.attempt = store::events::Ref::to(attempt.id);
      writer.append(edit);
    }
    if (relinks) {
      writer.append(link_changes(journal, attempt, options));
    }
  });
  fmt::print("{}: edited\n", core::number_label(number));
}

} // namespace

void register_attempt_commands(CLI::App& app)
{
  auto try_options = std::make_shared<TryOptions>();
  auto* attempt =
      app.add_subcommand("try", "Record a new attempt (an option tried in a plan); prints its number");
  attempt->add_option("title", try_options->title, "What is tried, e.g. \"NCCL_ALGO=Tree\"")->required();
  attempt->add_option(
      "--plan", try_options->plan,
      "The plan it belongs to (default: the current plan, see 'ej plan use', or the only one)");
  attempt->add_option("--hypothesis", try_options->hypothesis, "Why it should help");
  attempt->add_option("--tag", try_options->tags, "A tag (repeatable)");
  attempt->add_option("--command", try_options->command, "The exact command that tests it");
  attempt->add_option("--supersedes", try_options->supersedes, "An attempt this one replaces");
  attempt->add_option("--retry-of", try_options->retry_of, "An attempt this one tries again");
  attempt->add_option("--blocked-by", try_options->blocked_by, "An attempt that must succeed first");
  attempt->add_option("--keep-untracked-up-to", try_options->keep_untracked,
                      "Store untracked files up to SIZE whole with the code state, each once by its hash, "
                      "where the diff keeps only those up to 1 MiB (e.g. --keep-untracked-up-to 200M)");
  attempt->add_flag("--json", try_options->json, "Print the new attempt as JSON (as 'ej log --json' does)");
  attempt->callback([try_options] { run_try(*try_options); });

  auto status_options = std::make_shared<StatusOptions>();
  auto* status = app.add_subcommand("status", "Change the status of an attempt (kept in its history)");
  add_attempt_id(status, status_options->id);
  status->add_option("status", status_options->status, "One of: " + core::status_names())->required();
  status->add_option("--reason", status_options->reason,
                     "Why; required for rejected, blocked, inconclusive and superseded");
  status->add_flag("--json", status_options->json,
                   "Print the attempt as JSON (as 'ej log --json' does), with its previous_status");
  status->callback([status_options] { run_status(*status_options); });

  auto note_options = std::make_shared<NoteOptions>();
  auto* note = app.add_subcommand("note", "Add a note to an attempt");
  add_attempt_id(note, note_options->id);
  note->add_option("text", note_options->text, "The note")->required();
  note->add_flag("--json", note_options->json,
                 "Print the attempt as JSON with its notes (as 'ej show --json' has them)");
  note->callback([note_options] { run_note(*note_options); });

  auto edit_options = std::make_shared<EditOptions>();
  auto* group = app.add_subcommand("attempt", "Edit an attempt");
  group->require_subcommand(1);
  auto* edit = group->add_subcommand("edit", "Change an attempt's title, hypothesis, command, tags or links");
  add_attempt_id(edit, edit_options->id);
  edit->add_option("--title", edit_options->title, "New title");
  edit->add_option("--hypothesis", edit_options->hypothesis, "New hypothesis");
  edit->add_option("--command", edit_options->command, "New command");
  edit->add_option("--tag", edit_options->tags, "Add a tag (repeatable)");
  edit->add_option("--untag", edit_options->untags, "Remove a tag (repeatable)");
  edit->add_option("--blocked-by", edit_options->blocked_by,
                   "Add a blocker: an attempt that must succeed first (repeatable)");
  edit->add_option("--unblock", edit_options->unblock, "Remove the blocker N (repeatable)");
  edit->add_option(
      "--retry-of", edit_options->retry_of,
      "Mark it a retry of N (repeatable): a blocked N reads 'resolved by' it once it is adopted");
  edit->callback([edit_options] { run_edit(*edit_options); });
}

} // namespace ej::cli
