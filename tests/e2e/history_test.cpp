// A benchmark's history across real commits: ej history, ej regressions, ej ack.
#include "support/browser.h"
#include "support/ej_repo.h"
#include "support/fake_gpus.h"
#include "support/skip.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

using namespace ej::test;
using nlohmann::json;

namespace {

// A benchmark whose time is what the commit's speed.txt says, with 3% noise from a seeded awk
// (the count of its executions, kept in .git so the tree stays clean), and which takes that time
// (a longer one than its repeat would make the run invalid).
void add_speed_benchmark(const EjRepo& repo)
{
  write_text(repo.path() / "bench.sh",
             "n=$(cat .git/bench-count 2>/dev/null || echo 0); n=$((n+1)); echo $n > .git/bench-count\n"
             "awk -v base=\"$(cat speed.txt)\" -v seed=\"$n\" "
             "'BEGIN { srand(seed); t = base * (1 + 0.03 * (rand() - 0.5)); system(\"sleep \" t / 1000); "
             "printf \"time_ms=%.4f\\n\", t }'\n");
  write_text(repo.path() / "speed.txt", "10.0\n");
  git(repo.path(), {"add", "bench.sh", "speed.txt"});
  git(repo.path(), {"commit", "-q", "-m", "the benchmark"});
  repo.ok({"bench", "add", "b", "--repeat", "3", "--metric", "time_ms=kv:time_ms", "--unit", "time_ms=ms",
           "--", "sh", "bench.sh"});
}

// One commit (a line appended to log.txt, speed.txt set to `speed` when given) and a run of it.
std::string commit_and_run(const EjRepo& repo, int index, const std::string& speed = "")
{
  write_text(repo.path() / ("step-" + std::to_string(index) + ".txt"), std::to_string(index) + "\n");
  git(repo.path(), {"add", "step-" + std::to_string(index) + ".txt"});
  if (!speed.empty()) {
    write_text(repo.path() / "speed.txt", speed + "\n");
    git(repo.path(), {"add", "speed.txt"});
  }
  git(repo.path(), {"commit", "-q", "-m", speed.empty() ? "change " + std::to_string(index) : "slow down"});
  repo.ok({"run", "b", "--quiet"});
  return git(repo.path(), {"rev-parse", "HEAD"}).substr(0, 40);
}

} // namespace

TEST_CASE("ej history finds the commit where a benchmark got 10% slower, shows other runs apart, and ej ack "
          "takes it off the regressions")
{
  EjRepo repo;
  add_speed_benchmark(repo);
  std::vector<std::string> commits;
  std::string slower;
  for (int i = 1; i <= 24; ++i) {
    commits.push_back(commit_and_run(repo, i, i == 13 ? "11.0" : ""));
    if (i == 13) {
      slower = commits.back();
    }
  }
  // A run of a dirty tree and one of another branch: shown apart, never points of the line.
  write_text(repo.path() / "speed.txt", "50.0\n");
  repo.ok({"run", "b", "--quiet"});
  git(repo.path(), {"checkout", "-q", "--", "speed.txt"});
  git(repo.path(), {"checkout", "-q", "-b", "experiment"});
  const auto experiment = commit_and_run(repo, 99, "2.0");
  git(repo.path(), {"checkout", "-q", "main"});

  const auto history = json::parse(repo.ok({"history", "b", "--json"}));
  CHECK(history["line"] == "main");
  CHECK(history["line_commits"] == 26);
  REQUIRE(history["series"].size() == 1);
  const auto& series = history["series"][0];
  CHECK(series["metric"] == "time_ms");
  CHECK(series["points"].size() == 24);
  CHECK(series["points"][12]["commit"] == slower);
  CHECK(series["points"][12]["n"] == 3);
  REQUIRE(series["change_points"].size() == 1);
  const auto& step = series["change_points"][0];
  CHECK(step["bad"] == slower); // located to the very commit
  CHECK(step["good"] == commits[11]);
  CHECK(step["commits"] == 1);
  CHECK(step["regression"] == true);
  CHECK(step["acknowledged"].is_null());
  CHECK(step["change"]["change_pct"].get<double>() == Approx(10.0).margin(1.5));
  CHECK(step["change"]["change_low_pct"].get<double>() > 5.0);
  CHECK(step["p_value"].get<double>() < 0.001);
  REQUIRE(series["apart"].size() == 2);
  CHECK(series["apart"][0]["why"] == "dirty tree");
  CHECK(series["apart"][0]["median"].get<double>() > 40);
  CHECK(series["apart"][1]["why"] == "not on the line");
  CHECK(series["apart"][1]["commit"] == experiment);

  const auto text = repo.ok({"history", "b"});
  CHECK_THAT(text,
             Catch::Contains("24 of 26 commits measured; 1 change point, 1 unacknowledged regression") &&
                 Catch::Contains("-- regression: +") &&
                 Catch::Contains("at " + slower.substr(0, 10) + " (the commit after " +
                                 commits[11].substr(0, 10) + ")") &&
                 Catch::Contains("not in the series (2)"));

  // Along the experiment branch, its own commit is a point and the dirty run stays apart.
  const auto branch = json::parse(repo.ok({"history", "b", "--branch", "experiment", "--json"}));
  CHECK(branch["series"][0]["points"].size() == 25);
  CHECK(branch["series"][0]["apart"].size() == 1);

  const auto found = json::parse(repo.ok({"regressions", "--json"}));
  REQUIRE(found.size() == 1);
  CHECK(found[0]["bench"] == "b");
  CHECK(found[0]["bad"] == slower);
  CHECK(found[0]["subject"] == "slow down");
  CHECK(json::parse(repo.ok({"regressions", "--since", slower, "--json"})).empty());
  CHECK(json::parse(repo.ok({"regressions", "--since", commits[5], "--json"})).size() == 1);

  const auto acked = repo.ok({"ack", "b@" + slower.substr(0, 8), "--reason", "bounds checks on purpose"});
  CHECK_THAT(acked,
             Catch::Contains("acknowledged b@" + slower.substr(0, 10) + ": bounds checks on purpose") &&
                 Catch::Contains("the regression of time_ms: +"));
  CHECK(json::parse(repo.ok({"regressions", "--json"})).empty());
  CHECK_THAT(repo.ok({"regressions"}),
             Catch::Contains("no unacknowledged regression along main (1 benchmark)"));
  const auto after = json::parse(repo.ok({"history", "b", "--json"}));
  const auto& ack = after["series"][0]["change_points"][0]["acknowledged"];
  CHECK(ack["commit"] == slower);
  CHECK(ack["reason"] == "bounds checks on purpose");
  CHECK_THAT(repo.ok({"history", "b"}), Catch::Contains("acknowledged: bounds checks on purpose"));

  // An event like any other: exported, and the same after a rebuild of the derived tables.
  CHECK_THAT(repo.ok({"export"}), Catch::Contains("\"type\":\"step.acknowledged\""));
  repo.ok({"reindex"});
  repo.ok({"fsck"});
  CHECK(json::parse(repo.ok({"regressions", "--json"})).empty());
}

TEST_CASE("ej history leaves withdrawn runs out, and ej history and ej ack say what is wrong with what they "
          "were given")
{
  EjRepo repo;
  add_speed_benchmark(repo);
  const auto no_runs = repo.ej({"history", "b"});
  CHECK(no_runs.exit_code == 1);
  CHECK_THAT(no_runs.err, Catch::Contains("benchmark b has no finished runs; run it with 'ej run b'"));
  const auto unknown = repo.ej({"history", "nope"});
  CHECK(unknown.exit_code == 1);
  CHECK_THAT(unknown.err, Catch::Contains("nope"));

  const auto no_at = repo.ej({"ack", "b", "--reason", "expected"});
  CHECK(no_at.exit_code == 2);
  CHECK_THAT(no_at.err, Catch::Contains("name the step as BENCH@COMMIT"));
  const auto no_commit = repo.ej({"ack", "b@0000000", "--reason", "expected"});
  CHECK(no_commit.exit_code == 1);
  CHECK_THAT(no_commit.err, Catch::Contains("'0000000' names no commit of this repository"));

  repo.ok({"run", "b", "--quiet"});
  repo.ok({"run", "b", "--quiet"});
  repo.ok({"run", "withdraw", "r2", "--reason", "debug build"});
  const auto one = json::parse(repo.ok({"history", "b", "--json"}));
  REQUIRE(one["series"][0]["points"].size() == 1);
  CHECK(one["series"][0]["points"][0]["runs"] == json::array({1})); // a withdrawn run is no evidence
  const auto bad_param = repo.ej({"history", "b", "--param", "variant"});
  CHECK(bad_param.exit_code == 2);
  CHECK_THAT(bad_param.err, Catch::Contains("--param takes AXIS=VALUE"));
  const auto bad_since = repo.ej({"regressions", "--since", "nowhere"});
  CHECK(bad_since.exit_code == 1);
  CHECK_THAT(bad_since.err, Catch::Contains("--since nowhere: names no commit"));
  // A step acknowledged where history has none yet is recorded, with a note.
  const auto early = repo.ok({"ack", "b@HEAD", "--reason", "expected later"});
  CHECK_THAT(early, Catch::Contains("note: no change point of b's history along main holds"));
}

TEST_CASE("ej history lines its table up by characters, not bytes, when a unit is not ASCII")
{
  EjRepo repo;
  write_text(repo.path() / "a.txt", "a\n");
  git(repo.path(), {"add", "a.txt"});
  git(repo.path(), {"commit", "-q", "-m", "a commit"});
  repo.ok({"bench", "add", "t", "--repeat", "3", "--metric", "temp=kv:temp", "--unit", "temp=°C", "--",
           "echo", "temp=5"});
  repo.ok({"run", "t", "--quiet"});
  const auto commit = git(repo.path(), {"rev-parse", "HEAD"}).substr(0, 10);
  // "5.000 °C" is 8 characters in 9 bytes: padded to 12 columns by 4 spaces, its interval to 27 by 7.
  CHECK_THAT(repo.ok({"history", "t"}),
             Catch::Contains("\n  " + commit +
                             "      5.000 °C  [5.000 °C, 5.000 °C]         r1          a commit\n"));
}

TEST_CASE("ej history finds within one commit where a benchmark's wall time stepped, from real sleeps")
{
  // The benchmark sleeps as long as the commit's delay.txt says: 50 ms, then 200 ms from the
  // thirteenth commit on (twelve a side: fewer points a side cannot be told apart by ranks at the
  // level kept for 10,000 commits, docs/history.md). Its wall time is what is judged (the primary
  // metric when none is read), so the step comes from real processes, and a late wake-up on a busy
  // machine is one outlier among ranks. The step is larger than a loaded machine's start-up delays
  // (a step of 40 ms was lost among them with eight compilers on two cores).
  EjRepo repo;
  write_text(repo.path() / "delay.txt", "0.05\n");
  git(repo.path(), {"add", "delay.txt"});
  git(repo.path(), {"commit", "-q", "-m", "the delay"});
  repo.ok({"bench", "add", "nap", "--repeat", "3", "--shell", "sleep $(cat delay.txt)"});
  std::vector<std::string> commits;
  for (int i = 1; i <= 24; ++i) {
    write_text(repo.path() / "delay.txt", i >= 13 ? "0.2\n" : "0.05\n");
    write_text(repo.path() / "step.txt", std::to_string(i) + "\n");
    git(repo.path(), {"add", "delay.txt", "step.txt"});
    git(repo.path(), {"commit", "-q", "-m", i == 13 ? "sleep longer" : "change " + std::to_string(i)});
    repo.ok({"run", "nap", "--quiet"});
    commits.push_back(git(repo.path(), {"rev-parse", "HEAD"}).substr(0, 40));
  }

  const auto history = json::parse(repo.ok({"history", "nap", "--json"}));
  const auto& series = history["series"][0];
  CHECK(series["metric"] == "wall_s");
  REQUIRE(series["change_points"].size() == 1);
  const auto& step = series["change_points"][0];
  const auto at = std::find(commits.begin(), commits.end(), step["bad"].get<std::string>()) - commits.begin();
  CHECK(std::abs(at - 12) <= 1); // commits[12] is the thirteenth commit
  CHECK(step["regression"] == true);
  CHECK(step["change"]["change_pct"].get<double>() > 30);

  const auto found = json::parse(repo.ok({"regressions", "--json"}));
  REQUIRE(found.size() == 1);
  CHECK(found[0]["bad"] == step["bad"]);
  repo.ok({"ack", "nap@" + step["bad"].get<std::string>(), "--reason", "the longer sleep is the point"});
  CHECK(json::parse(repo.ok({"regressions", "--json"})).empty());
}

TEST_CASE("ej report draws a benchmark's history with its step, the acknowledgement and the driver change, "
          "and the plan document names the acknowledged step",
          "[history][report]")
{
  EjRepo repo;
  add_speed_benchmark(repo);
  std::string slower;
  std::string first_on_gpus;
  for (int i = 1; i <= 24; ++i) {
    // From the 19th on, runs see a GPU: the fingerprint gains its driver and CUDA.
    const auto env = i >= 19 ? std::map<std::string, std::string>{{"EJ_NVML_LIBRARY", fake_nvml_library()},
                                                                  {"EJ_FAKE_NVML_GPUS", "1"}}
                             : std::map<std::string, std::string>{};
    write_text(repo.path() / ("step-" + std::to_string(i) + ".txt"), std::to_string(i) + "\n");
    git(repo.path(), {"add", "step-" + std::to_string(i) + ".txt"});
    if (i == 13) {
      write_text(repo.path() / "speed.txt", "11.0\n");
      git(repo.path(), {"add", "speed.txt"});
    }
    git(repo.path(), {"commit", "-q", "-m", "change " + std::to_string(i)});
    repo.ok({"run", "b", "--quiet"}, env);
    const auto commit = git(repo.path(), {"rev-parse", "HEAD"}).substr(0, 40);
    slower = i == 13 ? commit : slower;
    first_on_gpus = i == 19 ? commit : first_on_gpus;
  }
  repo.ok({"ack", "b@" + slower.substr(0, 8), "--reason", "bounds checks on purpose"});
  repo.ok({"plan", "new", "p", "--title", "Decode speed", "--measure", "b:time_ms"});

  // The document: the acknowledged step, with its commit and reason.
  const auto doc = repo.ok({"plan", "render", "p", "--stdout"});
  CHECK_THAT(doc,
             Catch::Contains("Steps acknowledged as expected (`ej ack`):") &&
                 Catch::Contains("the step of b at " + slower.substr(0, 10) + ": bounds checks on purpose"));

  repo.ok({"report", "p", "--html", "p.html"});
  const auto html = read_text(repo.path() / "p.html");
  CHECK_THAT(html, Catch::Contains("<section id=\"ej-history\">") && Catch::Contains("<h3>b: time_ms</h3>"));
  CHECK_THAT(html, Catch::Contains(">" + slower.substr(0, 7) + "</text>")); // the change point's commit
  CHECK_THAT(html, Catch::Contains(">acknowledged</text>"));
  CHECK_THAT(html, Catch::Contains("acknowledged at " + slower.substr(0, 7) + ": bounds checks on purpose"));
  CHECK_THAT(html, Catch::Contains(">driver, CUDA"));
  CHECK_THAT(html,
             Catch::Contains("environment changed at " + first_on_gpus.substr(0, 7) + ": NVIDIA driver"));
  CHECK(repo.ok({"report", "p", "--html", "again.html"}).size() > 0);
  CHECK(read_text(repo.path() / "again.html") == html); // deterministic

  const auto chromium = find_chromium();
  if (chromium.empty()) {
    EJ_SKIP_WITHOUT_SERVICE("chromium not installed");
  }
  const auto problems = layout_problems(chromium, html, 900, {"attempt"}, repo.path(), "#ej-history svg");
  std::string all;
  for (const auto& problem : problems) {
    all += problem + "\n";
  }
  INFO(all);
  CHECK(problems.empty());
  const auto shown = run_in_page(chromium, html, R"(
    const chart = document.querySelector('#ej-history svg');
    report(chart ? chart.getBoundingClientRect().width : 0);
  )",
                                 repo.path());
  REQUIRE(shown.size() == 1);
  CHECK(std::stod(shown[0]) > 600); // drawn, at its size
}
