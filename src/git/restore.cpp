#include "git/restore.h"

#include "git/libgit2.h"
#include "util/error.h"

#include <git2/apply.h>

#include <sstream>

namespace ej::git {

namespace {

// The superproject's patch: everything before the first submodule section, without ej's comments.
std::string applicable_part(const std::string& patch, bool& has_submodules)
{
  std::istringstream lines(patch);
  std::string out;
  has_submodules = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("# submodule ", 0) == 0) {
      has_submodules = true;
      break;
    }
    if (line.rfind("# ", 0) == 0 || line == "#") {
      continue;
    }
    out += line + "\n";
  }
  return out;
}

} // namespace

bool restore_code_state(const std::filesystem::path& repo_dir, const std::string& commit, const std::string& patch,
                        const std::filesystem::path& dir)
{
  ensure_libgit2();
  std::error_code error;
  if (std::filesystem::exists(dir, error) && !std::filesystem::is_empty(dir, error)) {
    throw Error("{} is not empty: give a new directory to restore the code into", dir.string());
  }
  std::filesystem::create_directories(dir, error);
  if (error) {
    throw Error("cannot create {}: {}", dir.string(), error.message());
  }
  git_repository* raw = nullptr;
  check(git_repository_open_ext(&raw, repo_dir.c_str(), 0, nullptr), "open the repository");
  RepositoryPtr repo(raw);
  git_oid oid;
  git_commit* commit_raw = nullptr;
  if (git_oid_fromstr(&oid, commit.c_str()) < 0 || git_commit_lookup(&commit_raw, repo.get(), &oid) < 0) {
    throw Error("the commit {} is not in this repository any more (fetch it, e.g. git fetch origin {}): the code "
                "state cannot be restored",
                commit.substr(0, 12), commit);
  }
  CommitPtr head(commit_raw);
  git_tree* tree_raw = nullptr;
  check(git_commit_tree(&tree_raw, head.get()), "read the commit's tree");
  TreePtr tree(tree_raw);
  // The work tree of this repository object only: the user's own work tree is never touched.
  check(git_repository_set_workdir(repo.get(), dir.c_str(), 0), "use the directory");
  git_checkout_options checkout = GIT_CHECKOUT_OPTIONS_INIT;
  checkout.checkout_strategy = GIT_CHECKOUT_FORCE | GIT_CHECKOUT_DONT_UPDATE_INDEX;
  checkout.target_directory = dir.c_str();
  check(git_checkout_tree(repo.get(), reinterpret_cast<const git_object*>(tree.get()), &checkout),
        "write the commit's files");
  bool has_submodules = false;
  const auto part = applicable_part(patch, has_submodules);
  if (part.find_first_not_of(" \n") != std::string::npos) {
    git_diff* diff_raw = nullptr;
    if (git_diff_from_buffer(&diff_raw, part.data(), part.size()) < 0) {
      throw_git_error("read the stored diff");
    }
    DiffPtr diff(diff_raw);
    git_apply_options apply = GIT_APPLY_OPTIONS_INIT;
    if (git_apply(repo.get(), diff.get(), GIT_APPLY_LOCATION_WORKDIR, &apply) < 0) {
      const git_error* failure = git_error_last();
      throw Error("the stored diff does not apply to commit {}: {}; the code state cannot be restored",
                  commit.substr(0, 12), failure != nullptr && failure->message ? failure->message : "unknown error");
    }
  }
  return !has_submodules;
}

} // namespace ej::git
