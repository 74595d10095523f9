// ej run --against: the candidate (the work tree) and a reference code state measured in the same
// session, in rounds of random order, each side built in its own work tree, judged on the pairs.
// The benchmark here reports a time that grows with the wall clock (the machine's drift, made
// deterministic): runs made one after the other see different machines, the two repeats of a
// round nearly the same one.
#include "support/ej_repo.h"
#include "support/runs.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <thread>

using namespace ej::test;
using nlohmann::json;

namespace {

// time_us = 100 * FACTOR * (1 + 0.1 * seconds since the origin): 10% slower with every second
// that passes, so that two repeats 100 ms apart differ by about 1%. In microseconds, a time the
// script can take (one longer than its repeat would make the run invalid).
std::string drifting_script(const std::filesystem::path& origin, const std::string& factor)
{
  return "f=" + factor + "\nnow=$(date +%s%N)\nstart=$(cat '" + origin.string() +
         "')\nawk -v f=$f -v now=$now -v start=$start 'BEGIN { printf \"time_us=%.6f\\n\", "
         "100 * f * (1 + 0.1 * (now - start) / 1e9) }'\n";
}

// A committed benchmark source, copied into out/ by the build step: each side runs what it built.
void set_up_drifting(const EjRepo& repo)
{
  const auto origin = repo.path() / ".git" / "origin";
  const auto now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  write_text(origin, std::to_string(now) + "\n");
  write_text(repo.path() / ".gitignore", "/out/\n");
  write_text(repo.path() / "bench.src", drifting_script(origin, "1.00"));
  git(repo.path(), {"add", ".gitignore", "bench.src"});
  git(repo.path(), {"commit", "-q", "-m", "drifting benchmark"});
  repo.ok({"bench", "add", "drift", "--repeat", "12", "--warmup", "1", "--min-effect", "2", "--build",
           "mkdir -p out && cp bench.src out/bench.sh", "--metric", "time_us=kv:time_us", "--", "sh",
           "out/bench.sh"});
}

// The outcome on the report's heading line: "run #3 against run #4 (HEAD), interleaved: equivalent".
std::string interleaved_outcome(const std::string& out)
{
  const auto at = out.find(", interleaved: ");
  REQUIRE(at != std::string::npos);
  const auto from = at + std::string(", interleaved: ").size();
  return out.substr(from, out.find_first_of(" \n", from) - from);
}

} // namespace

TEST_CASE("identical code under drift: sequential runs report a change, --against does not")
{
  EjRepo repo;
  set_up_drifting(repo);
  REQUIRE(repo.ej({"run", "drift", "--quiet"}).exit_code == 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100)); // the machine moves on
  REQUIRE(repo.ej({"run", "drift", "--quiet"}).exit_code == 0);
  const auto sequential = json::parse(repo.ok({"compare", "r1", "r2", "--json"}));
  CHECK(sequential["series"][0]["outcome"] == "regressed");

  // A fixed order of the rounds, as in the tests below: the outcome depends on the drift alone.
  const auto against =
      repo.ej({"run", "drift", "--against", "HEAD", "--repeat", "16", "--seed", "7", "--quiet"});
  INFO(against.out << against.err);
  REQUIRE(against.exit_code == 0);
  const auto outcome = interleaved_outcome(against.out);
  CHECK((outcome == "equivalent" || outcome == "inconclusive"));
  CHECK_THAT(against.out, Catch::Contains("interleaved, 16 rounds"));
  // Both sides are ordinary runs; the reference says which run it was interleaved with.
  CHECK(show_run(repo, 3)["status"] == "finished");
  const auto reference = show_run(repo, 4);
  CHECK(reference["status"] == "finished");
  CHECK_THAT(reference["label"].get<std::string>(), Catch::Contains("interleaved with run #3"));
  CHECK(measured_repeats(reference) == 16);
  // Each run names the session it was measured in, and its verdict.
  CHECK(reference["comparison"]["outcome"] == outcome);
  CHECK(reference["comparison"]["candidate"] == 3);
  CHECK_THAT(repo.ok({"show", "run", "3"}),
             Catch::Contains("compared:  candidate of an interleaved comparison with run #4, 16 rounds: " +
                             outcome + " ('ej compare r4 r3')"));
  CHECK(show_run(repo, 1)["comparison"].is_null());
  // ej compare of the pair judges it on the pairs, as the run did.
  const auto compared = repo.ok({"compare", "r4", "r3"});
  CHECK_THAT(compared, Catch::Contains("interleaved: " + outcome));
  // The reference's worktree is gone with the session.
  CHECK(std::filesystem::is_empty(repo.ej_dir() / "rerun"));
}

TEST_CASE("a real change in the work tree is found improved against HEAD under the same drift")
{
  EjRepo repo;
  set_up_drifting(repo);
  write_text(repo.path() / "bench.src", drifting_script(repo.path() / ".git" / "origin", "0.97"));
  const auto against =
      repo.ej({"run", "drift", "--against", "HEAD", "--repeat", "16", "--seed", "7", "--quiet"});
  INFO(against.out << against.err);
  REQUIRE(against.exit_code == 0);
  CHECK(interleaved_outcome(against.out) == "improved");
  CHECK_THAT(against.out, Catch::Contains("seed 7"));
  CHECK(measured_repeats(show_run(repo, 1)) == 16);
  CHECK(measured_repeats(show_run(repo, 2)) == 16);
}

TEST_CASE("until-decisive stops at the first decisive round of its planned maximum")
{
  EjRepo repo;
  set_up_drifting(repo);
  write_text(repo.path() / "bench.src", drifting_script(repo.path() / ".git" / "origin", "0.97"));
  const auto against =
      repo.ej({"run", "drift", "--against", "HEAD", "--until-decisive", "--max-rounds", "60", "--quiet"});
  INFO(against.out << against.err);
  REQUIRE(against.exit_code == 0);
  CHECK(interleaved_outcome(against.out) == "improved");
  CHECK_THAT(against.err, Catch::Contains("decisive after"));
  CHECK_THAT(against.out,
             Catch::Contains("until decisive (at most 60") && Catch::Contains("stopped: decisive"));
  CHECK(measured_repeats(show_run(repo, 1)) < 60);

  const auto budget_alone = repo.ej({"run", "drift", "--budget", "10s"});
  CHECK(budget_alone.exit_code == 2);
}

TEST_CASE("an until-decisive session stopped before its interval has a bound says so instead of printing "
          "infinities")
{
  EjRepo repo;
  set_up_drifting(repo);
  write_text(repo.path() / "bench.src", drifting_script(repo.path() / ".git" / "origin", "0.97"));
  // Three rounds can never reach 95% confidence: the signed-rank test's smallest p is then 0.25.
  const auto against =
      repo.ej({"run", "drift", "--against", "HEAD", "--until-decisive", "--max-rounds", "3", "--quiet"});
  INFO(against.out << against.err);
  REQUIRE(against.exit_code == 0);
  CHECK_THAT(against.out, Catch::Contains("(no bound yet after 3 rounds)"));
  CHECK_THAT(against.out, !Catch::Contains("inf"));
}

TEST_CASE("an until-decisive session stopped by its budget says the rounds a decision would likely need")
{
  EjRepo repo;
  set_up_drifting(repo);
  // A tenth of a second a repeat: the budget ends the session after ten to twenty rounds, more than
  // the six a fixed interval needs and fewer than the 36 or so the rule's looks at 1000 planned
  // rounds need to decide even a change that every round shows.
  const auto origin = repo.path() / ".git" / "origin";
  write_text(repo.path() / "bench.src", "sleep 0.1\n" + drifting_script(origin, "1.00"));
  git(repo.path(), {"commit", "-q", "-am", "slower repeats"});
  write_text(repo.path() / "bench.src", "sleep 0.1\n" + drifting_script(origin, "1.10"));
  const auto against = repo.ej({"run", "drift", "--against", "HEAD", "--until-decisive", "--max-rounds",
                                "1000", "--budget", "5s", "--seed", "5", "--quiet"});
  INFO(against.out << against.err);
  REQUIRE(against.exit_code == 0);
  REQUIRE_THAT(against.out, Catch::Contains("stopped: budget"));
  CHECK(interleaved_outcome(against.out) == "inconclusive");
  // The figure the text says is the one `next` proposes to measure.
  const auto next = show_run(repo, 1)["comparison"]["next"];
  REQUIRE(!next.empty());
  REQUIRE(next[0]["rounds"].is_number());
  const auto rounds = next[0]["rounds"].get<int>();
  CHECK_THAT(against.out, Catch::Contains("\n  a decision would likely need about " + std::to_string(rounds) +
                                          " rounds ('ej run drift --against r2 --repeat " +
                                          std::to_string(rounds) + "')"));
  // ej compare of the pair reports the same.
  CHECK_THAT(repo.ok({"compare", "r2", "r1"}),
             Catch::Contains("a decision would likely need about " + std::to_string(rounds) + " rounds"));
}

TEST_CASE("the interleaved verdict of a sweep names the combination of each of its lines")
{
  EjRepo repo;
  repo.ok({"bench", "add", "sweep", "--param", "n=1,2", "--", "sh", "-c", "true {n}"});
  const auto against = repo.ej({"run", "sweep", "--against", "HEAD", "--repeat", "3", "--quiet"});
  INFO(against.out << against.err);
  REQUIRE(against.exit_code == 0);
  CHECK_THAT(against.out, Catch::Contains("  wall_s (n=1): ") && Catch::Contains("  wall_s (n=2): "));
}

TEST_CASE("a note on a metric is told once a session, not once for every block of each side")
{
  EjRepo repo;
  repo.ok({"bench", "add", "b", "--metric", "t=regex:t=([0-9]+)", "--shell", "echo t=5"});
  const auto against = repo.ej({"run", "b", "--against", "HEAD", "--repeat", "3", "--block", "2"});
  INFO(against.out << against.err);
  REQUIRE(against.exit_code == 0);
  const std::string note = "ej: metric 't': lower is better by default";
  const auto first = against.err.find(note);
  CHECK(first != std::string::npos);
  CHECK(against.err.find(note, first + 1) == std::string::npos);
}

TEST_CASE(
    "Ctrl-C while the reference's code is restored ends ej run --against with 128 + SIGINT, nothing left")
{
  EjRepo repo;
  repo.ok({"bench", "add", "b", "--repeat", "2", "--", "true"});
  // git, as ej finds it on PATH, stops at `git worktree add` until the test has sent its signal.
  const auto shims = repo.path() / ".git" / "shims";
  const auto mark = repo.path() / ".git" / "restoring";
  std::filesystem::create_directories(shims);
  const auto real_git = run_command({"/bin/sh", "-c", "command -v git"}).out;
  write_text(shims / "git", "#!/bin/sh\ncase \"$*\" in *\"worktree add\"*) touch '" + mark.string() +
                                "'; sleep 30 ;; esac\nexec " + real_git.substr(0, real_git.find('\n')) +
                                " \"$@\"\n");
  std::filesystem::permissions(shims / "git", std::filesystem::perms::owner_all);
  CommandOptions options;
  options.cwd = repo.path();
  options.env = {{"PATH", shims.string() + ":" + std::getenv("PATH")}};
  const int ej = start_command({EJ_BINARY, "run", "b", "--against", "HEAD", "--quiet"}, options);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!std::filesystem::exists(mark) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE(std::filesystem::exists(mark));
  ::kill(ej, SIGINT);
  CHECK(wait_command(ej) == 128 + SIGINT);
  for (const auto& run : json::parse(repo.ok({"runs", "--json"}))) {
    CHECK(run["status"] != "started");
  }
  CHECK(git(repo.path(), {"worktree", "list", "--porcelain"}).find("rerun") == std::string::npos);
}
