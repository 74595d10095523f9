// The line a benchmark's history follows: a branch's first parents, as git log --first-parent.
#include "git/history.h"
#include "support/command.h"
#include "support/temp_dir.h"
#include "util/error.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace ej;

namespace {

std::string head_of(const std::filesystem::path& dir, const std::string& revision)
{
  return test::git(dir, {"rev-parse", revision}).substr(0, 40);
}

void commit(const std::filesystem::path& dir, const std::string& subject)
{
  test::git(dir, {"commit", "-q", "--allow-empty", "-m", subject + "\n\nthe body"});
}

} // namespace

TEST_CASE("the first-parent line lists a branch's own commits oldest first, a merge as one of them")
{
  test::TempDir dir;
  test::make_git_repo(dir.path());
  commit(dir.path(), "one");
  test::git(dir.path(), {"checkout", "-q", "-b", "side"});
  commit(dir.path(), "on the side");
  test::git(dir.path(), {"checkout", "-q", "-"});
  commit(dir.path(), "two");
  test::git(dir.path(), {"merge", "-q", "--no-ff", "-m", "merge side", "side"});

  const auto line = git::first_parent_history(dir.path(), "HEAD");
  const auto expected = test::git(dir.path(), {"rev-list", "--first-parent", "--reverse", "HEAD"});
  std::string listed;
  for (const auto& c : line) {
    listed += c.id + "\n";
  }
  CHECK(listed == expected);
  REQUIRE(line.size() >= 3);
  CHECK(line.back().subject == "merge side");
  CHECK(line[line.size() - 2].subject == "two");
  CHECK(line.back().time_s > 0);
  for (const auto& c : line) {
    CHECK(c.subject != "on the side");
  }
  CHECK(git::first_parent_history(dir.path(), "side").back().subject == "on the side");
  CHECK(git::resolve_commit(dir.path(), "side") == head_of(dir.path(), "side"));
  CHECK_FALSE(git::resolve_commit(dir.path(), "no-such-branch"));
  CHECK_THROWS_WITH(git::first_parent_history(dir.path(), "no-such-branch"),
                    Catch::Contains("'no-such-branch' names no commit of this repository"));
}

TEST_CASE("the current branch is HEAD's, and none when HEAD is detached")
{
  test::TempDir dir;
  test::make_git_repo(dir.path());
  const auto branch = test::git(dir.path(), {"symbolic-ref", "--short", "HEAD"});
  CHECK(git::current_branch(dir.path()) == branch.substr(0, branch.size() - 1));
  test::git(dir.path(), {"checkout", "-q", "--detach"});
  CHECK_FALSE(git::current_branch(dir.path()));
}
