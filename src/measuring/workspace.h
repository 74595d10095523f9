#pragma once

#include "git/repository.h"
#include "store/journal.h"

#include <cstdint>
#include <filesystem>

// What every journal command needs first: where the repository and its journal are, and the
// journal opened with what an ej that is gone left behind (stale runs, rerun worktrees) put right.
namespace ej::measuring {

// Where the repository and its journal are. The journal lives in the repository's git common
// directory, as git-lfs and git-annex keep theirs: out of reach of `git clean -fdx`, never
// committed by mistake, and shared by every linked worktree of the repository.
struct Workspace {
  std::filesystem::path work_tree; // root of the git work tree
  std::filesystem::path ej_dir;    // $(git rev-parse --git-common-dir)/ej
  std::filesystem::path git_dir;   // $(git rev-parse --git-dir): the work tree's own
};

// The workspace of the current directory; throws when it is not inside a git work tree. A
// journal an older ej kept in <work tree>/.ej is moved to ej_dir first, with a message.
Workspace locate_workspace();
// Opens the journal; before `ej init` this says to run it.
store::Journal open_journal(const Workspace& workspace);
// store::open_for_reading: no write lock, no checkpoint. Runs left `started` by an ej that is gone
// are marked interrupted first, through open_journal, so that a reader shows what a writer would.
store::Journal open_journal_for_reading(const Workspace& workspace);

// Whether attempts and runs made here wait for the shared remote to number them (docs/sharing.md):
// the repository has a remote to sync with (upstream or origin) or journal refs of one, so a number
// it gave itself could be another replica's by the first sync. Read before the write lock.
bool numbers_from_remote(const Workspace& workspace);

// Reads HEAD, branch, dirty state and the exact diff: before the journal's write lock is taken,
// since the diff of a large modified file takes seconds and another writer must not wait for it.
// keep_untracked_up_to: untracked files up to this size that are too large for the diff are
// stored whole (--keep-untracked-up-to); 0 keeps none.
git::CodeState read_code_state(const Workspace& workspace, std::uint64_t keep_untracked_up_to = 0);

} // namespace ej::measuring
