// Results that can't be gamed, in an interleaved session (docs/statistics.md): `ej run --against`
// holds the candidate's output against the reference's, and its values against their floors, as a
// sequential verdict does. Each benchmark here is committed as the baseline's code and changed in
// the work tree into a candidate that cheats; the session measures both code states together.
#include "support/ej_repo.h"
#include "support/runs.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace ej::test;
using nlohmann::json;

namespace {

// A plan p whose baseline is run #1 of the committed `reference` script; the work tree then holds
// `candidate`, recorded as attempt #2, measured against the baseline's code: run #2 the candidate,
// run #3 the reference. Returns what the session printed.
CommandResult cheat_against_baseline(const EjRepo& repo, const std::string& reference,
                                     const std::string& candidate, std::vector<std::string> checks)
{
  write_text(repo.path() / "bench.sh", reference);
  git(repo.path(), {"add", "bench.sh"});
  git(repo.path(), {"commit", "-q", "-m", "benchmark"});
  repo.ok({"plan", "new", "p", "--title", "Paired gaming"});
  std::vector<std::string> args{"bench", "add", "b", "--shell", "sh bench.sh", "--repeat", "4"};
  args.insert(args.end(), checks.begin(), checks.end());
  repo.ok(args);
  repo.ok({"try", "reference", "--plan", "p"});
  repo.ok({"run", "b", "--attempt", "1", "--quiet"});
  repo.ok({"plan", "baseline", "p", "--run", "1"});
  write_text(repo.path() / "bench.sh", candidate);
  repo.ok({"try", "candidate", "--plan", "p"});
  auto session =
      repo.ej({"run", "b", "--against", "baseline", "--attempt", "2", "--repeat", "6", "--seed", "1"});
  INFO(session.out << session.err);
  REQUIRE(session.exit_code == 0);
  return session;
}

// Whether `ej compare REFERENCE CANDIDATE --json` judges the session as its run shows it: the same
// object, but for the layout's version at the top of one and the session's purpose in the other.
bool compared_as_shown(const EjRepo& repo, json shown)
{
  auto compared = json::parse(repo.ok({"compare", "r3", "r2", "--json"}));
  compared.erase("schema");
  shown.erase("purpose");
  return compared == shown;
}

} // namespace

TEST_CASE("an interleaved session whose candidate's output differs from the reference's is invalid, never "
          "adopted")
{
  EjRepo repo;
  // The candidate skips its work: five times faster in wall time, and a wrong sum.
  const auto session = cheat_against_baseline(repo, "sleep 0.05; echo 'sum=4950'\n", "echo 'sum=0'\n",
                                              {"--same-output", "stdout"});
  CHECK_THAT(session.out, Catch::Contains("interleaved: inconclusive") &&
                              Catch::Contains("invalid: output differs from the reference's"));

  // The session's verdict, as each run shows it and as ej compare judges it again.
  const auto comparison = show_run(repo, 2)["comparison"];
  CHECK(comparison["candidate"] == 2);
  CHECK(comparison["validity"] == "invalid");
  CHECK(comparison["invalid_reason"] == "output differs from the reference's");
  CHECK(comparison["flags"] == json::array());
  CHECK(comparison["outcome"] == "inconclusive"); // wall_s fell 5x, yet it is not better
  for (const auto& series : comparison["series"]) {
    CHECK(series["outcome"] == "inconclusive");
  }
  REQUIRE(comparison["next"].size() == 1);
  CHECK(comparison["next"][0]["kind"] == "fix_figures");
  CHECK(comparison["next"][0]["command"].is_null());
  CHECK_THAT(comparison["next"][0]["why"].get<std::string>(),
             Catch::StartsWith("invalid: output differs from the reference's"));
  CHECK(show_run(repo, 3)["comparison"] == comparison);
  CHECK(compared_as_shown(repo, comparison));
  CHECK_THAT(repo.ok({"compare", "r3", "r2"}),
             Catch::Contains("invalid: output differs from the reference's"));
  CHECK_THAT(repo.ok({"show", "run", "2"}),
             Catch::Contains("6 rounds: inconclusive, invalid: output differs from the reference's"));

  // The attempt, judged on the session's pairs, is rejected; the plan's document says why.
  const auto judged = json::parse(repo.ok({"judge", "2", "--json"}));
  CHECK(judged["verdict"]["reference_run"] == 3);
  CHECK(judged["verdict"]["validity"] == "invalid");
  CHECK(judged["verdict"]["invalid_reason"] == "output differs from the baseline's");
  CHECK(judged["verdict"]["outcome"] == "inconclusive");
  CHECK(judged["verdict"]["next"][0]["kind"] == "fix_figures");
  CHECK(judged["proposed_status"] == "rejected");
  CHECK_THAT(repo.ok({"plan", "render", "p", "--stdout"}),
             Catch::Contains("Invalid: output differs from the baseline's. Against run #1's code, measured "
                             "alongside as run #3"));
}

TEST_CASE("an interleaved session with a value beyond its --floor is flagged suspect, keeps its outcome and "
          "proposes no adoption")
{
  EjRepo repo;
  // The candidate reports a copy faster than the hardware can make it.
  const auto session = cheat_against_baseline(
      repo, "sleep 0.01; echo \"copy_ms=2.$(( $$ % 10 ))\"\n", "echo \"copy_ms=0.1$(( $$ % 10 ))\"\n",
      {"--metric", "copy_ms=regex:copy_ms=([0-9.]+)", "--unit", "copy_ms=ms", "--floor", "copy_ms=0.8"});
  CHECK_THAT(session.out, Catch::Contains("interleaved: improved") &&
                              Catch::Contains("flagged: implausible: copy_ms 0.1"));

  const auto comparison = show_run(repo, 2)["comparison"];
  CHECK(comparison["validity"] == "suspect");
  CHECK(comparison["invalid_reason"].is_null());
  REQUIRE(comparison["flags"].size() == 1);
  CHECK_THAT(comparison["flags"][0].get<std::string>(),
             Catch::StartsWith("implausible: copy_ms 0.1") &&
                 Catch::EndsWith("below its floor 0.8 ms (--floor)"));
  CHECK(comparison["outcome"] == "improved"); // it stands, flagged
  REQUIRE(comparison["next"].size() == 1);
  CHECK(comparison["next"][0]["kind"] == "fix_figures");
  CHECK(compared_as_shown(repo, comparison));

  const auto judged = json::parse(repo.ok({"judge", "2", "--json"}));
  CHECK(judged["verdict"]["reference_run"] == 3);
  CHECK(judged["verdict"]["validity"] == "suspect");
  CHECK(judged["proposed_status"] == "inconclusive");
  CHECK_THAT(repo.ok({"plan", "render", "p", "--stdout"}),
             Catch::Contains("Flagged: implausible: copy_ms 0.1"));
}
