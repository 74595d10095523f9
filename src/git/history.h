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
//
// With a `cache` file, the line last read is kept there and only the commits it does not hold are
// read from git: a commit's id fixes its subject, time and parents, so the line below any commit
// it holds is the cached one, whatever the branches did since. Reading 10,000 commits from git
// costs more than the rest of `ej history`; the cache is read in a millisecond or two. A cache that
// cannot be read is read again from git, and one that cannot be written is not kept.
std::vector<CommitSummary> first_parent_history(const std::filesystem::path& repo_dir,
                                                const std::string& revision,
                                                const std::filesystem::path& cache = {});

// The full id of the commit `revision` names; nullopt when it names none.
std::optional<std::string> resolve_commit(const std::filesystem::path& repo_dir, const std::string& revision);

// The branch HEAD is on ("main"), or nullopt when it is detached or the repository has no commit.
std::optional<std::string> current_branch(const std::filesystem::path& repo_dir);

} // namespace ej::git
