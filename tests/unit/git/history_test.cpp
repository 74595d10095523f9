// The line a benchmark's history follows: a branch's first parents, as git log --first-parent.
#include "git/history.h"
#include "support/command.h"
#include "support/temp_dir.h"
#include "util/error.h"
#include "util/fs.h"

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

TEST_CASE(
    "a cached first-parent line is the line git gives, after new commits, a rewrite and a damaged cache")
{
  test::TempDir dir;
  test::make_git_repo(dir.path());
  for (const auto* subject : {"one", "two", "three"}) {
    commit(dir.path(), subject);
  }
  const auto cache = dir.path() / ".git" / "line.cache";
  const auto same_as_git = [&](const std::string& revision) {
    const auto cached = git::first_parent_history(dir.path(), revision, cache);
    const auto uncached = git::first_parent_history(dir.path(), revision);
    REQUIRE(cached.size() == uncached.size());
    for (std::size_t i = 0; i < cached.size(); ++i) {
      CHECK(cached[i].id == uncached[i].id);
      CHECK(cached[i].subject == uncached[i].subject);
      CHECK(cached[i].time_s == uncached[i].time_s);
    }
    return cached;
  };
  CHECK(same_as_git("HEAD").size() == 4); // the repository's first commit and three
  REQUIRE(std::filesystem::exists(cache));
  // What the cache holds is read from it, not from git: a subject changed there shows.
  auto text = *util::read_file(cache);
  text.replace(text.find(" two\n"), 5, " TWO\n");
  test::write_text(cache, text);
  CHECK(git::first_parent_history(dir.path(), "HEAD", cache)[2].subject == "TWO");
  std::filesystem::remove(cache);

  commit(dir.path(), "four");
  CHECK(same_as_git("HEAD").back().subject == "four");
  CHECK(same_as_git("HEAD~2").back().subject == "two");
  // History rewritten under the cache: the line joins it where the commits are still the same.
  test::git(dir.path(), {"reset", "-q", "--hard", "HEAD~2"});
  commit(dir.path(), "three again");
  CHECK(same_as_git("HEAD").back().subject == "three again");
  // A cache that is not one ej wrote is read again from git.
  test::write_text(cache, "ej first-parent line 1\nnot a line\n");
  CHECK(same_as_git("HEAD").size() == 4);
  test::write_text(cache, "something else entirely");
  CHECK(same_as_git("HEAD").size() == 4);
}
