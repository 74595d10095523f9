#include "git/merge_base.h"

#include "git/history.h"
#include "git/libgit2.h"
#include "util/error.h"

namespace ej::git {

namespace {

RepositoryPtr open_for_merge_base(const std::filesystem::path& repo_dir)
{
  ensure_libgit2();
  git_repository* raw = nullptr;
  check(git_repository_open_ext(&raw, repo_dir.c_str(), 0, nullptr), "open the repository");
  return RepositoryPtr(raw);
}

// The branch origin/HEAD points to ("origin/main"), when the clone recorded one.
std::optional<std::string> origin_head(git_repository* repo)
{
  git_reference* raw = nullptr;
  if (git_reference_lookup(&raw, repo, "refs/remotes/origin/HEAD") < 0) {
    return std::nullopt;
  }
  ReferencePtr head(raw);
  git_reference* resolved_raw = nullptr;
  if (git_reference_resolve(&resolved_raw, head.get()) < 0) {
    return std::nullopt; // it points to a branch that is gone
  }
  ReferencePtr resolved(resolved_raw);
  return std::string(git_reference_shorthand(resolved.get()));
}

} // namespace

std::optional<DefaultBranch> default_branch(const std::filesystem::path& repo_dir)
{
  std::vector<std::string> candidates;
  {
    const auto repo = open_for_merge_base(repo_dir);
    if (const auto head = origin_head(repo.get())) {
      candidates.push_back(*head);
    }
  }
  // The remote's branch first: in CI the local one is often absent, and locally it is the newer.
  for (const char* name : {"origin/main", "main", "origin/master", "master"}) {
    candidates.emplace_back(name);
  }
  for (const auto& name : candidates) {
    const auto ref = name.find('/') == std::string::npos ? "refs/heads/" + name : "refs/remotes/" + name;
    if (const auto commit = resolve_commit(repo_dir, ref)) {
      return DefaultBranch{name, *commit};
    }
  }
  return std::nullopt;
}

std::optional<std::string> merge_base(const std::filesystem::path& repo_dir, const std::string& one,
                                      const std::string& two)
{
  const auto first = resolve_commit(repo_dir, one);
  const auto second = resolve_commit(repo_dir, two);
  if (!first || !second) {
    throw Error("'{}' names no commit of this repository", first ? two : one);
  }
  const auto repo = open_for_merge_base(repo_dir);
  git_oid a{};
  git_oid b{};
  check(git_oid_fromstr(&a, first->c_str()), "read a commit id");
  check(git_oid_fromstr(&b, second->c_str()), "read a commit id");
  git_oid base{};
  const int rc = git_merge_base(&base, repo.get(), &a, &b);
  if (rc == GIT_ENOTFOUND) {
    return std::nullopt;
  }
  check(rc, "find the merge base");
  return oid_hex(base);
}

} // namespace ej::git
