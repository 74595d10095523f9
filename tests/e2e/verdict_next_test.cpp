// Every verdict says what to do next (`next`, docs/json.md): pin a baseline when there is none to
// judge against, the rounds that would decide an inconclusive one at the calibrated noise, nothing
// once it is decisive. The commands it names are run here as an agent would run them.
#include "support/ej_repo.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sstream>

using namespace ej::test;
using nlohmann::json;

namespace {

// The words of a command `next` names, without the leading "ej" (none of them is quoted).
std::vector<std::string> ej_words(const std::string& command)
{
  std::istringstream in(command);
  std::vector<std::string> words;
  for (std::string word; in >> word;) {
    words.push_back(word);
  }
  REQUIRE(words.size() > 1);
  CHECK(words.front() == "ej");
  words.erase(words.begin());
  return words;
}

// x = SPEED + 100 * (repeats so far mod 3) ns: a noise of several percent, the same for any code, from a
// counter kept under .git; SPEED read from the committed file `speed`.
std::string wobbling_script(const EjRepo& repo)
{
  const auto counter = (repo.path() / ".git" / "count").string();
  return "n=$(cat '" + counter + "' 2>/dev/null || echo 0); n=$((n + 1)); echo $n > '" + counter +
         "'; echo x=$(( $(cat speed) + 100 * (n % 3) ))";
}

} // namespace

TEST_CASE(
    "a verdict without a baseline says to pin one, once decisive asks for a check, and once checked says "
    "nothing is left to do")
{
  EjRepo repo;
  write_text(repo.path() / "speed", "1000\n");
  git(repo.path(), {"add", "speed"});
  git(repo.path(), {"commit", "-q", "-m", "stock speed"});
  repo.ok({"plan", "new", "p", "--title", "Next"});
  // x is the committed figure, not the shell's own time (--no-check-times): a load burst during the
  // second run alone slows its wall time several-fold, which would flag the verdict (fix_figures).
  repo.ok({"bench", "add", "flat", "--repeat", "5", "--no-check-times", "--shell", "echo x=$(cat speed)",
           "--metric", "x=regex:x=([0-9.]+)", "--unit", "x=ns"});
  repo.ok({"run", "flat", "--quiet"}); // the stock code, outside any attempt: run #1
  write_text(repo.path() / "speed", "900\n");
  git(repo.path(), {"commit", "-q", "-am", "faster"});
  repo.ok({"try", "faster", "--plan", "p"});
  repo.ok({"run", "flat", "--attempt", "1", "--quiet"});

  const auto unjudged = json::parse(repo.ok({"show", "1", "--json"}));
  CHECK(unjudged["verdict"].is_null());
  REQUIRE(unjudged["next"].size() == 1);
  const auto pin = unjudged["next"][0];
  CHECK(pin["kind"] == "pin_baseline");
  CHECK(pin["run"] == 1);
  CHECK(pin["command"] == "ej plan baseline p --run 1");

  repo.ok(ej_words(pin["command"].get<std::string>()));
  const auto verdict = json::parse(repo.ok({"show", "1", "--json"}))["verdict"];
  REQUIRE(verdict.is_object());
  CHECK(verdict["outcome"] == "improved");
  REQUIRE(verdict["next"].size() == 1);
  // Decisive, but nothing checks what flat computes: a check to add (CMD filled in), then both code
  // states measured again, together (the revision with the check is not compared with the one before).
  CHECK(verdict["next"][0]["kind"] == "add_check");
  CHECK(verdict["next"][0]["command"] == "ej bench edit flat --check 'CMD'");
  CHECK_THAT(verdict["next"][0]["why"].get<std::string>(),
             Catch::Contains("again with 'ej run flat --against baseline --attempt 1'"));
  CHECK(json::parse(repo.ok({"judge", "1", "--json"}))["verdict"]["next"] == verdict["next"]);
  CHECK(json::parse(repo.ok({"show", "run", "2", "--json"}))["verdict"]["next"] == verdict["next"]);

  repo.ok({"bench", "edit", "flat", "--check", "test -s speed"});
  repo.ok({"run", "flat", "--against", "baseline", "--attempt", "1", "--repeat", "6", "--quiet"});
  const auto checked = json::parse(repo.ok({"show", "1", "--json"}))["verdict"];
  CHECK(checked["outcome"] == "improved");
  REQUIRE(checked["next"].size() == 1);
  CHECK(checked["next"][0]["kind"] == "none");
  CHECK(checked["next"][0]["command"].is_null());
  CHECK(json::parse(repo.ok({"judge", "1", "--json"}))["verdict"]["next"] == checked["next"]);

  // A check that fails at the fifth repeat of the session (either side's): the rounds before decide
  // nothing, and the session's verdict says what is wrong first.
  const auto checks = (repo.path() / ".git" / "checks").string();
  repo.ok({"bench", "edit", "flat", "--check",
           "c=$(cat '" + checks + "' 2>/dev/null || echo 0); c=$((c + 1)); echo $c > '" + checks +
               "'; test $c -lt 5"});
  const auto failed = repo.ej({"run", "flat", "--against", "baseline", "--attempt", "1", "--repeat", "6"});
  INFO(failed.out << failed.err);
  CHECK(failed.exit_code != 0);
  const auto comparison = json::parse(repo.ok({"show", "run", "5", "--json"}))["comparison"];
  REQUIRE(comparison.is_object());
  CHECK(comparison["stopped"] == "failed");
  REQUIRE(comparison["next"].size() == 1);
  CHECK(comparison["next"][0]["kind"] == "fix_figures");
  CHECK_THAT(comparison["next"][0]["why"].get<std::string>(), Catch::Contains("ended check-failed"));
}

TEST_CASE(
    "an inconclusive verdict says how many rounds would decide it, at the calibrated noise once calibrated")
{
  EjRepo repo;
  write_text(repo.path() / "speed", "1000\n");
  git(repo.path(), {"add", "speed"});
  git(repo.path(), {"commit", "-q", "-m", "stock speed"});
  repo.ok({"plan", "new", "p", "--title", "Next"});
  repo.ok({"bench", "add", "wobble", "--repeat", "5", "--min-effect", "2", "--shell", wobbling_script(repo),
           "--metric", "x=regex:x=([0-9.]+)", "--unit", "x=ns"});
  repo.ok({"try", "stock", "--plan", "p"});
  repo.ok({"run", "wobble", "--attempt", "1", "--quiet"});
  repo.ok({"plan", "baseline", "p", "--run", "1"});
  repo.ok({"try", "the same code again", "--plan", "p"});
  repo.ok({"run", "wobble", "--attempt", "2", "--quiet"});

  // Two runs measured apart, within the noise: measure both code states together, and calibrate.
  auto verdict = json::parse(repo.ok({"show", "2", "--json"}))["verdict"];
  CHECK(verdict["outcome"] == "inconclusive");
  auto next = verdict["next"];
  INFO(next.dump(2));
  REQUIRE(next.size() == 2);
  CHECK(next[0]["kind"] == "measure_against");
  CHECK(next[0]["source"] == "observed");
  REQUIRE(next[0]["rounds"].is_number_integer());
  CHECK(next[0]["rounds"].get<int>() >= 6);
  CHECK(next[0]["command"] == "ej run wobble --against baseline --attempt 2 --repeat " +
                                  std::to_string(next[0]["rounds"].get<int>()));
  CHECK(next[1]["kind"] == "calibrate");
  CHECK(next[1]["command"] == "ej calibrate wobble");

  // Calibrated: the rounds are sized at the noise the calibration measured, and nothing else is asked.
  const auto calibration = json::parse(repo.ok({"calibrate", "wobble", "--rounds", "10", "--json"}));
  next = json::parse(repo.ok({"show", "2", "--json"}))["verdict"]["next"];
  REQUIRE(next.size() == 1);
  CHECK(next[0]["source"] == "calibration");
  CHECK(next[0]["noise"].get<double>() == Approx(std::abs(calibration["paired_noise"].get<double>())));
  CHECK(next[0]["scale"] == "percent");

  // A session too short to decide: the interleaved verdict asks for more rounds, more than it had.
  const auto against = repo.ej({"run", "wobble", "--against", "baseline", "--attempt", "2", "--repeat", "6",
                                "--seed", "1", "--quiet"});
  INFO(against.out << against.err);
  REQUIRE(against.exit_code == 0);
  verdict = json::parse(repo.ok({"show", "2", "--json"}))["verdict"];
  CHECK(verdict["design"]["kind"] == "interleaved");
  CHECK(verdict["outcome"] == "inconclusive");
  next = verdict["next"];
  REQUIRE(next.size() == 1);
  CHECK(next[0]["kind"] == "measure_more");
  CHECK(next[0]["source"] == "calibration");
  REQUIRE(next[0]["rounds"].is_number_integer());
  const int rounds = next[0]["rounds"].get<int>();
  CHECK(rounds > 6);
  CHECK(next[0]["command"] ==
        "ej run wobble --against baseline --attempt 2 --repeat " + std::to_string(rounds));
  CHECK_THAT(next[0]["why"].get<std::string>(),
             Catch::Contains("inconclusive after 6 rounds: " + std::to_string(rounds) + " rounds detect"));
  // ej judge --json carries the same.
  CHECK(json::parse(repo.ok({"judge", "2", "--json"}))["verdict"]["next"] == next);

  // The session's own verdict, as ej compare judges its pairs, says what would decide it too.
  const auto newest = json::parse(repo.ok({"runs", "--bench", "wobble", "--json"}))[0]["number"].get<int>();
  const auto session = json::parse(repo.ok({"show", "run", std::to_string(newest), "--json"}))["comparison"];
  REQUIRE(session.is_object());
  const auto compared =
      json::parse(repo.ok({"compare", "r" + std::to_string(session["reference"].get<int>()),
                           "r" + std::to_string(session["candidate"].get<int>()), "--json"}));
  CHECK(compared["design"] == "interleaved");
  CHECK(compared["next"] == session["next"]);
  const auto paired = compared["next"];
  INFO(paired.dump(2));
  REQUIRE(paired.size() == 1); // calibrated: nothing to calibrate
  CHECK(paired[0]["source"] == "calibration");
  if (compared["outcome"] == "inconclusive") {
    CHECK(paired[0]["kind"] == "measure_more");
    CHECK_THAT(paired[0]["command"].get<std::string>(),
               Catch::StartsWith("ej run wobble --against baseline --attempt 2 --"));
    CHECK_THAT(paired[0]["why"].get<std::string>(), Catch::StartsWith("inconclusive after 6 rounds"));
  } else {
    CHECK(paired[0]["kind"] == "none"); // no change either way, decided on the pairs alone
  }
}
