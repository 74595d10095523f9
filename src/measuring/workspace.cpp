#include "measuring/workspace.h"

#include "git/journal_refs.h"
#include "git/repository.h"
#include "measuring/rerun_worktree.h"
#include "measuring/stale_runs.h"
#include "store/journal_reading.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/fs.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

namespace ej::measuring {

namespace {

// ej up to this version kept the journal in <work tree>/.ej, where `git clean -fdx` deletes it.
void move_legacy_journal(const Workspace& workspace)
{
  const auto legacy = workspace.work_tree / ".ej";
  std::error_code ec;
  if (!std::filesystem::exists(store::journal_file(legacy), ec)) {
    return;
  }
  if (std::filesystem::exists(store::journal_file(workspace.ej_dir), ec)) {
    fmt::print(
        stderr,
        "ej: warning: {} holds an older journal; ej uses the one in {}. Remove {} once you have checked "
        "that nothing in it is missing from the new one.\n",
        legacy.string(), workspace.ej_dir.string(), legacy.string());
    return;
  }
  std::filesystem::create_directories(workspace.ej_dir.parent_path(), ec);
  std::filesystem::rename(legacy, workspace.ej_dir, ec);
  if (ec) {
    throw Error(
        "cannot move the journal from {} to {} ({}): move the directory there yourself (mv {} {}), then "
        "run ej again",
        legacy.string(), workspace.ej_dir.string(), ec.message(), legacy.string(), workspace.ej_dir.string());
  }
  fmt::print(stderr,
             "ej: moved the journal from {} to {}, where git clean cannot reach it and linked worktrees "
             "share it\n",
             legacy.string(), workspace.ej_dir.string());
}

} // namespace

Workspace locate_workspace()
{
  const auto cwd = std::filesystem::current_path();
  const auto repository = git::find_repository(cwd);
  if (!repository) {
    throw Error("not inside a git repository ({}); ej keeps its journal in a git repository: cd into your "
                "project, or run 'git init' first",
                cwd.string());
  }
  Workspace workspace{repository->work_tree, repository->common_dir / "ej", repository->git_dir};
  move_legacy_journal(workspace);
  return workspace;
}

store::Journal open_journal(const Workspace& workspace)
{
  if (!std::filesystem::exists(store::journal_file(workspace.ej_dir))) {
    throw Error("no journal in {}; run 'ej init' first", workspace.work_tree.string());
  }
  auto journal = store::Journal::open(workspace.ej_dir);
  recover_stale_runs(journal);
  remove_abandoned_worktrees(workspace, [](std::string_view line) { fmt::print(stderr, "{}\n", line); });
  return journal;
}

bool numbers_from_remote(const Workspace& workspace)
{
  return git::JournalRefs(workspace.ej_dir.parent_path()).shares_journal();
}

git::CodeState read_code_state(const Workspace& workspace, std::uint64_t keep_untracked_up_to)
{
  git::UntrackedLimits limits;
  limits.keep_up_to_bytes = keep_untracked_up_to;
  auto state =
      git::read_code_state({workspace.work_tree, workspace.ej_dir.parent_path(), workspace.git_dir}, limits);
  std::vector<core::LargeUntracked> left_out; // the files kept as blobs are stored later, in the write
  for (const auto& file : state.context.large_untracked) {
    if (std::find(state.keep_as_blobs.begin(), state.keep_as_blobs.end(), file.path) ==
        state.keep_as_blobs.end()) {
      left_out.push_back(file);
    }
  }
  if (!left_out.empty()) {
    fmt::print(stderr,
               "ej: warning: {} untracked file(s) are too large to keep with the code state and are recorded "
               "by size and hash only: {}. 'ej checkout' and 'ej rerun' of this state will refuse without "
               "--allow-incomplete. Commit them, add them to .gitignore, or keep them with "
               "--keep-untracked-up-to SIZE\n",
               left_out.size(), core::describe_files(left_out, 10));
  }
  return state;
}

namespace {

store::Journal open_for_reading_recovered(const Workspace& workspace)
{
  auto journal = store::open_for_reading(workspace.ej_dir);
  // Not the journal: the worktrees of reruns that were killed.
  remove_abandoned_worktrees(workspace, [](std::string_view line) { fmt::print(stderr, "{}\n", line); });
  const auto started = store::runs_with_status(journal.db(), core::RunStatus::Started);
  if (std::any_of(started.begin(), started.end(),
                  [&](const core::RunRecord& run) { return run_process_gone(journal, run); })) {
    return open_journal(workspace); // recovers them
  }
  return journal;
}

} // namespace

store::Journal open_journal_for_reading(const Workspace& workspace)
{
  if (!std::filesystem::exists(store::journal_file(workspace.ej_dir))) {
    return open_journal(workspace); // says to run ej init
  }
  auto journal = open_for_reading_recovered(workspace);
  // What it shows may be older than what was recorded here: said before it is shown.
  if (const auto problem = store::identity_problem(journal)) {
    fmt::print(stderr, "ej: warning: {}\n", *problem);
  }
  return journal;
}

} // namespace ej::measuring
