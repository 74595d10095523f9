// ej bisect: the first commit of a performance step between GOOD and BAD, found by building the
// commits between in worktrees and measuring each interleaved against GOOD. The benchmark prints a
// time of what its build step copied out of speed.txt (so a run measures only what was built),
// with 5% noise; the build fails where builds-ok is missing. A printed time, not the wall clock: a
// commit is good when its interval against GOOD lies within half the step, which the wall clock
// of short processes on two loaded cores (the suite runs -j2) does not promise in a few rounds,
// and the step is 3x.
#include "support/built_speed.h"
#include "support/ej_repo.h"
#include "support/temp_dir.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using namespace ej::test;
using nlohmann::json;

TEST_CASE("ej bisect names the commit where a benchmark got 3x slower, skipping one that does not build, "
          "and ej history shows it")
{
  EjRepo repo;
  add_built_speed_benchmark(repo);
  const auto good = commit_speed(repo, "10", "the reference code");
  commit_speed(repo, "10", "a refactoring");
  const auto broken = commit_speed(repo, "10", "breaks the build", BuildStep::Fails);
  commit_speed(repo, "10", "fixes the build");
  const auto slower = commit_speed(repo, "30", "three times slower");
  commit_speed(repo, "30", "a comment");

  const auto result = repo.ej({"bisect", "speed", good.substr(0, 12), "HEAD", "--max-rounds", "12"});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::StartsWith("first bad commit: " + slower + " three times slower; step +"));
  CHECK_THAT(result.out, Catch::Contains(" in time_ms\n"));
  CHECK_THAT(result.out,
             Catch::Contains("its parent " + git(repo.path(), {"rev-parse", slower + "~1"}).substr(0, 10) +
                             " \"fixes the build\" is good: "));
  CHECK_THAT(result.out, Catch::Contains("skipped " + broken.substr(0, 10) +
                                         " \"breaks the build\": its build failed (run "));
  // Progress on stderr: which commit, its verdict, the range left.
  CHECK_THAT(result.err, Catch::Contains("ej: bisect: BAD against GOOD: regressed +"));
  CHECK_THAT(result.err, Catch::Contains("ej: bisect: measuring " + broken.substr(0, 10)));
  CHECK_THAT(result.err, Catch::Contains("is skipped, its build failed"));
  CHECK_THAT(result.err, Catch::Contains("ej: bisect: " + slower.substr(0, 10) + " is bad: +"));
  CHECK_THAT(result.err, Catch::Contains("the first bad commit is in ("));

  // Every comparison is two ordinary runs tied by an interleaved comparison, judged in the band
  // the bisection used; the skipped commit's run says its build failed.
  const auto runs = json::parse(repo.ok({"runs", "--json"}));
  CHECK(runs.size() == 10); // BAD, the broken commit, and three commits between: each with GOOD
  std::size_t build_failed = 0;
  for (const auto& run : runs) {
    build_failed += run["status"] == "build-failed" ? 1 : 0;
  }
  CHECK(build_failed == 1);
  CHECK_THAT(repo.ok({"compare", "r1", "r2"}), Catch::Contains("interleaved: regressed"));
  // The refactoring (measured second, after the broken commit) was judged within half the step.
  CHECK_THAT(repo.ok({"compare", "r5", "r6"}), Catch::Contains("interleaved: equivalent (min effect "));
  const auto comparison = json::parse(repo.ok({"compare", "r5", "r6", "--json"}));
  CHECK(comparison["metric"] == "time_ms");
  CHECK(comparison["min_effect_pct"].get<double>() > 40); // half of a 3x step: about 73%

  // The answer is recorded: ej history lists it, with the runs that found it.
  const auto history = repo.ok({"history", "speed"});
  CHECK_THAT(history, Catch::Contains("located by ej bisect (1):"));
  CHECK_THAT(history,
             Catch::Contains("first bad commit " + slower.substr(0, 10) + " \"three times slower\": +"));
  const auto history_json = json::parse(repo.ok({"history", "speed", "--json"}));
  REQUIRE(history_json["series"].size() == 1);
  const auto& located = history_json["series"][0]["located"];
  REQUIRE(located.size() == 1);
  CHECK(located[0]["first_bad"] == slower);
  CHECK(located[0]["good"] == good);
  CHECK(located[0]["candidates"] == json::array({slower}));
  REQUIRE(located[0]["skipped"].size() == 1);
  CHECK(located[0]["skipped"][0]["commit"] == broken);
  CHECK(located[0]["change"]["estimate"].get<double>() > 0.5); // a log ratio: at least 1.6x
  CHECK(located[0]["candidate_run"].is_number());
  // The journal stays consistent: the event is projected as a rebuild projects it.
  CHECK(repo.ej({"fsck"}).exit_code == 0);
}

TEST_CASE("ej bisect gives the range when only a commit that does not build stands before the step, "
          "and exit 1")
{
  EjRepo repo;
  add_built_speed_benchmark(repo);
  const auto good = commit_speed(repo, "10", "the reference code");
  const auto broken = commit_speed(repo, "30", "slower and broken", BuildStep::Fails);
  const auto bad = commit_speed(repo, "30", "fixes the build");

  const auto result = repo.ej({"bisect", "speed", good, bad, "--max-rounds", "12", "--json"});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 1);
  const auto answer = json::parse(result.out);
  CHECK(answer["outcome"] == "ambiguous");
  CHECK(answer["first_bad"].is_null());
  REQUIRE(answer["candidates"].size() == 2);
  CHECK(answer["candidates"][0]["commit"] == broken);
  CHECK(answer["candidates"][1]["commit"] == bad);
  REQUIRE(answer["measured"].size() == 1);
  CHECK(answer["measured"][0]["verdict"] == "skipped");
  CHECK_THAT(answer["measured"][0]["why"].get<std::string>(), Catch::StartsWith("its build failed"));
  CHECK(answer["bad_against_good"]["comparison"]["outcome"] == "regressed");
  // Its next step is the bisection's: `ej run --against GOOD` would measure the work tree instead.
  const auto& next = answer["bad_against_good"]["comparison"]["next"];
  REQUIRE(next.size() == 1);
  CHECK(next[0]["kind"] == "none");
  CHECK_THAT(next[0]["why"].get<std::string>(), Catch::StartsWith("a step of ej bisect"));
  CHECK(answer["step"]["outcome"] == "regressed");
  CHECK(answer["located_event"].is_string());

  const auto text = repo.ok({"history", "speed"});
  CHECK_THAT(text,
             Catch::Contains("first bad commit one of " + broken.substr(0, 10) + ", " + bad.substr(0, 10)));
}

TEST_CASE("ej bisect says there is no step when BAD is not decisively apart from GOOD, and exit 1")
{
  EjRepo repo;
  add_built_speed_benchmark(repo);
  const auto good = commit_speed(repo, "10", "the reference code");
  commit_speed(repo, "10", "the same speed");
  // Two rounds decide nothing: inconclusive, never a guess.
  const auto result = repo.ej({"bisect", "speed", good, "HEAD", "--max-rounds", "2"});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.out, Catch::StartsWith("no step to bisect in time_ms: BAD "));
  CHECK_THAT(result.out, Catch::Contains(" is inconclusive\n"));
  CHECK_THAT(repo.ok({"history", "speed"}), !Catch::Contains("located by ej bisect"));
}

TEST_CASE(
    "ej bisect refuses GOOD and BAD that are not an older and a newer commit of one line, and bad options")
{
  EjRepo repo;
  add_built_speed_benchmark(repo);
  const auto good = commit_speed(repo, "10", "the reference code");
  const auto bad = commit_speed(repo, "30", "slower");
  git(repo.path(), {"checkout", "-q", "-b", "side", good});
  const auto side = commit_speed(repo, "10", "on a side branch");
  git(repo.path(), {"checkout", "-q", "main"});

  const auto swapped = repo.ej({"bisect", "speed", bad, good});
  CHECK(swapped.exit_code == 2);
  CHECK_THAT(swapped.err, Catch::Contains("is not on BAD's first-parent line") &&
                              Catch::Contains("git log --first-parent"));
  CHECK(repo.ej({"bisect", "speed", side, bad}).exit_code == 2);
  const auto same = repo.ej({"bisect", "speed", bad, "HEAD"});
  CHECK(same.exit_code == 2);
  CHECK_THAT(same.err, Catch::Contains("GOOD and BAD are the same commit"));
  const auto unknown = repo.ej({"bisect", "speed", "no-such-tag", "HEAD"});
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("GOOD 'no-such-tag' names no commit"));
  const auto misplaced =
      repo.ej({"bisect", "speed", good, bad, "--on", "ssh:gpu-box", "--slurm-arg=--time=5"});
  CHECK(misplaced.exit_code == 2);
  CHECK_THAT(misplaced.err, Catch::Contains("--slurm-arg goes with --on slurm[:PARTITION]"));
  CHECK(repo.ej({"bisect", "speed", good, bad, "--max-rounds", "0"}).exit_code == 2);
  CHECK(repo.ej({"bisect", "speed", good}).exit_code == 2);
  const auto metric = repo.ej({"bisect", "speed", good, bad, "--metric", "tok_s"});
  CHECK(metric.exit_code == 2);
  CHECK_THAT(metric.err, Catch::Contains("--metric tok_s: benchmark speed measures no such metric"));
  CHECK(repo.ej({"bisect", "nope", good, bad}).exit_code != 0);
  CHECK(repo.ok({"runs", "--json"}) == "[]\n"); // nothing measured by a refused ej bisect
}
