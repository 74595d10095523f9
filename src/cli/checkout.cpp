#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/workspace.h"
#include "core/numbering.h"
#include "git/restore.h"
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
};

void run_checkout(const CheckoutOptions& options)
{
  const auto workspace = locate_workspace();
  auto journal = open_journal(workspace);
  core::GitContext git;
  std::string name;
  if (const auto run_number = run_reference(options.what)) {
    const int number = *run_number;
    const auto run = store::find_run(journal.db(), number);
    if (!run) {
      throw Error("there is no run {}; see 'ej runs'", core::number_label(number));
    }
    git = run->git;
    name = "run " + core::number_label(run->number);
  } else {
    const int number = parse_attempt_number(options.what);
    const auto attempt = store::find_attempt(journal.db(), number);
    if (!attempt) {
      throw Error("there is no attempt {}; see 'ej log'", core::number_label(number));
    }
    git = attempt->git;
    name = "attempt " + core::number_label(attempt->number);
  }
  if (git.commit.empty()) {
    throw Error("{} recorded no commit (the repository had none yet): there is no code state to restore", name);
  }
  std::string patch;
  if (git.dirty && !git.diff_blob.empty()) {
    const auto blob = journal.blob(git.diff_blob);
    if (!blob) {
      throw Error("the stored diff of {} is missing from the journal (run 'ej sync' to fetch it, or 'ej fsck')", name);
    }
    patch = *blob;
  }
  const bool complete = git::restore_code_state(workspace.git_dir, git.commit, patch, options.dir);
  fmt::print("restored {} into {}: commit {}{}\n", name, options.dir, git.commit.substr(0, 12),
             patch.empty() ? "" : " with its stored diff and untracked files");
  if (!complete) {
    fmt::print("  note: changes inside submodules are recorded in its diff but not restored\n");
  }
}

} // namespace

void register_checkout(CLI::App& app)
{
  auto options = std::make_shared<CheckoutOptions>();
  auto* command = app.add_subcommand("checkout", "Restore the exact code of an attempt or run into a directory");
  command->footer(R"(The commit's files, with the stored diff and untracked files applied; the work tree and the
repository's index are not touched.

Examples:
  ej checkout 12 /tmp/attempt-12      # the code attempt #12 was created with
  ej checkout r5 /tmp/run-5           # the code run #5 measured)");
  command->add_option("what", options->what, "Attempt (12, @k3f9qx) or run (r5, run:5)")->required();
  command->add_option("dir", options->dir, "A new or empty directory")->required();
  command->callback([options] { run_checkout(*options); });
}

} // namespace ej::cli
