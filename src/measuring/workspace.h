#pragma once

#include <filesystem>

namespace ej::measuring {

// Where the repository and its journal are. The journal lives in the repository's git common
// directory, as git-lfs and git-annex keep theirs: out of reach of `git clean -fdx`, never
// committed by mistake, and shared by every linked worktree of the repository.
struct Workspace {
  std::filesystem::path work_tree; // root of the git work tree
  std::filesystem::path ej_dir;    // $(git rev-parse --git-common-dir)/ej
  std::filesystem::path git_dir;   // $(git rev-parse --git-dir): the work tree's own
};

} // namespace ej::measuring
