#include "support/ej_repo.h"

#include <catch2/catch.hpp>

using namespace ej::test;

TEST_CASE("bench add refuses a working directory or result file outside the repository")
{
  EjRepo repo;
  for (const auto& args : std::vector<std::vector<std::string>>{
         {"bench", "add", "a", "--cwd", "/tmp", "--", "true"},
         {"bench", "add", "b", "--cwd", "../..", "--", "true"},
         {"bench", "add", "c", "--metric", "x=json:/x@/etc/passwd", "--", "true"},
         {"bench", "add", "d", "--metric", "x=json:/x@../outside.json", "--", "true"}}) {
    const auto result = repo.ej(args);
    INFO(args[2] << ": " << result.err);
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.err, Catch::Contains("leaves the repository"));
  }
  CHECK(repo.ok({"bench", "list", "--json"}) == "[]\n");
  repo.ok({"bench", "add", "inside", "--cwd", "sub/dir", "--metric", "x=json:/x@out/r.json", "--", "true"});
}

TEST_CASE("a plan document may live under a directory whose name starts like .git, but not in .git or as an .svg")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"plan", "render", "p", "--out", ".github/perf/p.md"});
  CHECK(std::filesystem::exists(repo.path() / ".github" / "perf" / "p.md"));
  CHECK(std::filesystem::exists(repo.path() / ".github" / "perf" / "p.svg"));
  const auto in_git = repo.ej({"plan", "render", "p", "--out", ".git/p.md"});
  CHECK(in_git.exit_code == 1);
  CHECK_THAT(in_git.err, Catch::Contains("inside .ej/ or .git/"));
  const auto svg = repo.ej({"plan", "render", "p", "--out", "docs/p.svg"});
  CHECK(svg.exit_code == 1);
  CHECK_THAT(svg.err, Catch::Contains(".svg"));
}
