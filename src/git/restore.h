#pragma once

#include "core/git_context.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ej::git {

// A recorded code state to write out: the commit, the stored diff (`git diff HEAD` and the
// untracked files, with ej's comment lines), and the untracked files kept apart from the diff.
struct CodeToRestore {
  std::string commit;
  std::string patch;
  std::vector<core::LargeUntracked> large_files; // written when content_of gives their bytes
};

struct RestoreResult {
  bool submodules_skipped = false;           // changes inside submodules are recorded but not restored
  std::vector<core::LargeUntracked> missing; // large files whose bytes content_of did not give
};

// The bytes of a large untracked file, or nullopt when they are not at hand.
using ContentOf = std::function<std::optional<std::string>(const core::LargeUntracked&)>;

// Writes the code state into dir: absent, empty, or holding only the `.git` file of a linked
// worktree made without a checkout (ej rerun). The commit's tree with the diff applied is built in
// memory (nothing is written into the repository, its index or its work tree), then every file is
// written beneath dir (util::BeneathWriter): a path that would leave it through a symbolic link
// the commit or the diff holds is refused with its name, and so is, before anything is written, a
// path inside a .git directory. Throws ej::Error when the commit is not in the repository, the
// diff does not apply, or a path is refused.
RestoreResult restore_code_state(const std::filesystem::path& repo_dir, const CodeToRestore& code,
                                 const ContentOf& content_of, const std::filesystem::path& dir);

} // namespace ej::git
