#include "git/history.h"

#include "git/libgit2.h"
#include "util/error.h"

#include <algorithm>

namespace ej::git {

namespace {

using ObjectPtr = util::Handle<git_object, git_object_free>;

RepositoryPtr open(const std::filesystem::path& repo_dir)
{
  ensure_libgit2();
  git_repository* raw = nullptr;
  check(git_repository_open_ext(&raw, repo_dir.c_str(), 0, nullptr), "open the repository");
  return RepositoryPtr(raw);
}

std::optional<git_oid> commit_of(git_repository* repo, const std::string& revision)
{
  git_object* raw = nullptr;
  if (revision.empty() || git_revparse_single(&raw, repo, revision.c_str()) < 0) {
    return std::nullopt;
  }
  ObjectPtr object(raw);
  git_object* peeled_raw = nullptr;
  if (git_object_peel(&peeled_raw, object.get(), GIT_OBJECT_COMMIT) < 0) {
    return std::nullopt;
  }
  ObjectPtr peeled(peeled_raw);
  return *git_object_id(peeled.get());
}

} // namespace

std::vector<CommitSummary> first_parent_history(const std::filesystem::path& repo_dir,
                                                const std::string& revision)
{
  const auto repo = open(repo_dir);
  const auto start = commit_of(repo.get(), revision);
  if (!start) {
    throw Error("'{}' names no commit of this repository; give a branch, tag or commit (see git log)",
                revision);
  }
  // Parent by parent rather than with a git_revwalk: the walk reads every commit once and the
  // look-up for its subject reads it again, which was a third of `ej history` on 10,000 commits.
  std::vector<CommitSummary> newest_first;
  git_oid oid = *start;
  for (;;) {
    git_commit* raw = nullptr;
    check(git_commit_lookup(&raw, repo.get(), &oid), "read a commit");
    CommitPtr commit(raw);
    const char* summary = git_commit_summary(commit.get());
    newest_first.push_back({oid_hex(oid), summary != nullptr ? summary : "", git_commit_time(commit.get())});
    if (git_commit_parentcount(commit.get()) == 0) {
      break;
    }
    oid = *git_commit_parent_id(commit.get(), 0);
  }
  std::reverse(newest_first.begin(), newest_first.end());
  return newest_first;
}

std::optional<std::string> resolve_commit(const std::filesystem::path& repo_dir, const std::string& revision)
{
  const auto repo = open(repo_dir);
  const auto oid = commit_of(repo.get(), revision);
  if (!oid) {
    return std::nullopt;
  }
  return oid_hex(*oid);
}

std::optional<std::string> current_branch(const std::filesystem::path& repo_dir)
{
  const auto repo = open(repo_dir);
  git_reference* raw = nullptr;
  if (git_repository_head(&raw, repo.get()) < 0) {
    return std::nullopt; // no commit yet
  }
  ReferencePtr head(raw);
  if (git_repository_head_detached(repo.get()) == 1 || !git_reference_is_branch(head.get())) {
    return std::nullopt;
  }
  return std::string(git_reference_shorthand(head.get()));
}

} // namespace ej::git
