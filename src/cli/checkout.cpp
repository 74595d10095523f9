#include "cli/arguments.h"
#include "cli/commands.h"
#include "core/numbering.h"
#include "measuring/code_restore.h"
#include "measuring/workspace.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "util/error.h"

#include <fmt/format.h>

// `ej checkout ATTEMPT|RUN DIR`: the exact code an attempt or run recorded, for inspection.
namespace ej::cli {

namespace {

struct CheckoutOptions {
  std::string what;
  std::string dir;
  bool allow_incomplete = false;
};

void run_checkout(const CheckoutOptions& options)
{
  const auto workspace = measuring::locate_workspace();
  auto journal = open_journal(workspace);
  core::GitContext git;
  std::string name;
  std::string event_id;
  if (const auto run_number = run_reference(options.what)) {
    const int number = *run_number;
    const auto run = store::find_run(journal.db(), number);
    if (!run) {
      throw Error("there is no run {}; see 'ej runs'", core::number_label(number));
    }
    git = run->git;
    name = "run " + core::number_label(run->number);
    event_id = run->id;
  } else {
    const int number = parse_attempt_number(options.what);
    const auto attempt = store::find_attempt(journal.db(), number);
    if (!attempt) {
      throw Error("there is no attempt {}; see 'ej log'", core::number_label(number));
    }
    git = attempt->git;
    name = "attempt " + core::number_label(attempt->number);
    event_id = attempt->id;
  }
  if (git.commit.empty()) {
    throw Error("{} recorded no commit (the repository had none yet): there is no code state to restore",
                name);
  }
  const auto recorded = measuring::recorded_code(journal, workspace, event_id, git, name);
  measuring::check_complete(recorded, name, options.allow_incomplete);
  const auto restored =
      measuring::restore_recorded(journal, workspace, recorded, command_line_path(options.dir));
  fmt::print("restored {} into {}: commit {}{}\n", name, options.dir, git.commit.substr(0, 12),
             recorded.code.patch.empty() ? "" : " with its stored diff and untracked files");
  if (restored.submodules_skipped) {
    fmt::print("  note: changes inside submodules are recorded in its diff but not restored\n");
  }
  if (!restored.missing.empty()) {
    fmt::print("  note: without {} untracked file(s) it did not store: {}\n", restored.missing.size(),
               core::describe_files(restored.missing));
  }
}

} // namespace

void register_checkout(CLI::App& app)
{
  auto options = std::make_shared<CheckoutOptions>();
  auto* command =
      app.add_subcommand("checkout", "Restore the exact code of an attempt or run into a directory");
  command->footer(
      R"(The commit's files, with the stored diff and untracked files applied; the work tree and the
repository's index are not touched. Every file is written inside DIR: a path that would leave it
(through a symbolic link the commit or the diff holds) is refused, naming it. Untracked files too
large to store were recorded by size and hash: they are taken from the work tree when it has the
same bytes; without them the checkout is refused unless --allow-incomplete.

Examples:
  ej checkout 12 /tmp/attempt-12      # the code attempt #12 was created with
  ej checkout r5 /tmp/run-5           # the code run #5 measured)");
  command->add_option("what", options->what, "Attempt (12, @k3f9qx) or run (r5, run:5)")->required();
  command->add_option("dir", options->dir, "A new or empty directory")->required();
  command->add_flag("--allow-incomplete", options->allow_incomplete,
                    "Restore a code state whose large untracked files were not stored, without them");
  command->callback([options] { run_checkout(*options); });
}

} // namespace ej::cli
