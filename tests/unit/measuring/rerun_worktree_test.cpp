#include "measuring/rerun_worktree.h"
#include "measuring/run_target.h"
#include "support/command.h"
#include "support/temp_dir.h"

#include <catch2/catch.hpp>

using namespace ej;

TEST_CASE("a worktree made again where one was has no build of the one before, nor does its path after")
{
  test::TempDir dir;
  const auto repo = dir / "repo";
  test::make_git_repo(repo);
  const measuring::Workspace workspace{repo, repo / ".git" / "ej", repo / ".git"};
  const auto commit = test::git(repo, {"rev-parse", "HEAD"}).substr(0, 40);
  std::filesystem::path path;
  {
    const measuring::RerunWorktree first(workspace, commit);
    path = first.dir();
    // The build step ran in it: its marker says which code state is built there.
    test::write_text(measuring::local_build_marker(workspace.ej_dir, path, "b"), "state\n");
    test::write_text(measuring::local_build_marker(workspace.ej_dir, repo, "b"), "state\n");
  }
  CHECK_FALSE(std::filesystem::exists(measuring::local_build_marker(workspace.ej_dir, path, "b")));
  // One left by an ej that was killed: the next worktree at that path (the same commit in the same
  // process, as ej bisect restores GOOD for every commit) forgets it.
  test::write_text(measuring::local_build_marker(workspace.ej_dir, path, "b"), "state\n");
  {
    const measuring::RerunWorktree second(workspace, commit);
    REQUIRE(second.dir() == path);
    CHECK_FALSE(std::filesystem::exists(measuring::local_build_marker(workspace.ej_dir, path, "b")));
  }
  // The work tree's own build is another path's: kept.
  CHECK(std::filesystem::exists(measuring::local_build_marker(workspace.ej_dir, repo, "b")));
}
