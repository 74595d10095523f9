// Results that can't be gamed (docs/benchmarks.md, "Checks"): each benchmark here does one of the
// things a benchmark, or an agent tuning it, does to look faster than it is, and ej catches it.
#include "support/command.h"
#include "support/ej_repo.h"
#include "support/runs.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace ej::test;
using nlohmann::json;

namespace {

// A plan p with the attempts "reference" (1) and "candidate" (2); the benchmark reads the file
// `mode`, "ref" until the candidate is measured.
void campaign(const EjRepo& repo, const std::string& script, std::vector<std::string> add)
{
  write_text(repo.path() / "bench.sh", script);
  write_text(repo.path() / "mode", "ref\n");
  repo.ok({"plan", "new", "p", "--title", "Gaming"});
  std::vector<std::string> args{"bench", "add", "b", "--shell", "sh bench.sh", "--repeat", "6"};
  args.insert(args.end(), add.begin(), add.end());
  repo.ok(args);
  repo.ok({"try", "reference", "--plan", "p"});
  repo.ok({"try", "candidate", "--plan", "p"});
  repo.ok({"run", "b", "--attempt", "1", "--quiet"});
  repo.ok({"plan", "baseline", "p", "--run", "1"});
  write_text(repo.path() / "mode", "cand\n");
}

json judged(const EjRepo& repo)
{
  return json::parse(repo.ok({"judge", "2", "--json"}));
}

} // namespace

TEST_CASE("a benchmark that prints a time longer than its repeat took ends its run invalid, never judged")
{
  EjRepo repo;
  write_text(repo.path() / "bench.sh", "echo 'time_ms=5000'\n");
  repo.ok({"bench", "add", "liar", "--shell", "sh bench.sh", "--repeat", "3", "--check-times", "--metric",
           "time_ms=regex:time_ms=([0-9.]+)", "--unit", "time_ms=ms"});
  const auto result = repo.ej({"run", "liar", "--quiet"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("time_ms = 5000 ms, longer than the") &&
                             Catch::Contains("the benchmark's own timer cannot be right"));
  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "invalid");
  CHECK_THAT(run["reason"].get<std::string>(), Catch::Contains("repeat 1"));
}

TEST_CASE("a printed time longer than its repeat is caught by default, and --no-check-times lets a sum of "
          "parallel times through")
{
  EjRepo repo;
  // A time summed over eight workers busy for the whole repeat: eight times its wall time.
  write_text(repo.path() / "bench.sh", "sleep 0.1; echo 'gpu_ms=800'\n");
  repo.ok({"bench", "add", "sum", "--shell", "sh bench.sh", "--repeat", "2", "--metric",
           "gpu_ms=regex:gpu_ms=([0-9.]+)", "--unit", "gpu_ms=ms"});
  CHECK_FALSE(json::parse(repo.ok({"bench", "show", "sum", "--json"}))["revisions"][0]["definition"].contains(
      "check_times"));
  const auto caught = repo.ej({"run", "sum", "--quiet"});
  CHECK(caught.exit_code == 1);
  CHECK_THAT(caught.err, Catch::Contains("gpu_ms = 800 ms, longer than the") &&
                             Catch::Contains("the benchmark's own timer cannot be right"));
  CHECK(show_run(repo, 1)["status"] == "invalid");

  repo.ok({"bench", "edit", "sum", "--no-check-times"});
  CHECK(json::parse(repo.ok(
            {"bench", "show", "sum", "--json"}))["revisions"][1]["definition"]["check_times"] == false);
  CHECK_THAT(repo.ok({"bench", "show", "sum"}), Catch::Contains("check times: off (--no-check-times"));
  repo.ok({"run", "sum", "--quiet"});
  CHECK(show_run(repo, 2)["status"] == "finished");

  repo.ok({"bench", "edit", "sum", "--check-times"}); // on again
  CHECK(repo.ej({"run", "sum", "--quiet"}).exit_code == 1);
  CHECK(show_run(repo, 3)["status"] == "invalid");
}

TEST_CASE(
    "a benchmark that prints a faster time than it took is flagged: its timer and the wall time disagree")
{
  EjRepo repo;
  // The candidate says 50 ms instead of 100 while it takes longer than the reference did.
  campaign(repo,
           "n=$(cat n 2>/dev/null || echo 0); n=$((n+1)); echo $n > n\n"
           "if [ \"$(cat mode)\" = cand ]; then sleep 0.4; echo \"t=50.$n\"; else sleep 0.15; echo "
           "\"t=100.$n\"; fi\n",
           {"--metric", "t=regex:t=([0-9.]+)", "--unit", "t=ms"});
  repo.ok({"run", "b", "--attempt", "2", "--quiet"});
  const auto out = judged(repo);
  const auto& verdict = out["verdict"];
  CHECK(verdict["validity"] == "suspect");
  REQUIRE(verdict["flags"].size() >= 1);
  CHECK_THAT(verdict["flags"][0].get<std::string>(),
             Catch::Contains("the benchmark's own timer and the process's wall time disagree"));
  CHECK(out["proposed_status"] != "adopted"); // t improved decisively, yet nothing is adopted
  CHECK(verdict["next"][0]["kind"] == "fix_figures");
  CHECK_THAT(repo.ok({"judge", "2"}), Catch::Contains("flagged: the benchmark's own timer"));

  // Registered as times that are not its process's own (--no-check-times), it is not held to them.
  repo.ok({"bench", "edit", "b", "--no-check-times"});
  write_text(repo.path() / "mode", "ref\n");
  repo.ok({"run", "b", "--attempt", "1", "--quiet"});
  repo.ok({"plan", "baseline", "p", "--run", "3", "--reason", "the new revision"});
  write_text(repo.path() / "mode", "cand\n");
  repo.ok({"run", "b", "--attempt", "2", "--quiet"});
  const auto unchecked = judged(repo)["verdict"];
  INFO(unchecked.dump(1));
  CHECK(unchecked["baseline_run"] == 3);
  CHECK(unchecked["outcome"] == "improved"); // t, as the benchmark says
  CHECK(unchecked["validity"] == "valid");
  CHECK(unchecked["flags"].empty());
}

TEST_CASE(
    "a benchmark that skips its work fails its --check: the run ends check-failed with the check's output")
{
  EjRepo repo;
  campaign(repo,
           "if [ \"$(cat mode)\" = cand ]; then echo 0 > out.txt; else sleep 0.05; echo 42 > out.txt; fi\n",
           {"--check", "grep -qx 42 out.txt || { echo 'wrong result:'; cat out.txt; exit 3; }"});
  const auto result = repo.ej({"run", "b", "--attempt", "2", "--quiet"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("--check after repeat 1") && Catch::Contains("exited with 3"));
  const auto run = show_run(repo, 2, true);
  CHECK(run["status"] == "check-failed");
  CHECK(run["check_output"] == "wrong result:\n0\n");
  // Never judged: neither the run nor its attempt.
  CHECK(repo.ej({"judge", "2"}).exit_code != 0);
  CHECK_THAT(repo.ok({"show", "r2"}), Catch::Contains("check-failed"));
}

TEST_CASE("a check with --check-every N runs after every Nth repeat and the last one, and a passing check "
          "lets the run finish")
{
  EjRepo repo;
  write_text(repo.path() / "bench.sh", "echo run >> runs.txt\n");
  repo.ok({"bench", "add", "c", "--shell", "sh bench.sh", "--repeat", "5", "--check",
           "wc -l < runs.txt >> checks.txt", "--check-every", "2"});
  repo.ok({"run", "c", "--quiet"});
  CHECK(show_run(repo, 1)["status"] == "finished");
  CHECK(read_text(repo.path() / "checks.txt") == "2\n4\n5\n"); // after repeats 2, 4 and the last
}

TEST_CASE("a benchmark that skips its work is caught by --same-output: the verdict is invalid and proposes "
          "no adoption")
{
  EjRepo repo;
  campaign(repo, "if [ \"$(cat mode)\" = cand ]; then echo 'sum=0'; else sleep 0.05; echo 'sum=4950'; fi\n",
           {"--same-output", "stdout"});
  repo.ok({"run", "b", "--attempt", "2", "--quiet"});
  const auto out = judged(repo);
  const auto& verdict = out["verdict"];
  CHECK(verdict["validity"] == "invalid");
  CHECK(verdict["invalid_reason"] == "output differs from the baseline's");
  CHECK(verdict["outcome"] == "inconclusive"); // wall_s fell 5x, yet it is not better
  // What to do next is to fix it: more rounds of an output that differs decide nothing.
  REQUIRE(verdict["next"].size() == 1);
  CHECK(verdict["next"][0]["kind"] == "fix_figures");
  CHECK(verdict["next"][0]["command"].is_null());
  CHECK(out["proposed_status"] == "rejected");
  CHECK_THAT(out["reason"].get<std::string>(),
             Catch::StartsWith("invalid: output differs from the baseline's"));
  CHECK_THAT(repo.ok({"show", "2"}), Catch::Contains("invalid: output differs from the baseline's"));
  CHECK_THAT(repo.ok({"plan", "render", "p", "--stdout"}),
             Catch::Contains("Invalid: output differs from the baseline's. Against run #1"));
}

TEST_CASE("ej compare of a benchmark that skips its work says invalid as the verdict does, in text, JSON "
          "and markdown")
{
  EjRepo repo;
  campaign(repo, "if [ \"$(cat mode)\" = cand ]; then echo 'sum=0'; else sleep 0.05; echo 'sum=4950'; fi\n",
           {"--same-output", "stdout"});
  repo.ok({"run", "b", "--attempt", "2", "--quiet"});
  // One side: the attempt against the baseline of its time, as ej judge holds it.
  const auto out = json::parse(repo.ok({"compare", "2", "--json"}));
  CHECK(out["validity"] == "invalid");
  CHECK(out["invalid_reason"] == "output differs from the baseline's");
  CHECK(out["flags"].is_array());
  CHECK(out["outcome"] == "inconclusive"); // wall_s fell 5x, yet it is not better
  CHECK(out["series"][0]["outcome"] == "inconclusive");
  REQUIRE(out["next"].size() == 1);
  CHECK(out["next"][0]["kind"] == "fix_figures");
  CHECK(out["design"]["kind"] == "sequential");
  CHECK(out["design"]["drift_controlled"] == false);
  CHECK(out["design"]["baseline_earlier_s"].get<double>() >= 0);
  CHECK(out["design"]["rounds"].is_null());
  // Each benchmark of an attempt alone says it too.
  REQUIRE(out["benchmarks"].size() == 1);
  CHECK(out["benchmarks"][0]["validity"] == "invalid");
  CHECK(out["benchmarks"][0]["next"][0]["kind"] == "fix_figures");
  // What is wrong comes first in the text, before the figures.
  const auto text = repo.ok({"compare", "2"});
  CHECK_THAT(text, Catch::Contains("invalid: output differs from the baseline's"));
  CHECK(text.find("invalid:") < text.find("wall_s"));
  CHECK(text.find("outcome    improved") == std::string::npos);
  CHECK_THAT(repo.ok({"compare", "2", "--format", "markdown"}),
             Catch::Contains("**invalid: output differs from the baseline's**"));
  // Two runs named: the candidate's output against the reference's.
  const auto runs = json::parse(repo.ok({"compare", "r1", "r2", "--json"}));
  CHECK(runs["validity"] == "invalid");
  CHECK(runs["invalid_reason"] == "output differs from the reference's");
  CHECK(runs["outcome"] == "inconclusive");
  CHECK(runs["next"][0]["kind"] == "fix_figures");
  CHECK(runs["design"]["kind"] == "sequential");
  CHECK_THAT(runs["design"]["text"].get<std::string>(), Catch::StartsWith("sequential: the reference was"));
  // The same output stands: valid, with what would decide it next.
  write_text(repo.path() / "mode", "ref\n");
  repo.ok({"run", "b", "--attempt", "1", "--quiet"});
  const auto same = json::parse(repo.ok({"compare", "r1", "r3", "--json"}));
  CHECK(same["validity"] == "valid");
  CHECK(same["invalid_reason"].is_null());
  REQUIRE_FALSE(same["next"].empty());
  CHECK(same["next"][0]["kind"] != "fix_figures");
  CHECK_THAT(repo.ok({"compare", "r1", "r3"}), !Catch::Contains("invalid"));
}

TEST_CASE(
    "a benchmark that changes the file it writes is caught by --same-output @FILE, and the same file passes")
{
  EjRepo repo;
  campaign(repo,
           "if [ \"$(cat mode)\" = cand ]; then printf 'A' > result.bin; else sleep 0.05; printf 'B' > "
           "result.bin; fi\n",
           {"--same-output", "@result.bin"});
  repo.ok({"run", "b", "--attempt", "2", "--quiet"});
  CHECK(judged(repo)["verdict"]["validity"] == "invalid");
  // The same output, measured again, is judged as usual.
  write_text(repo.path() / "bench.sh", "printf 'B' > result.bin\n");
  repo.ok({"try", "same", "--plan", "p"});
  repo.ok({"run", "b", "--attempt", "3", "--quiet"});
  const auto same = json::parse(repo.ok({"judge", "3", "--json"}));
  CHECK(same["verdict"]["validity"] == "valid");
  CHECK(same["verdict"]["invalid_reason"].is_null());
}

TEST_CASE("a benchmark whose checksum metric changes is caught by --same-output METRIC beyond --tolerance")
{
  EjRepo repo;
  campaign(repo,
           "if [ \"$(cat mode)\" = cand ]; then echo 'sum=4900'; else sleep 0.05; echo 'sum=4950'; fi\n",
           {"--metric", "sum=regex:sum=([0-9.]+)", "--better", "sum=higher", "--primary", "wall_s",
            "--same-output", "sum", "--tolerance", "0.5"});
  repo.ok({"run", "b", "--attempt", "2", "--quiet"});
  const auto verdict = judged(repo)["verdict"];
  CHECK(verdict["validity"] == "invalid");
  CHECK_THAT(verdict["invalid_reason"].get<std::string>(), Catch::Contains("sum 4900 vs 4950, beyond 0.5%"));
  // Within the tolerance, it stands.
  repo.ok({"bench", "edit", "b", "--tolerance", "2"});
}

TEST_CASE("a benchmark that forks its work past its exit makes the repeat invalid, not just reported")
{
  EjRepo repo;
  write_text(repo.path() / "bench.sh", "(sleep 1; echo done > later.txt) &\necho started\n");
  repo.ok({"bench", "add", "fork", "--shell", "sh bench.sh", "--repeat", "3"});
  const auto result = repo.ej({"run", "fork", "--quiet"});
  CHECK(result.exit_code == 1);
  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "invalid");
  CHECK_THAT(run["reason"].get<std::string>(),
             Catch::Contains("repeat 1") && Catch::Contains("work of its process group still running"));
}

TEST_CASE("a benchmark whose work escapes its process group past its exit makes the run invalid")
{
  EjRepo repo;
  // It exits once its work has left the process group, so that only the run's end can find it.
  write_text(repo.path() / "bench.sh",
             "rm -f pid; setsid sh -c 'echo $$ > pid; exec sleep 30' > /dev/null 2>&1 &\n"
             "until [ -s pid ]; do sleep 0.01; done\necho started\n");
  repo.ok({"bench", "add", "escape", "--shell", "sh bench.sh", "--repeat", "2"});
  const auto result = repo.ej({"run", "escape", "--quiet"});
  CHECK(result.exit_code == 1);
  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "invalid");
  CHECK_THAT(run["reason"].get<std::string>(), Catch::Contains("running outside its process group"));
}

TEST_CASE("a value beyond its metric's --floor is flagged implausible in the run's summary and the verdict")
{
  EjRepo repo;
  campaign(repo,
           "n=$(cat n 2>/dev/null || echo 0); n=$((n+1)); echo $n > n\n"
           "if [ \"$(cat mode)\" = cand ]; then echo \"copy_ms=0.1$n\"; else sleep 0.01; echo "
           "\"copy_ms=2.$n\"; fi\n",
           {"--metric", "copy_ms=regex:copy_ms=([0-9.]+)", "--unit", "copy_ms=ms", "--floor", "copy_ms=0.8"});
  const auto run = repo.ej({"run", "b", "--attempt", "2"});
  CHECK(run.exit_code == 0);
  CHECK_THAT(run.out, Catch::Contains("implausible: copy_ms 0.11 ms is below its floor 0.8 ms"));
  const auto out = judged(repo);
  CHECK(out["verdict"]["validity"] == "suspect");
  CHECK_THAT(out["verdict"]["flags"][0].get<std::string>(), Catch::Contains("implausible: copy_ms"));
  CHECK(out["proposed_status"] == "inconclusive");
  CHECK_THAT(repo.ok({"plan", "render", "p", "--stdout"}), Catch::Contains("Flagged: implausible: copy_ms"));
}

TEST_CASE("the checks are stored with the benchmark's revision, shown, and read as absent from older ones")
{
  EjRepo repo;
  repo.ok({"bench", "add", "g", "--repeat", "1", "--metric", "t=regex:t=([0-9.]+)", "--unit", "t=ms", "--",
           "echo", "t=1"});
  repo.ok({"bench", "edit", "g", "--check", "true", "--check-every", "3", "--same-output", "t", "--tolerance",
           "0.1", "--floor", "t=0.5"});
  const auto shown = json::parse(repo.ok({"bench", "show", "g", "--json"}));
  const auto& first = shown["revisions"][0]["definition"];
  CHECK_FALSE(first.contains("check"));
  CHECK_FALSE(first.contains("same_output"));
  CHECK_FALSE(first.contains("floors"));
  CHECK_FALSE(first.contains("check_times")); // on, the default: only --no-check-times is stored
  const auto& second = shown["revisions"][1]["definition"];
  CHECK(second["check"] == "true");
  CHECK(second["check_every"] == 3);
  CHECK(second["same_output"] == json({{"kind", "metric"}, {"name", "t"}, {"tolerance_pct", 0.1}}));
  CHECK(second["floors"] == json::parse(R"([{"metric":"t","value":0.5}])"));
  const auto text = repo.ok({"bench", "show", "g"});
  CHECK_THAT(text, Catch::Contains("check:    sh -c true (after every 3 repeats)"));
  CHECK_THAT(text, Catch::Contains("same output: t within 0.1% as the reference's"));
  CHECK_THAT(text, Catch::Contains("floor:    t=0.5"));
  // Mistakes are usage errors that say what to write.
  CHECK(repo.ej({"bench", "edit", "g", "--same-output", "nope"}).exit_code == 2);
  CHECK(repo.ej({"bench", "edit", "g", "--floor", "t"}).exit_code == 2);
  CHECK(repo.ej({"bench", "edit", "g", "--floor", "x=1"}).exit_code == 2);
  CHECK(repo.ej({"bench", "edit", "g", "--check-every", "0"}).exit_code == 2);
  // '' removes them.
  repo.ok({"bench", "edit", "g", "--check", "", "--same-output", "", "--floor", ""});
  const auto third = json::parse(repo.ok({"bench", "show", "g", "--json"}))["revisions"][2]["definition"];
  CHECK_FALSE(third.contains("check"));
  CHECK_FALSE(third.contains("same_output"));
  CHECK_FALSE(third.contains("floors"));
}
