// ej calibrate: a benchmark measured against itself, interleaved, says how noisy the machine is for
// it, how far its level drifts, and how small a change a verdict could see; verdicts and ej judge
// use it. The benchmarks here make their noise and drift deterministic: a counter kept under .git
// raises the value with every repeat, as a machine that slows down would.
#include "support/ej_repo.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>

using namespace ej::test;
using nlohmann::json;

namespace {

// x = 1000 + 10 * (repeats so far) ns: the level climbs 1% a repeat, whatever the code.
std::string climbing_script(const EjRepo& repo)
{
  const auto counter = (repo.path() / ".git" / "count").string();
  return "n=$(cat '" + counter + "' 2>/dev/null || echo 0); n=$((n + 1)); echo $n > '" + counter +
         "'; echo x=$((1000 + 10 * n))";
}

} // namespace

TEST_CASE("ej calibrate measures a benchmark against itself and says what a verdict could detect")
{
  EjRepo repo;
  repo.ok({"bench", "add", "noisy", "--repeat", "5", "--shell",
           "awk -v s=$(date +%N) 'BEGIN { srand(s); printf \"x=%d\\n\", 1000 + 40 * rand() }'", "--metric",
           "x=regex:x=([0-9.]+)", "--unit", "x=ns"});
  const auto said = repo.ok({"calibrate", "noisy", "--rounds", "8", "--quiet"});
  CHECK_THAT(said,
             Catch::Contains("calibrated ") && Catch::Contains("by runs #1 and #2 (noisy r1, 8 rounds of x "
                                                               "against itself)"));
  CHECK_THAT(said, Catch::Contains("noise: ") && Catch::Contains(" between the two sides of a round"));
  CHECK_THAT(said, Catch::Contains("drift: the level moved "));
  CHECK_THAT(said, Catch::Contains("could detect (80% power, 5% two-sided): interleaved ±") &&
                       Catch::Contains(" at 10 rounds") && Catch::Contains(" at 50 repeats a side"));

  // Both sides are ordinary runs; the session is a comparison of purpose "calibration".
  const auto runs = json::parse(repo.ok({"runs", "--json"}));
  REQUIRE(runs.size() == 2);
  CHECK(runs[0]["status"] == "finished");
  CHECK_THAT(repo.ok({"show", "run", "2"}),
             Catch::Contains("compared:  calibration, against itself with run #1 ('ej bench show noisy')"));
  CHECK(json::parse(repo.ok({"show", "run", "1", "--json"}))["comparison"]["purpose"] == "calibration");
  const auto shown = repo.ok({"bench", "show", "noisy"});
  CHECK_THAT(shown, Catch::Contains("calibration:\n  calibrated ") && Catch::Contains("by runs #1 and #2"));
  const auto calibration = json::parse(repo.ok({"bench", "show", "noisy", "--json"}))["calibration"];
  REQUIRE(calibration.is_object());
  CHECK(calibration["rounds"] == 8);
  CHECK(calibration["runs"] == json::array({1, 2}));
  CHECK(calibration["scale"] == "percent");
  CHECK(calibration["paired_noise"].get<double>() > 0);
  const auto& detectable = calibration["detectable_interleaved"];
  REQUIRE(detectable.size() == 3);
  CHECK(detectable[0]["n"] == 10);
  CHECK(detectable[2]["n"] == 50);
  // More rounds see smaller changes.
  CHECK(detectable[0]["effect"].get<double>() > detectable[2]["effect"].get<double>());

  // A min effect below what the machine can show is warned about, with what would show it.
  const auto edited = repo.ej({"bench", "edit", "noisy", "--min-effect", "0.01"});
  CHECK(edited.exit_code == 0);
  CHECK_THAT(edited.err,
             Catch::Contains("warning: --min-effect 0.01% is below what noisy can detect here at 5 "
                             "repeats a side") &&
                 Catch::Contains("'ej run noisy --against REF'"));
  CHECK(repo.ej({"bench", "edit", "noisy", "--min-effect", "50"}).err.find("warning") == std::string::npos);
  // A min effect is how verdicts judge, not what is measured: the calibration still holds. A new
  // command measures something else, whose noise nobody has measured yet.
  CHECK(json::parse(repo.ok({"bench", "show", "noisy", "--json"}))["calibration"].is_object());
  repo.ok({"bench", "edit", "noisy", "--shell",
           "awk -v s=$(date +%N) 'BEGIN { srand(s); printf \"x=%d\\n\", 2000 + 40 * rand() }'"});
  CHECK(json::parse(repo.ok({"bench", "show", "noisy", "--json"}))["calibration"].is_null());
  CHECK_THAT(repo.ok({"bench", "show", "noisy"}), Catch::Contains("not calibrated"));

  const auto refused = repo.ej({"calibrate", "noisy", "--rounds", "1"});
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains("--rounds must be at least 2"));
  CHECK(repo.ej({"calibrate", "nothing"}).exit_code != 0);
  CHECK(json::parse(repo.ok({"runs", "--json"})).size() == 2); // nothing recorded by the refusals
}

TEST_CASE("ej run --against and ej compare say what the session could detect at the calibrated noise")
{
  EjRepo repo;
  repo.ok({"bench", "add", "noisy", "--repeat", "5", "--shell",
           "awk -v s=$(date +%N) 'BEGIN { srand(s); printf \"x=%d\\n\", 1000 + 40 * rand() }'", "--metric",
           "x=regex:x=([0-9.]+)", "--unit", "x=ns"});
  // Without a calibration, nothing to say.
  CHECK_THAT(repo.ok({"run", "noisy", "--against", "HEAD", "--repeat", "6", "--quiet"}),
             !Catch::Contains("could detect"));
  repo.ok({"calibrate", "noisy", "--rounds", "8", "--quiet"}); // runs #3 and #4
  const auto against = repo.ok({"run", "noisy", "--against", "HEAD", "--repeat", "6", "--quiet"});
  const auto at = against.find("\n  could detect ±");
  REQUIRE(at != std::string::npos);
  const auto line = against.substr(at + 3, against.find('\n', at + 1) - at - 3);
  CHECK_THAT(line, Catch::EndsWith("% at 6 rounds (x, calibrated by runs #3 and #4)"));
  CHECK(against.find("could detect", at + 3 + line.size()) == std::string::npos); // once, not per series
  // ej compare of the same pair says the same.
  CHECK_THAT(repo.ok({"compare", "r6", "r5"}), Catch::Contains("\n  " + line + "\n"));
}

TEST_CASE(
    "a sequential verdict whose change the calibrated drift exceeds is not adopted or rejected on its own")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Drift"});
  repo.ok({"bench", "add", "climb", "--repeat", "5", "--shell", climbing_script(repo), "--metric",
           "x=regex:x=([0-9.]+)", "--unit", "x=ns"});
  repo.ok({"try", "stock", "--plan", "p"});
  repo.ok({"try", "same code again", "--plan", "p"});
  repo.ok({"run", "climb", "--attempt", "1", "--quiet"});
  repo.ok({"plan", "baseline", "p", "--run", "1"});
  repo.ok({"run", "climb", "--attempt", "2", "--quiet"});
  // Before a calibration, the climb reads as a regression of the code.
  CHECK_THAT(repo.ok({"judge", "2"}), Catch::Contains("proposed status: rejected"));

  const auto calibrated = json::parse(repo.ok({"calibrate", "climb", "--rounds", "10", "--json"}));
  CHECK(calibrated["drift"].get<double>() > 10); // 20 repeats at 1% each
  const auto judged = repo.ok({"judge", "2"});
  CHECK_THAT(judged, Catch::Contains("proposed status: inconclusive"));
  CHECK_THAT(judged, Catch::Contains("more than the change: measure both sides together with 'ej run climb "
                                     "--against baseline --attempt 2', whose paired verdict then decides"));
  CHECK(calibrated["drift_beyond_noise"] == true);
  const auto verdict = json::parse(repo.ok({"show", "2", "--json"}))["verdict"];
  CHECK_THAT(verdict["text"].get<std::string>(),
             Catch::Contains("; could detect ±") &&
                 Catch::Contains(" at 5 repeats, but the machine drifted +") &&
                 Catch::Contains(" in calibration, more than the change"));

  // The session the advice names then decides: the pairs cancel the climb, drift holds nothing back.
  repo.ok(
      {"run", "climb", "--against", "baseline", "--attempt", "2", "--repeat", "6", "--seed", "1", "--quiet"});
  const auto settled = repo.ok({"judge", "2"});
  CHECK_THAT(settled, Catch::Contains("interleaved: 6 rounds alternating both sides"));
  CHECK_THAT(settled, !Catch::Contains("more than the change"));
  const auto paired = json::parse(repo.ok({"show", "2", "--json"}))["verdict"];
  CHECK(paired["design"]["kind"] == "interleaved");
  CHECK(paired["calibration"]["drift_exceeds_change"] == false);
  CHECK_THAT(paired["text"].get<std::string>(), Catch::Contains(" at 6 rounds"));
}

TEST_CASE("a calibration in blocks says its noise per repeat, and a session in blocks proposes blocks")
{
  EjRepo repo;
  // x steps between 1000 and 1040 ns every two repeats, so a block of two holds one level: each side
  // of a round is 1000 or 1040, and the sides differ by 4% one way or the other. The block medians'
  // noise is that of one repeat a side; rounds of one repeat are sqrt(2) noisier, as the figure says.
  repo.ok({"bench", "add", "pat", "--repeat", "2", "--metric", "x=regex:x=([0-9.]+)", "--unit", "x=ns",
           "--shell",
           "n=$(cat .git/c 2>/dev/null || echo 0); n=$((n+1)); echo $n > .git/c; "
           "echo x=$((1000 + 40 * (((n - 1) / 2) % 2)))"});
  const auto said = repo.ok({"calibrate", "pat", "--rounds", "12", "--block", "2", "--seed", "1", "--quiet"});
  CHECK_THAT(said, Catch::Contains("12 rounds of x against itself, in blocks of 2)"));
  CHECK_THAT(said, Catch::Contains("(per repeat: the blocks' noise times the square root of their size)"));
  const auto calibration = json::parse(repo.ok({"bench", "show", "pat", "--json"}))["calibration"];
  CHECK(calibration["block"] == 2);
  // Seed 1 orders the 12 rounds so that the block medians' paired values have a deviation of 3.64%.
  CHECK(calibration["paired_noise"].get<double>() == Approx(3.64 * std::sqrt(2.0)).epsilon(0.02));

  // A session in blocks proposes its next rounds in blocks too, sized at the calibrated noise of a
  // block's median (the per-repeat figure over sqrt(2)), and says what it could detect at that noise.
  const auto session =
      repo.ok({"run", "pat", "--against", "r1", "--repeat", "4", "--block", "2", "--seed", "3", "--quiet"});
  const auto runs = json::parse(repo.ok({"runs", "--json"}));
  REQUIRE(runs.size() == 4);
  const auto compared = json::parse(repo.ok({"compare", "r3", "r4", "--json"}));
  INFO(compared.dump(1));
  const auto& next = compared["next"];
  REQUIRE_FALSE(next.empty());
  REQUIRE(next[0]["kind"] == "measure_more");
  CHECK_THAT(next[0]["command"].get<std::string>(), Catch::Contains(" --block 2 "));
  CHECK(next[0]["source"] == "calibration");
  CHECK(next[0]["noise"].get<double>() == Approx(3.64).epsilon(0.02));
  CHECK_THAT(session, Catch::Contains("could detect ±7.8% at 4 rounds (x, calibrated by runs #1 and #2)"));
  // The session's pairs are no table of two runs measured apart: CSV and markdown say so, not text.
  for (const char* format : {"csv", "markdown"}) {
    const auto refused = repo.ej({"compare", "r3", "r4", "--format", format});
    CHECK(refused.exit_code == 2);
    CHECK(refused.out.empty());
    CHECK_THAT(refused.err, Catch::Contains("were measured together (ej run --against)"));
  }
}
