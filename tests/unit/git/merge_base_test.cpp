// The default branch and the merge base ej ci compares against by default.
#include "git/merge_base.h"
#include "support/command.h"
#include "support/temp_dir.h"
#include "util/error.h"

#include <catch2/catch.hpp>

using namespace ej;

namespace {

std::string commit_of_revision(const std::filesystem::path& dir, const std::string& revision)
{
  return test::git(dir, {"rev-parse", revision}).substr(0, 40);
}

void empty_commit(const std::filesystem::path& dir, const std::string& subject)
{
  test::git(dir, {"commit", "-q", "--allow-empty", "-m", subject});
}

} // namespace

TEST_CASE("the default branch is origin/HEAD's target, else main, else master, else none")
{
  test::TempDir dir;
  test::make_git_repo(dir.path()); // on main
  auto found = git::default_branch(dir.path());
  REQUIRE(found);
  CHECK(found->name == "main");
  CHECK(found->commit == commit_of_revision(dir.path(), "main"));

  test::git(dir.path(), {"branch", "-m", "main", "master"});
  found = git::default_branch(dir.path());
  REQUIRE(found);
  CHECK(found->name == "master");

  test::git(dir.path(), {"branch", "-m", "master", "trunk"});
  CHECK_FALSE(git::default_branch(dir.path()));

  // A clone's origin/HEAD names the remote's default branch, whatever it is called.
  test::TempDir clone_dir;
  const auto clone = clone_dir.path() / "clone";
  test::git(clone_dir.path(), {"clone", "-q", dir.path().string(), clone.string()});
  found = git::default_branch(clone);
  REQUIRE(found);
  CHECK(found->name == "origin/trunk");
  CHECK(found->commit == commit_of_revision(dir.path(), "trunk"));
}

TEST_CASE("the merge base is where a branch left the default branch, nullopt for unrelated histories")
{
  test::TempDir dir;
  test::make_git_repo(dir.path());
  empty_commit(dir.path(), "on main");
  const auto fork_point = commit_of_revision(dir.path(), "HEAD");
  test::git(dir.path(), {"checkout", "-q", "-b", "feature"});
  empty_commit(dir.path(), "feature work");
  test::git(dir.path(), {"checkout", "-q", "main"});
  empty_commit(dir.path(), "main moves on");

  CHECK(git::merge_base(dir.path(), "feature", "main") == fork_point);
  CHECK(git::merge_base(dir.path(), commit_of_revision(dir.path(), "feature"), "main") == fork_point);

  test::git(dir.path(), {"checkout", "-q", "--orphan", "unrelated"});
  empty_commit(dir.path(), "a history of its own");
  CHECK_FALSE(git::merge_base(dir.path(), "unrelated", "main"));
  CHECK_THROWS_AS(git::merge_base(dir.path(), "no-such-branch", "main"), Error);
}
