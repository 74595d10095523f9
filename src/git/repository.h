#pragma once

#include "core/git_context.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ej::git {

// Where a git work tree and its repository are.
struct RepositoryLocation {
  std::filesystem::path work_tree;  // root of the work tree containing the start
  std::filesystem::path common_dir; // the repository's .git, shared by all its linked worktrees
};

// The work tree containing start, or nullopt when start is not inside one (a bare repository has
// no work tree either).
std::optional<RepositoryLocation> find_repository(const std::filesystem::path& start);
std::optional<std::filesystem::path> find_work_tree(const std::filesystem::path& start);

// What the code looked like: HEAD, branch, dirty flag and, when dirty, the exact change.
struct CodeState {
  core::GitContext context;                // diff_blob left empty: the caller stores diff_text
  std::string diff_text;                   // `git diff HEAD` (binary-safe) + untracked files, when dirty
  std::vector<std::string> untracked_files;
};

CodeState read_code_state(const std::filesystem::path& work_tree);

} // namespace ej::git
