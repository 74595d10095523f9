#pragma once

#include "core/git_context.h"
#include "git/repository.h"
#include "measuring/workspace.h"
#include "store/journal.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

// What every journal command needs first: where the repository and its journal are.
namespace ej::cli {

// The workspace of the current directory; throws when it is not inside a git work tree. A
// journal an older ej kept in <work tree>/.ej is moved to ej_dir first, with a message.
measuring::Workspace locate_workspace();
// Opens the journal; before `ej init` this says to run it.
store::Journal open_journal(const measuring::Workspace& workspace);

// Whether attempts and runs made here wait for the shared remote to number them (docs/sharing.md):
// the repository has a remote to sync with (upstream or origin) or journal refs of one, so a number
// it gave itself could be another replica's by the first sync. Read before the write lock.
bool numbers_from_remote(const measuring::Workspace& workspace);

// Reads HEAD, branch, dirty state and the exact diff: before the journal's write lock is taken,
// since the diff of a large modified file takes seconds and another writer must not wait for it.
// keep_untracked_up_to: untracked files up to this size that are too large for the diff are
// stored whole (--keep-untracked-up-to); 0 keeps none.
git::CodeState read_code_state(const measuring::Workspace& workspace, std::uint64_t keep_untracked_up_to = 0);
// --keep-untracked-up-to SIZE ("200M", "1G", "4096"): bytes, checked.
std::uint64_t parse_keep_untracked(const std::string& text);

// "12" or "#12" -> 12; anything else is a usage error naming the argument.
int parse_attempt_number(std::string_view text);
// Checks user text before it is stored: valid UTF-8, and not empty when required.
std::string checked_text(std::string_view text, std::string_view what, bool allow_empty = true);

} // namespace ej::cli
