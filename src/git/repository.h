#pragma once

#include "core/git_context.h"

#include <filesystem>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ej::git {

// Where a git work tree and its repository are.
struct RepositoryLocation {
  std::filesystem::path work_tree;  // root of the work tree containing the start
  std::filesystem::path common_dir; // the repository's .git, shared by all its linked worktrees
  std::filesystem::path git_dir;    // this work tree's own: common_dir, or .git/worktrees/NAME
};

// The work tree containing start, or nullopt when start is not inside one (a bare repository has
// no work tree either).
std::optional<RepositoryLocation> find_repository(const std::filesystem::path& start);
std::optional<std::filesystem::path> find_work_tree(const std::filesystem::path& start);

// What the code looked like: HEAD, branch, dirty flag and, when dirty, the exact change.
struct CodeState {
  core::GitContext context;        // diff_blob left empty: the caller stores diff_text
  std::filesystem::path work_tree; // where it was read
  // `git diff HEAD` (binary-safe), then every untracked, non-ignored file within the limits as a
  // new-file patch with its contents, so that the code can be rebuilt elsewhere from HEAD and this.
  std::string diff_text;
  std::vector<std::string> untracked_files;
  // Over the limits of the diff: described in context.large_untracked (path, size, sha256), and
  // named in diff_text; those in keep_as_blobs are stored whole by the caller, the others not.
  std::vector<std::string> untracked_left_out;
  std::vector<std::string> keep_as_blobs; // paths relative to the work tree
  // Paths (relative to the work tree) that differ from HEAD and exist, and that HEAD has but the
  // work tree does not: what shipping the state elsewhere copies and removes.
  std::vector<std::string> changed_files;
  std::vector<std::string> deleted_files;
};

// How much of the untracked files a code state keeps in its diff: a larger file, and the files
// after the total is reached, are described (path, size, sha256) but not stored, unless they are
// at most keep_up_to_bytes (--keep-untracked-up-to): then they are stored whole, each as a blob of
// its own, which identical files of other runs share.
struct UntrackedLimits {
  std::uint64_t per_file_bytes = 1024 * 1024;
  std::uint64_t total_bytes = 16 * 1024 * 1024;
  std::uint64_t keep_up_to_bytes = 0;
  // Hashing reads the whole file, at every ej try and ej run: past this a file is described by
  // its size alone (a restore can then never recognise it).
  std::uint64_t hash_up_to_bytes = 1024ull * 1024 * 1024;
};

// The code state of the work tree of a located repository: exactly that one, as git would read
// it (with GIT_DIR and GIT_WORK_TREE, the work tree has no .git of its own to discover).
CodeState read_code_state(const RepositoryLocation& location, const UntrackedLimits& limits = {});

} // namespace ej::git
