// A verdict over several series controls the false-discovery rate of its overall outcome
// (Benjamini-Hochberg across the primary metric's series); each series keeps its own outcome. The
// auditor's case: a sweep n=1,2 measured for 6 interleaved rounds, only n=1 5% faster. Six rounds
// all one way give the exact signed-rank p = 2/64 = 0.031 < 0.05, but with two primary series BH at
// q = 0.05 needs p <= 0.025, so the session is not "improved" overall.
#include "support/ej_repo.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace ej::test;
using nlohmann::json;

namespace {

// x = SPEED_n + 2 * (repeats so far), SPEED_n read from the committed file `speed_{n}`: a level that
// climbs with every repeat (a counter under .git shared by both work trees), so that no two rounds
// tie, by far less than n=1's change of 500 and the 1% minimum effect. In nanoseconds, a time the
// script can take (one longer than its repeat would make the run invalid).
std::string counted_script(const EjRepo& repo)
{
  const auto counter = (repo.path() / ".git" / "count").string();
  return "c=$(cat '" + counter + "' 2>/dev/null || echo 0); c=$((c + 1)); echo $c > '" + counter +
         "'; echo x=$(( $(cat speed_{n}) + 2 * c ))";
}

} // namespace

TEST_CASE("a sweep improved at one combination at p between alpha / 2 and alpha is not improved overall")
{
  EjRepo repo;
  write_text(repo.path() / "speed_1", "10000\n");
  write_text(repo.path() / "speed_2", "10000\n");
  git(repo.path(), {"add", "speed_1", "speed_2"});
  git(repo.path(), {"commit", "-q", "-m", "stock speed"});
  write_text(repo.path() / "speed_1", "9500\n");
  git(repo.path(), {"commit", "-q", "-am", "n=1 5% faster"});
  repo.ok({"bench", "add", "b", "--repeat", "6", "--min-effect", "1", "--param", "n=1,2", "--shell",
           counted_script(repo), "--metric", "x=regex:x=([0-9.]+)", "--unit", "x=ns"});

  const auto against = repo.ej({"run", "b", "--against", "HEAD~1", "--seed", "1", "--quiet"});
  INFO(against.out << against.err);
  REQUIRE(against.exit_code == 0);
  // n=1 on its own: every round faster, p = 0.031; n=2 identical code.
  CHECK_THAT(against.out,
             Catch::Contains("x (n=1): improved -5.") && Catch::Contains("signed-rank p = 0.031"));
  CHECK_THAT(against.out, Catch::Contains("interleaved: inconclusive"));
  CHECK_THAT(against.out, !Catch::Contains("interleaved: improved"));
  CHECK_THAT(
      against.out,
      Catch::Contains("x (n=1): improved on its own (p = 0.031), but no discovery at a false-discovery "
                      "rate of 0.05 across the 2 x series (Benjamini-Hochberg): left out of the "
                      "overall outcome"));
  const auto report = json::parse(repo.ok({"compare", "r1", "r2", "--format", "json"}));
  INFO(report.dump(2));
  CHECK(report["outcome"] == "inconclusive");
  bool n1_improved = false;
  for (const auto& s : report["series"]) {
    if (s["params"]["n"] == "1" && s["metric"] == "x") {
      n1_improved = s["outcome"] == "improved" && s["p_value"].get<double>() == Approx(0.03125);
    }
  }
  CHECK(n1_improved); // the series' own outcome stays
  // More rounds may lift it: the next step sizes them on the series left out.
  CHECK(report["next"][0]["kind"] == "measure_more");
}

TEST_CASE("an attempt judged on such a session is not proposed adopted, and says which series was left out")
{
  EjRepo repo;
  write_text(repo.path() / "speed_1", "10000\n");
  write_text(repo.path() / "speed_2", "10000\n");
  git(repo.path(), {"add", "speed_1", "speed_2"});
  git(repo.path(), {"commit", "-q", "-m", "stock speed"});
  repo.ok({"plan", "new", "p", "--title", "Sweep"});
  repo.ok({"bench", "add", "b", "--repeat", "6", "--min-effect", "1", "--param", "n=1,2", "--shell",
           counted_script(repo), "--metric", "x=regex:x=([0-9.]+)", "--unit", "x=ns"});
  repo.ok({"try", "stock", "--plan", "p"});
  repo.ok({"run", "b", "--attempt", "1", "--quiet"});
  repo.ok({"plan", "baseline", "p", "--run", "1"});
  write_text(repo.path() / "speed_1", "9500\n");
  git(repo.path(), {"commit", "-q", "-am", "n=1 5% faster"});
  repo.ok({"try", "faster", "--plan", "p"});
  const auto against =
      repo.ej({"run", "b", "--against", "baseline", "--attempt", "2", "--seed", "1", "--quiet"});
  INFO(against.out << against.err);
  REQUIRE(against.exit_code == 0);
  CHECK_THAT(against.out, Catch::Contains("interleaved: inconclusive"));

  const auto verdict = json::parse(repo.ok({"show", "2", "--json"}))["verdict"];
  INFO(verdict.dump(2));
  CHECK(verdict["outcome"] == "inconclusive");
  CHECK(verdict["design"]["kind"] == "interleaved");
  bool n1_improved = false;
  for (const auto& c : verdict["combinations"]) {
    n1_improved =
        n1_improved || (c["outcome"] == "improved" && c["p_value"].get<double>() == Approx(0.03125));
  }
  CHECK(n1_improved);
  CHECK_THAT(verdict["warnings"].dump(),
             Catch::Contains("1 of 2 series improved or regressed on its own but is no discovery at a "
                             "false-discovery rate of 0.05 (Benjamini-Hochberg)"));
  CHECK_THAT(repo.ok({"judge", "2"}), !Catch::Contains("proposed status: adopted"));
}
