#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

// The line of commits a benchmark's history follows: a branch's first parents, as
// `git log --first-parent` lists them. Merges count as one commit of the branch, so a step that
// came in with a merged branch lies at the merge.
namespace ej::git {

struct CommitSummary {
  std::string id;          // full hex id
  std::string subject;     // the first line of its message
  std::int64_t time_s = 0; // committer time, seconds since the Unix epoch
};

// The commits from `revision` (a branch, tag, commit id, HEAD~3...) back along first parents,
// oldest first. Throws ej::Error naming the revision when it is not a commit of the repository.
std::vector<CommitSummary> first_parent_history(const std::filesystem::path& repo_dir,
                                                const std::string& revision);

// The full id of the commit `revision` names; nullopt when it names none.
std::optional<std::string> resolve_commit(const std::filesystem::path& repo_dir, const std::string& revision);

// The branch HEAD is on ("main"), or nullopt when it is detached or the repository has no commit.
std::optional<std::string> current_branch(const std::filesystem::path& repo_dir);

} // namespace ej::git
