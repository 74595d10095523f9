// An attempt measured with `ej run --against baseline` is judged on that session's pairs: judge,
// show, JSON and the plan document take the interleaved verdict as the attempt's lead verdict, and
// say so. The benchmark's level climbs with every repeat (a counter under .git: the machine's
// drift, made deterministic), so the sequential verdict and the paired one disagree.
#include "support/ej_repo.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace ej::test;
using nlohmann::json;

namespace {

// x = SPEED + 20 * (repeats so far), SPEED read from the committed file `speed`; in nanoseconds, a
// time the script can take (one longer than its repeat would make the run invalid).
std::string climbing_script(const EjRepo& repo)
{
  const auto counter = (repo.path() / ".git" / "count").string();
  return "n=$(cat '" + counter + "' 2>/dev/null || echo 0); n=$((n + 1)); echo $n > '" + counter +
         "'; echo x=$(( $(cat speed) + 20 * n ))";
}

} // namespace

TEST_CASE("an attempt measured against its baseline's code is judged on the pairs, not on two moments")
{
  EjRepo repo;
  write_text(repo.path() / "speed", "1000\n");
  git(repo.path(), {"add", "speed"});
  git(repo.path(), {"commit", "-q", "-m", "stock speed"});
  repo.ok({"plan", "new", "p", "--title", "Paired"});
  repo.ok({"bench", "add", "climb", "--repeat", "5", "--min-effect", "2", "--shell", climbing_script(repo),
           "--metric", "x=regex:x=([0-9.]+)", "--unit", "x=ns"});
  repo.ok({"try", "stock", "--plan", "p"});
  repo.ok({"run", "climb", "--attempt", "1", "--quiet"}); // x = 1020 .. 1100
  repo.ok({"plan", "baseline", "p", "--run", "1"});

  // 10% faster code, measured later on a machine that slowed down as much: sequentially, no change.
  write_text(repo.path() / "speed", "900\n");
  git(repo.path(), {"commit", "-q", "-am", "faster"});
  repo.ok({"try", "faster", "--plan", "p"});
  repo.ok({"run", "climb", "--attempt", "2", "--quiet"}); // x = 900 + 120 .. 900 + 200
  const auto sequential = repo.ok({"judge", "2"});
  CHECK_THAT(sequential, Catch::Contains("1060 ns -> 1060 ns, 0.0%") &&
                             Catch::Contains("sequential: the baseline was measured "));
  CHECK_THAT(sequential, Catch::Contains("proposed status: inconclusive"));

  // Both code states measured together: the pairs see the 10%.
  const auto against = repo.ej(
      {"run", "climb", "--against", "baseline", "--attempt", "2", "--repeat", "8", "--seed", "3", "--quiet"});
  INFO(against.out << against.err);
  REQUIRE(against.exit_code == 0);
  CHECK_THAT(against.out, Catch::Contains("interleaved: improved"));

  const auto judged = repo.ok({"judge", "2"});
  CHECK_THAT(judged, Catch::Contains("interleaved: 8 rounds alternating both sides in one session"));
  CHECK_THAT(judged, Catch::Contains("faster, improved (p=0.0078), n = 8 vs 8"));
  CHECK_THAT(judged, Catch::Contains("proposed status: adopted"));
  const auto verdict = json::parse(repo.ok({"show", "2", "--json"}))["verdict"];
  CHECK_THAT(verdict["text"].get<std::string>(),
             Catch::Contains(" vs run #4, run #1's code measured alongside; interleaved, 8 rounds"));
  CHECK(verdict["reference_run"] == 4);
  CHECK(verdict["baseline_run"] == 1);
  CHECK(verdict["design"]["kind"] == "interleaved");
  CHECK(verdict["design"]["rounds"] == 8);
  CHECK(verdict["design"]["drift_controlled"] == true);
  CHECK(verdict["combinations"][0]["change_pct"].get<double>() < -5);
  // ej compare of the attempt alone compares what judge judges: the session's pairs.
  const auto compared = json::parse(repo.ok({"compare", "2", "--json"}));
  CHECK(compared["reference"] == "run #4");
  CHECK(compared["design"]["kind"] == "interleaved");
  CHECK(compared["outcome"] == "improved");
  CHECK(compared["series"][0]["p_value"] == verdict["combinations"][0]["p_value"]);
  CHECK(compared["next"][0]["kind"] == verdict["next"][0]["kind"]);
  const auto document = repo.ok({"plan", "render", "p", "--stdout"});
  CHECK_THAT(document, Catch::Contains("Against run #1's code, measured alongside as run #4 (interleaved, 8 "
                                       "rounds)."));
  // The summary says the design beside the outcome; no row is sequential, so no note says what that is.
  CHECK_THAT(document, Catch::Contains("| improved (interleaved, 8 rounds) |"));
  CHECK_THAT(document, !Catch::Contains("Every change above is sequential"));
  CHECK_THAT(document, !Catch::Contains("A sequential change compares"));
  // The baseline's own attempt, which now holds the reference side too, is still the baseline.
  CHECK_THAT(repo.ej({"judge", "1"}).err, Catch::Contains("run #1 is the baseline itself"));

  // Without the session's reference run, the attempt falls back to the sequential verdict.
  repo.ok({"run", "withdraw", "4", "--reason", "test"});
  CHECK_THAT(repo.ok({"judge", "2"}), Catch::Contains("sequential: the baseline was measured "));
  CHECK(json::parse(repo.ok({"show", "2", "--json"}))["verdict"]["reference_run"].is_null());
}

TEST_CASE(
    "ej run --against --attempt N measures the attempt's recorded code, not what the work tree holds now")
{
  EjRepo repo;
  write_text(repo.path() / "speed", "1000\n");
  git(repo.path(), {"add", "speed"});
  git(repo.path(), {"commit", "-q", "-m", "stock speed"});
  repo.ok({"plan", "new", "p", "--title", "Paired"});
  repo.ok({"bench", "add", "climb", "--repeat", "4", "--min-effect", "2", "--shell", climbing_script(repo),
           "--metric", "x=regex:x=([0-9.]+)", "--unit", "x=ns"});
  repo.ok({"try", "stock", "--plan", "p"});
  repo.ok({"run", "climb", "--attempt", "1", "--quiet"});
  repo.ok({"plan", "baseline", "p", "--run", "1"});
  // The attempt is an uncommitted change: the same commit as the baseline, another diff.
  write_text(repo.path() / "speed", "900\n");
  repo.ok({"try", "faster", "--plan", "p"});
  repo.ok({"run", "climb", "--attempt", "2", "--quiet"});
  // The work tree has moved on (the change undone): the attempt's code is restored to be measured.
  git(repo.path(), {"checkout", "--", "speed"});
  const auto against =
      repo.ej({"run", "climb", "--against", "baseline", "--attempt", "2", "--repeat", "6", "--seed", "5"});
  INFO(against.out << against.err);
  REQUIRE(against.exit_code == 0);
  CHECK_THAT(against.err,
             Catch::Contains("the work tree is not attempt #2 (as run #2)'s code: it is restored"));
  CHECK_THAT(against.out, Catch::Contains("interleaved: improved"));
  const auto candidate = json::parse(repo.ok({"show", "run", "3", "--json"}));
  CHECK(candidate["attempt"] == 2);
  CHECK(candidate["git"]["dirty"] == true);
  CHECK(json::parse(repo.ok({"show", "run", "4", "--json"}))["attempt"] == 1);
  CHECK(json::parse(repo.ok({"show", "2", "--json"}))["verdict"]["reference_run"] == 4);
  CHECK(std::filesystem::is_empty(repo.ej_dir() / "rerun"));

  // With the attempt's code in the work tree, the work tree itself is measured.
  write_text(repo.path() / "speed", "900\n");
  const auto here = repo.ej({"run", "climb", "--against", "baseline", "--attempt", "2", "--repeat", "4"});
  INFO(here.out << here.err);
  REQUIRE(here.exit_code == 0);
  CHECK_THAT(here.err, !Catch::Contains("it is restored to be measured"));
  CHECK_THAT(here.err, Catch::Contains("(the work tree)"));
}

TEST_CASE("a paired attempt compared at one combination is compared on that combination's pairs")
{
  EjRepo repo;
  write_text(repo.path() / "speed", "1000\n");
  git(repo.path(), {"add", "speed"});
  git(repo.path(), {"commit", "-q", "-m", "stock speed"});
  repo.ok({"plan", "new", "p", "--title", "Paired sweep"});
  const auto counter = (repo.path() / ".git" / "count").string();
  repo.ok({"bench", "add", "sweep", "--repeat", "3", "--param", "size=1,2,4", "--metric",
           "x=regex:x=([0-9.]+)", "--unit", "x=ns", "--shell",
           "n=$(cat '" + counter + "' 2>/dev/null || echo 0); n=$((n + 1)); echo $n > '" + counter +
               "'; echo x=$(( $(cat speed) + 8 * {size} + n % 3 ))"});
  repo.ok({"try", "stock", "--plan", "p"});
  repo.ok({"run", "sweep", "--attempt", "1", "--quiet"});
  repo.ok({"plan", "baseline", "p", "--run", "1"});
  write_text(repo.path() / "speed", "900\n");
  git(repo.path(), {"commit", "-q", "-am", "faster"});
  repo.ok({"try", "faster", "--plan", "p"});
  repo.ok({"run", "sweep", "--attempt", "2", "--quiet"});
  repo.ok(
      {"run", "sweep", "--against", "baseline", "--attempt", "2", "--repeat", "6", "--seed", "1", "--quiet"});

  const auto verdict = json::parse(repo.ok({"judge", "2", "--json"}))["verdict"];
  REQUIRE(verdict["design"]["kind"] == "interleaved");
  REQUIRE(verdict["design"]["rounds"] == 6);
  json at_2;
  for (const auto& c : verdict["combinations"]) {
    if (c["params"] == "size=2") {
      at_2 = c;
    }
  }
  REQUIRE(at_2.is_object());
  // The rounds are each combination's, as judge says them, not the session's over all three.
  CHECK(json::parse(repo.ok({"compare", "2", "--json"}))["design"]["rounds"] == 6);
  const auto compared = json::parse(repo.ok({"compare", "2:size=2", "--json"}));
  INFO(compared.dump(1));
  CHECK(compared["design"]["kind"] == "interleaved");
  CHECK(compared["design"]["rounds"] == 6);
  REQUIRE(compared["series"].size() == 2); // x and wall_s, at size=2 only
  CHECK(compared["series"][0]["metric"] == "x");
  CHECK(compared["series"][0]["p_value"] == at_2["p_value"]);
  CHECK(compared["series"][0]["change_pct"] == at_2["change_pct"]);
}

TEST_CASE("an attempt measured against its baseline in blocks is proposed its next rounds in blocks")
{
  EjRepo repo;
  write_text(repo.path() / "speed", "1000\n");
  git(repo.path(), {"add", "speed"});
  git(repo.path(), {"commit", "-q", "-m", "stock speed"});
  repo.ok({"plan", "new", "p", "--title", "Blocks"});
  // The same code on both sides, a level that cycles with the repeats: inconclusive on the pairs, at
  // the noise of a block's median, which rounds of one repeat a side would not have.
  const auto counter = (repo.path() / ".git" / "count").string();
  repo.ok({"bench", "add", "cyc", "--repeat", "5", "--min-effect", "0.1", "--metric", "x=regex:x=([0-9.]+)",
           "--unit", "x=ns", "--shell",
           "n=$(cat '" + counter + "' 2>/dev/null || echo 0); n=$((n + 1)); echo $n > '" + counter +
               "'; echo x=$(( $(cat speed) + 10 * (n % 3) ))"});
  repo.ok({"try", "stock", "--plan", "p"});
  repo.ok({"run", "cyc", "--attempt", "1", "--quiet"});
  repo.ok({"plan", "baseline", "p", "--run", "1"});
  write_text(repo.path() / "other", "same speed\n");
  git(repo.path(), {"add", "other"});
  git(repo.path(), {"commit", "-q", "-m", "same"});
  repo.ok({"try", "same", "--plan", "p"});
  repo.ok({"run", "cyc", "--attempt", "2", "--quiet"});
  const auto session = repo.ok({"run", "cyc", "--against", "baseline", "--attempt", "2", "--repeat", "6",
                                "--block", "2", "--seed", "1", "--quiet"});
  REQUIRE_THAT(session, Catch::Contains("x: inconclusive"));
  REQUIRE_THAT(session, Catch::Contains("--block 2 --repeat "));

  const auto verdict = json::parse(repo.ok({"judge", "2", "--json"}))["verdict"];
  INFO(verdict.dump(1));
  REQUIRE(verdict["outcome"] == "inconclusive");
  REQUIRE(verdict["next"][0]["kind"] == "measure_more");
  CHECK_THAT(verdict["next"][0]["command"].get<std::string>(),
             Catch::StartsWith("ej run cyc --against baseline --attempt 2 --block 2 --repeat "));
  const auto compared = json::parse(repo.ok({"compare", "2", "--json"}));
  CHECK(compared["next"][0]["command"] == verdict["next"][0]["command"]);
}
