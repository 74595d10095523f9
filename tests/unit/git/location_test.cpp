// The work tree and common directory found without libgit2 are the ones git itself reports, in
// plain repositories, linked worktrees, submodule-style .git files, bare repositories, and with
// git's environment variables.
#include "git/repository.h"
#include "support/command.h"
#include "support/temp_dir.h"
#include "util/strings.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <optional>
#include <string>

using namespace ej;

namespace {

// Sets an environment variable for the scope of a test (git's children see it too).
class ScopedEnv {
public:
  ScopedEnv(const char* name, const std::string& value) : m_name(name)
  {
    if (const char* old = std::getenv(name)) {
      m_old = old;
    }
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv()
  {
    if (m_old) {
      ::setenv(m_name, m_old->c_str(), 1);
    } else {
      ::unsetenv(m_name);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
  const char* m_name;
  std::optional<std::string> m_old;
};

// What `git rev-parse` says from dir: the work tree's top, the common directory and the git
// directory.
git::RepositoryLocation as_git_says(const std::filesystem::path& dir)
{
  const auto top = test::git(dir, {"rev-parse", "--show-toplevel"});
  const auto common = test::git(dir, {"rev-parse", "--path-format=absolute", "--git-common-dir"});
  const auto git_dir = test::git(dir, {"rev-parse", "--path-format=absolute", "--git-dir"});
  return {std::filesystem::canonical(std::string(util::trim(top))),
          std::filesystem::canonical(std::string(util::trim(common))),
          std::filesystem::canonical(std::string(util::trim(git_dir)))};
}

void check_same(const std::filesystem::path& dir)
{
  const auto found = git::find_repository(dir);
  REQUIRE(found);
  const auto expected = as_git_says(dir);
  CHECK(found->work_tree == expected.work_tree);
  CHECK(found->common_dir == expected.common_dir);
  CHECK(found->git_dir == expected.git_dir);
}

} // namespace

TEST_CASE("a plain repository is found from its root and from a directory deep inside it")
{
  test::TempDir dir;
  test::make_git_repo(dir.path());
  std::filesystem::create_directories(dir / "a" / "b");
  check_same(dir.path());
  check_same(dir / "a" / "b");
  CHECK(git::find_repository(dir / "a" / "b")->common_dir == std::filesystem::canonical(dir / ".git"));
}

TEST_CASE("a linked worktree is its own work tree and shares the repository's common directory")
{
  test::TempDir dir;
  test::make_git_repo(dir / "main");
  test::git(dir / "main", {"worktree", "add", "-q", "-b", "other", (dir / "linked").string()});
  std::filesystem::create_directories(dir / "linked" / "sub");
  check_same(dir / "linked" / "sub");
  CHECK(git::find_repository(dir / "linked")->work_tree == std::filesystem::canonical(dir / "linked"));
  CHECK(git::find_repository(dir / "linked")->common_dir ==
        std::filesystem::canonical(dir / "main" / ".git"));
}

TEST_CASE("a .git file naming a repository elsewhere is followed, as for a submodule")
{
  test::TempDir dir;
  test::make_git_repo(dir / "tree");
  std::filesystem::rename(dir / "tree" / ".git", dir / "store.git");
  test::git(dir / "store.git", {"config", "core.worktree", (dir / "tree").string()});
  test::write_text(dir / "tree" / ".git", "gitdir: ../store.git\n");
  check_same(dir / "tree");
}

TEST_CASE("a bare repository and the inside of a .git directory have no work tree")
{
  test::TempDir dir;
  test::run_command({"git", "init", "-q", "--bare", (dir / "bare.git").string()});
  CHECK_FALSE(git::find_repository(dir / "bare.git"));
  test::make_git_repo(dir / "repo");
  CHECK_FALSE(git::find_repository(dir / "repo" / ".git" / "refs"));
  CHECK_FALSE(git::find_repository(dir.path()));
}

TEST_CASE("GIT_DIR and GIT_WORK_TREE name the repository and its work tree, as for git")
{
  test::TempDir dir;
  test::make_git_repo(dir / "repo");
  std::filesystem::create_directories(dir / "elsewhere");
  {
    ScopedEnv git_dir("GIT_DIR", (dir / "repo" / ".git").string());
    check_same(dir / "elsewhere"); // without GIT_WORK_TREE, the current directory is the top
    ScopedEnv work_tree("GIT_WORK_TREE", (dir / "repo").string());
    check_same(dir / "elsewhere");
  }
  ScopedEnv git_dir("GIT_DIR", (dir / "nothing").string());
  CHECK_THROWS_WITH(git::find_repository(dir / "elsewhere"), Catch::Contains("GIT_DIR"));
}

TEST_CASE("the walk up stops at GIT_CEILING_DIRECTORIES")
{
  test::TempDir dir;
  test::make_git_repo(dir.path());
  std::filesystem::create_directories(dir / "a" / "b");
  ScopedEnv ceiling("GIT_CEILING_DIRECTORIES", std::filesystem::canonical(dir / "a").string());
  CHECK_FALSE(git::find_repository(dir / "a" / "b"));
  CHECK(git::find_repository(dir / "a")); // the ceiling itself is looked at, as git does
  CHECK(test::run_command({"git", "-C", (dir / "a" / "b").string(), "rev-parse", "--show-toplevel"})
            .exit_code != 0);
}
