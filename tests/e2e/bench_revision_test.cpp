// Benchmark revisions: an edit that changes only how runs are counted or judged (a --ci mark, a min
// effect, the repeat count) keeps the benchmark's runs comparable and its history whole; an edit
// that changes what is measured (the command, the warm-up) starts a new series.
#include "support/ej_repo.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

using namespace ej::test;
using nlohmann::json;

namespace {

// A time that is what the commit's speed.txt says, with 3% noise from a seeded awk (its count of
// executions kept under .git, so that the tree stays clean).
void add_speed_benchmark(const EjRepo& repo)
{
  write_text(
      repo.path() / "bench.sh",
      "n=$(cat .git/bench-count 2>/dev/null || echo 0); n=$((n+1)); echo $n > .git/bench-count\n"
      "awk -v base=\"$(cat speed.txt)\" -v seed=\"$n\" "
      "'BEGIN { srand(seed); t = base * (1 + 0.03 * (rand() - 0.5)); printf \"time_ms=%.4f\\n\", t }'\n");
  write_text(repo.path() / "speed.txt", "10.0\n");
  git(repo.path(), {"add", "bench.sh", "speed.txt"});
  git(repo.path(), {"commit", "-q", "-m", "the benchmark"});
  repo.ok({"bench", "add", "b", "--repeat", "3", "--metric", "time_ms=kv:time_ms", "--unit", "time_ms=ms",
           "--no-check-times", "--", "sh", "bench.sh"});
}

void commit_and_run(const EjRepo& repo, int index, const std::string& speed = "")
{
  write_text(repo.path() / ("step-" + std::to_string(index) + ".txt"), std::to_string(index) + "\n");
  git(repo.path(), {"add", "step-" + std::to_string(index) + ".txt"});
  if (!speed.empty()) {
    write_text(repo.path() / "speed.txt", speed + "\n");
    git(repo.path(), {"add", "speed.txt"});
  }
  git(repo.path(), {"commit", "-q", "-m", speed.empty() ? "change " + std::to_string(index) : "slow down"});
  repo.ok({"run", "b", "--quiet"});
}

} // namespace

TEST_CASE("marking a benchmark for CI keeps its history and its regressions, and a new warm-up starts anew")
{
  EjRepo repo;
  add_speed_benchmark(repo);
  for (int i = 1; i <= 24; ++i) {
    commit_and_run(repo, i, i == 13 ? "12.0" : "");
  }
  REQUIRE(json::parse(repo.ok({"regressions", "--json"})).size() == 1);

  // Only how runs are gated and judged changes: the series goes on.
  CHECK_THAT(repo.ok({"bench", "edit", "b", "--ci"}), Catch::Contains("revision 2"));
  repo.ok({"bench", "edit", "b", "--min-effect", "3", "--repeat", "4"});
  commit_and_run(repo, 25);
  const auto regressions = json::parse(repo.ok({"regressions", "--json"}));
  REQUIRE(regressions.size() == 1);
  CHECK(regressions[0]["subject"] == "slow down");
  const auto history = json::parse(repo.ok({"history", "b", "--json"}));
  CHECK(history["revision"] == 3);
  CHECK(history["alike_revisions"] == json::array({1}));
  CHECK(history["other_revisions"].empty());
  CHECK(history["series"][0]["points"].size() == 25);
  CHECK_THAT(repo.ok({"history", "b"}),
             Catch::Contains("runs of revision 1 of b are in the series: they measure what revision 3 "
                             "measures"));

  // A warm-up changes what a repeat measures: the older runs are left out, and said so.
  repo.ok({"bench", "edit", "b", "--warmup", "1"});
  commit_and_run(repo, 26);
  const auto anew = json::parse(repo.ok({"history", "b", "--json"}));
  CHECK(anew["revision"] == 4);
  CHECK(anew["series"][0]["points"].size() == 1);
  CHECK(anew["other_revisions"] == json::array({1, 3}));
  CHECK(json::parse(repo.ok({"history", "b", "--revision", "3", "--json"}))["series"][0]["points"].size() ==
        25);
}

TEST_CASE(
    "runs of revisions that differ only in how they are judged are compared with a note, and others are not")
{
  EjRepo repo;
  repo.ok({"bench", "add", "e", "--repeat", "3", "--shell", "echo t=5", "--metric", "t=regex:t=([0-9]+)"});
  repo.ok({"run", "e", "--quiet"});
  repo.ok({"bench", "edit", "e", "--min-effect", "3", "--no-ci", "--timeout", "60"});
  repo.ok({"run", "e", "--quiet"});
  const auto alike = repo.ej({"compare", "r1", "r2"});
  INFO(alike.out << alike.err);
  CHECK(alike.exit_code == 0);
  CHECK_THAT(alike.out + alike.err,
             Catch::Contains("revisions 1 and 2 of e measure alike (they differ in how runs are judged)"));

  repo.ok({"bench", "edit", "e", "--shell", "echo t=6"});
  repo.ok({"run", "e", "--quiet"});
  const auto other = repo.ej({"compare", "r2", "r3"});
  CHECK(other.exit_code != 0);
  CHECK_THAT(other.err, Catch::Contains("the benchmark changed in between; compare anyway with 'ej compare "
                                        "--force'"));
}
