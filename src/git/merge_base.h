#pragma once

#include <filesystem>
#include <optional>
#include <string>

// What `ej ci` compares against by default: the commit where the work tree's history left the
// default branch, as `git merge-base HEAD origin/main` finds it.
namespace ej::git {

struct DefaultBranch {
  std::string name;   // as a user writes it: "origin/main", "main"
  std::string commit; // its full id
};

// origin/HEAD's target when origin/HEAD exists; else main (origin/main, then the local branch);
// else master the same way; nullopt when none of them exists.
std::optional<DefaultBranch> default_branch(const std::filesystem::path& repo_dir);

// The best common ancestor of two commits (full ids or revisions); nullopt when they share none
// (unrelated histories, or a shallow clone that lacks it). Throws ej::Error when either names no
// commit.
std::optional<std::string> merge_base(const std::filesystem::path& repo_dir, const std::string& one,
                                      const std::string& two);

} // namespace ej::git
