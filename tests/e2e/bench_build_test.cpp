// A benchmark's build step (bench add --build): run before the repeats, never timed, kept with
// the run, reused while the code state is the same; and untracked files kept with their contents.
#include "support/ej_repo.h"
#include "support/runs.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace ej::test;
using nlohmann::json;

TEST_CASE(
    "a local build step runs before the repeats, untimed, and is reused while the code state is the same")
{
  EjRepo repo;
  const auto count = repo.path() / ".git" / "builds";
  write_text(repo.path() / ".gitignore", "/out.txt\n");
  git(repo.path(), {"add", ".gitignore"});
  git(repo.path(), {"commit", "-q", "-m", "ignore"});
  // The build takes a second; the repeats take nothing: a timed build would show in wall_s.
  repo.ok({"bench", "add", "b", "--repeat", "2", "--build",
           "sleep 1; echo built >> '" + count.string() + "'; echo value=7 > out.txt; echo building-now",
           "--metric", "value=kv:value", "--", "cat", "out.txt"});
  CHECK_THAT(repo.ok({"bench", "show", "b"}), Catch::Contains("build:    sh -c sleep 1;"));
  const auto first = repo.ej({"run", "b"});
  INFO(first.err);
  REQUIRE(first.exit_code == 0);
  CHECK_THAT(first.out, Catch::Contains("building-now"));
  auto run = show_run(repo, 1, true);
  CHECK(run["outputs"]["build"]["state"] == "built");
  const double build_wall = run["outputs"]["build"]["wall_s"].get<double>();
  CHECK(build_wall >= 1.0);
  CHECK_THAT(run["build_log"].get<std::string>(), Catch::Contains("building-now"));
  for (const auto wall : samples_of(run, "wall_s")) {
    CHECK(wall < build_wall); // a repeat that held the build would last at least as long
  }
  CHECK(samples_of(run, "value") == std::vector<double>{7, 7});

  const auto second = repo.ej({"run", "b"});
  REQUIRE(second.exit_code == 0);
  CHECK_THAT(second.err, Catch::Contains("build reused"));
  CHECK(show_run(repo, 2)["outputs"]["build"]["state"] == "reused");
  CHECK(read_text(count) == "built\n");

  // A change of the code state builds again; --no-build skips the step.
  write_text(repo.path() / "notes.txt", "a new untracked file changes the state\n");
  REQUIRE(repo.ej({"run", "b"}).exit_code == 0);
  CHECK(show_run(repo, 3)["outputs"]["build"]["state"] == "built");
  REQUIRE(repo.ej({"run", "b", "--no-build"}).exit_code == 0);
  CHECK(show_run(repo, 4)["outputs"]["build"]["state"] == "skipped");
  CHECK(read_text(count) == "built\nbuilt\n");
}

TEST_CASE("a failing build ends the run as build-failed with the command and the tail of its log")
{
  EjRepo repo;
  repo.ok({"bench", "add", "broken", "--repeat", "3", "--build",
           "echo compiling kernel.cu; echo 'kernel.cu:3: error: expected ;' >&2; exit 2", "--", "true"});
  const auto result = repo.ej({"run", "broken"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("run #1 build-failed") && Catch::Contains("exited with 2") &&
                             Catch::Contains("kernel.cu:3: error: expected ;"));
  const auto run = show_run(repo, 1, true);
  CHECK(run["status"] == "build-failed");
  CHECK_THAT(run["reason"].get<std::string>(), Catch::Contains("echo compiling kernel.cu"));
  CHECK(measured_repeats(run) == 0);
  CHECK(run["outputs"]["build"]["state"] == "failed");
  CHECK_THAT(run["build_log"].get<std::string>(), Catch::Contains("compiling kernel.cu"));
}

TEST_CASE("untracked files are kept with their contents in the code state, those over the limit by name")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  write_text(repo.path() / "src" / "new_kernel.cu", "__global__ void fresh() {}\n");
  write_text(repo.path() / "big.bin", std::string(2 * 1024 * 1024, 'x'));
  const auto made = repo.ej({"try", "with new files", "--plan", "p"});
  REQUIRE(made.exit_code == 0);
  CHECK_THAT(made.err,
             Catch::Contains("warning: 1 untracked file(s) are too large") && Catch::Contains("big.bin"));
  const auto shown = json::parse(repo.ok({"show", "1", "--json", "--diff"}));
  const std::string diff = shown["diff"];
  CHECK_THAT(diff,
             Catch::Contains("+++ b/src/new_kernel.cu") && Catch::Contains("+__global__ void fresh() {}"));
  CHECK_THAT(diff, Catch::Contains("# untracked files not stored") && Catch::Contains("#   big.bin"));
  CHECK(diff.find(std::string(100, 'x')) == std::string::npos);
}
