#pragma once

#include "core/git_context.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ej::git {

// The root of the git work tree containing start, or nullopt when start is not inside one (a bare
// repository has no work tree either).
std::optional<std::filesystem::path> find_work_tree(const std::filesystem::path& start);

// What the code looked like: HEAD, branch, dirty flag and, when dirty, the exact change.
struct CodeState {
  core::GitContext context;                // diff_blob left empty: the caller stores diff_text
  std::string diff_text;                   // `git diff HEAD` (binary-safe) + untracked files, when dirty
  std::vector<std::string> untracked_files;
};

CodeState read_code_state(const std::filesystem::path& work_tree);

// Adds a line to .git/info/exclude unless it is already there (`ej init` hides .ej/ from git).
void add_exclude(const std::filesystem::path& work_tree, const std::string& pattern);

} // namespace ej::git
