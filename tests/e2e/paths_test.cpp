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

TEST_CASE("paths on the command line are relative to the current directory, for render, report and plan new")
{
  EjRepo repo;
  const auto sub = repo.path() / "docs" / "perf";
  std::filesystem::create_directories(sub);
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  // From a subdirectory, --out and --html name files there, as any tool reads a path.
  const auto rendered = run_ej(sub, {"plan", "render", "p", "--out", "p.md"});
  INFO(rendered.err);
  REQUIRE(rendered.exit_code == 0);
  CHECK(std::filesystem::exists(sub / "p.md"));
  CHECK(std::filesystem::exists(sub / "p.svg"));
  CHECK_FALSE(std::filesystem::exists(repo.path() / "p.md"));
  CHECK_THAT(rendered.out, Catch::Contains("docs/perf/p.md")); // said relative to the work tree root
  const auto report = run_ej(sub, {"report", "p", "--html", "r.html", "--out", "p.md"});
  INFO(report.err);
  REQUIRE(report.exit_code == 0);
  CHECK(std::filesystem::exists(sub / "r.html"));
  CHECK(run_ej(sub, {"plan", "render", "p", "--out", "p.md", "--check"}).exit_code == 0);
  // ../ from a subdirectory stays inside the repository: allowed; leaving it is refused.
  CHECK(run_ej(sub, {"plan", "render", "p", "--out", "../up.md"}).exit_code == 0);
  CHECK(std::filesystem::exists(repo.path() / "docs" / "up.md"));
  const auto outside = run_ej(sub, {"plan", "render", "p", "--out", "../../../outside.md"});
  CHECK(outside.exit_code == 1);
  CHECK_THAT(outside.err, Catch::Contains("outside the repository"));
  // plan new --doc: relative to the current directory, kept relative to the work tree root.
  REQUIRE(run_ej(sub, {"plan", "new", "q", "--title", "Q", "--doc", "q.md"}).exit_code == 0);
  CHECK_THAT(repo.ok({"plan", "list", "--json"}), Catch::Contains("\"docs/perf/q.md\""));
  repo.ok({"plan", "render", "q"}); // from the root, the plan's own path
  CHECK(std::filesystem::exists(sub / "q.md"));
}
