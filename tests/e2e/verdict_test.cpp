// Verdicts as a user meets them: a sweep over two axes judged combination by combination, a
// baseline that moved, imported single figures.
#include "support/command.h"
#include "support/ej_repo.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace ej::test;
using nlohmann::json;

namespace {

// x = base.<counter % 7> ms: the base depends on {variant}, {size} and the file `mode`. With mode
// "cand", size 2 runs 2.5x faster and size 1 does not move; variant b is 10 ms slower than a.
const char* const k_two_axes_script =
    R"sh(n=$(cat counter 2>/dev/null || echo 0); n=$((n+1)); echo $n > counter
v=$1; s=$2
t=$((100 * s))
if [ "$v" = b ]; then t=$((t + 10)); fi
if [ "$(cat mode 2>/dev/null)" = cand ] && [ "$s" = 2 ]; then t=$((t * 2 / 5)); fi
echo "x=$t.$((n % 7))"
)sh";

void sweep_campaign(const EjRepo& repo)
{
  write_text(repo.path() / "bench.sh", k_two_axes_script);
  repo.ok({"plan", "new", "p", "--title", "Sweep", "--target", "x < 100"});
  // The times are made up (100 to 210 ms from a script that takes a few): this is about judging a
  // sweep, so the benchmark's timer is not held to the wall time.
  repo.ok({"bench", "add", "s", "--shell", "sh bench.sh {variant} {size}", "--param", "variant=a,b",
           "--param", "size=1,2", "--repeat", "6", "--metric", "x=regex:x=([0-9.]+)", "--unit", "x=ms",
           "--no-check-times"});
  repo.ok({"try", "reference", "--plan", "p"});
  repo.ok({"try", "candidate", "--plan", "p"});
  repo.ok({"run", "s", "--attempt", "1", "--quiet"});
  repo.ok({"plan", "baseline", "p", "--run", "1"});
  write_text(repo.path() / "mode", "cand\n");
  repo.ok({"run", "s", "--attempt", "2", "--quiet"});
}

} // namespace

TEST_CASE("a sweep over two axes is judged combination by combination in judge, show, log and the document")
{
  EjRepo repo;
  sweep_campaign(repo);

  const auto shown = json::parse(repo.ok({"show", "2", "--json"}));
  const auto& verdict = shown["verdict"];
  CHECK(verdict["outcome"] == "improved"); // improved at size=2, unchanged at size=1
  REQUIRE(verdict["combinations"].size() == 4);
  std::map<std::string, std::string> outcomes;
  for (const auto& c : verdict["combinations"]) {
    outcomes[c["params"].get<std::string>()] = c["outcome"].get<std::string>();
    if (c["params"].get<std::string>().find("size=2") != std::string::npos) {
      CHECK(c["change_pct"].get<double>() == Approx(-60.0).margin(0.5));
      CHECK(c["factor"] == "2.49x faster"); // 200.2 -> 80.35: the counter's decimals
    }
  }
  CHECK(outcomes["size=2,variant=a"] == "improved");
  CHECK(outcomes["size=2,variant=b"] == "improved");
  CHECK(outcomes["size=1,variant=a"] != "improved");
  CHECK(outcomes["size=1,variant=b"] != "improved");
  // The target x < 100 holds at size=2 only.
  CHECK(verdict["target"] == "somewhere");
  CHECK(verdict["target_met_at"] == json({"size=2,variant=a", "size=2,variant=b"}));

  CHECK_THAT(repo.ok({"log"}), Catch::Contains("improved over 4 combinations"));
  const auto judged = repo.ok({"judge", "2"});
  CHECK_THAT(judged,
             Catch::Contains("x [size=2,variant=a] 200.2 ms -> 80.35 ms, -59.9% [-60.0%, -59.8%] 2.49x "
                             "faster, improved (p=0.0022), n = 6 vs 6"));
  CHECK_THAT(judged, Catch::Contains("target: x meets < 100 only at size=2,variant=a; size=2,variant=b"));
  CHECK_THAT(judged, Catch::Contains("proposed status: rejected"));

  // Two combinations of one run, when the user asks.
  const auto pair = json::parse(repo.ok({"compare", "r1:variant=a", "r1:variant=b", "--json"}));
  REQUIRE(pair["series"].size() >= 2);
  CHECK(pair["reference"] == "run #1 [variant=a]");
  CHECK(pair["series"][0]["label"] == "x [size=1, variant=a vs variant=b]");
  CHECK(pair["series"][0]["outcome"] == "regressed"); // b is 10 ms slower
  const auto bad = repo.ej({"compare", "r1:variant", "r2"});
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("is not AXIS=VALUE"));
  const auto absent = repo.ej({"compare", "r1:variant=zzz", "r2"});
  CHECK(absent.exit_code == 1);
  CHECK_THAT(absent.err, Catch::Contains("run #1 has no combination variant=zzz"));

  repo.ok({"plan", "render", "p"});
  const auto document = read_text(repo.path() / "journal" / "p.md");
  CHECK_THAT(document, Catch::Contains(" | improved (sequential) | ")); // the summary; the evidence table says the rest:
  CHECK_THAT(document, Catch::Contains("at size=2,variant=a; size=2,variant=b"));
  CHECK_THAT(document, Catch::Contains("| x (ms) | size=1,variant=a | 100.3 | 100.3 | -0.0497% |"));
  CHECK_THAT(document, Catch::Contains(
                           "|  | size=2,variant=b | 210.2 | 84.35 | -59.9% | [-60.0%, -59.8%] | improved |"));
  CHECK_THAT(document, Catch::Contains("x wins at size=2,variant=a and size=2,variant=b, inconclusive at "
                                       "size=1,variant=a and size=1,variant=b."));
  // Said once: the run line gives the range of its values, not each combination again.
  CHECK_THAT(document, Catch::Contains("): 80.35 … 110.3 ms\n"));
}

TEST_CASE("a verdict is against the baseline of its time, and says when the baseline moved since")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Moves"});
  repo.ok({"bench", "add", "b", "--metric", "x=regex:x=([0-9.]+)", "--unit", "x=ms", "--", "true"});
  for (const auto* title : {"old stack", "candidate", "new stack"}) {
    repo.ok({"try", title, "--plan", "p"});
  }
  const std::string ten = "x=10,10.1,9.9,10.2,9.8,10.05";
  repo.ok({"record", "1", "--bench", "b", "--samples", ten, "--when", "2026-01-10"});
  repo.ok({"plan", "baseline", "p", "--run", "1"}, {{"EJ_NOW", "2026-01-10T12:00:00Z"}});
  repo.ok({"record", "2", "--bench", "b", "--samples", "x=5,5.05,4.95,5.1,4.9,5.02", "--when", "2026-01-11"});
  repo.ok(
      {"record", "3", "--bench", "b", "--samples", "x=4,4.04,3.96,4.08,3.92,4.02", "--when", "2026-01-12"});
  repo.ok({"plan", "baseline", "p", "--run", "3", "--reason", "new stack"},
          {{"EJ_NOW", "2026-01-12T12:00:00Z"}});

  const auto shown = repo.ok({"show", "2"});
  CHECK_THAT(shown, Catch::Contains("-50.0% ["));
  CHECK_THAT(shown, Catch::Contains("vs run #1, the baseline then; the baseline is now run #3"));
  CHECK_THAT(repo.ok({"why", "candidate"}),
             Catch::Contains("Evidence: x -50.0% [") && Catch::Contains("the baseline is now run #3"));
  CHECK(json::parse(repo.ok({"why", "2", "--json"}))[0]["verdict"]["baseline_run"] == 1);
  const auto verdict = json::parse(repo.ok({"show", "2", "--json"}))["verdict"];
  CHECK(verdict["baseline_run"] == 1);
  CHECK(verdict["baseline_now"] == 3);
  CHECK(verdict["against"] == "then");

  const auto today = json::parse(repo.ok({"judge", "2", "--against", "current", "--json"}));
  CHECK(today["verdict"]["baseline_run"] == 3);
  CHECK(today["verdict"]["outcome"] == "regressed");
  CHECK(today["reason"] == "regressed x +25.0% (4.010 -> 5.010 ms) against the current baseline");
  // One side: compared with the baseline of its time, or today's.
  CHECK(json::parse(repo.ok({"compare", "2", "--json"}))["reference"] == "run #1");
  CHECK(json::parse(repo.ok({"compare", "2", "--against", "current", "--json"}))["reference"] == "run #3");
  const auto wrong = repo.ej({"compare", "2", "--against", "yesterday"});
  CHECK(wrong.exit_code == 2);
  CHECK_THAT(wrong.err, Catch::Contains("--against takes 'then'"));
}

namespace {

std::string sql(const EjRepo& repo, const std::string& statement)
{
  const auto result = run_command({"sqlite3", repo.db_path().string(), statement});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return result.out;
}

} // namespace

TEST_CASE("ej log prints the verdict line a render kept until a run, a baseline or a benchmark changes it")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Kept"});
  repo.ok({"bench", "add", "b", "--metric", "x=regex:x=([0-9.]+)", "--unit", "x=ms", "--", "true"});
  for (const auto* title : {"reference", "candidate", "no runs yet"}) {
    repo.ok({"try", title, "--plan", "p"});
  }
  repo.ok(
      {"record", "1", "--bench", "b", "--samples", "x=10,10.1,9.9,10.2,9.8,10.05", "--when", "2026-01-10"});
  repo.ok({"plan", "baseline", "p", "--run", "1"}, {{"EJ_NOW", "2026-01-10T12:00:00Z"}});
  repo.ok({"record", "2", "--bench", "b", "--samples", "x=5,5.05,4.95,5.1,4.9,5.02", "--when", "2026-01-11"});
  const auto judged = repo.ok({"log"});
  CHECK_THAT(judged, Catch::Contains("-50.0% ["));

  repo.ok({"plan", "render", "p"});
  CHECK(sql(repo, "SELECT count(*) FROM verdict_cache") == "3\n"); // attempt 3's: no verdict
  CHECK(repo.ok({"log"}) == judged);                               // the same lines, read instead of judged
  // Proof that they are read: a line changed behind ej's back is what log prints...
  sql(repo, "UPDATE verdict_cache SET text = 'kept by the render' WHERE attempt = 2");
  CHECK_THAT(repo.ok({"log"}), Catch::Contains("kept by the render"));
  // ...until the attempt has another run: judged again, with both runs.
  repo.ok({"record", "2", "--bench", "b", "--samples", "x=5,5.05,4.95,5.1,4.9,5.02", "--when", "2026-01-12"});
  auto now = repo.ok({"log"});
  CHECK_THAT(now, !Catch::Contains("kept by the render") && Catch::Contains("-50.0% ["));

  // A new baseline changes every line of the plan, even those of attempts that did not move (a kept
  // line edited behind ej's back, as here, is judged again; see the test below for one that is not).
  repo.ok({"plan", "render", "p"});
  sql(repo, "UPDATE verdict_cache SET text = 'kept by the render'");
  repo.ok(
      {"record", "3", "--bench", "b", "--samples", "x=4,4.04,3.96,4.08,3.92,4.02", "--when", "2026-01-13"});
  repo.ok({"plan", "baseline", "p", "--run", "3", "--reason", "new stack"},
          {{"EJ_NOW", "2026-01-13T12:00:00Z"}});
  now = repo.ok({"log"});
  CHECK_THAT(now, !Catch::Contains("kept by the render") && Catch::Contains("the baseline is now run #3"));

  // So does an edited benchmark, and reindex forgets every kept line.
  repo.ok({"plan", "render", "p"});
  sql(repo, "UPDATE verdict_cache SET text = 'kept by the render'");
  repo.ok({"bench", "edit", "b", "--repeat", "3"});
  CHECK_THAT(repo.ok({"log"}), !Catch::Contains("kept by the render"));
  repo.ok({"plan", "render", "p"});
  repo.ok({"reindex"});
  CHECK(sql(repo, "SELECT count(*) FROM verdict_cache") == "0\n");
  CHECK(repo.ok({"log"}) == now);
}

TEST_CASE("imported single figures give the change and the factor, never a test they cannot have")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Imported"});
  repo.ok({"bench", "add", "b", "--metric", "tok_s=regex:tok_s=([0-9.]+)", "--unit", "tok_s=tok/s",
           "--better", "tok_s=higher", "--", "true"});
  repo.ok({"try", "baseline", "--plan", "p"});
  repo.ok({"try", "fusion", "--plan", "p"});
  repo.ok({"record", "1", "--bench", "b", "--metric", "tok_s=92.6"});
  repo.ok({"record", "2", "--bench", "b", "--metric", "tok_s=96.1"});
  repo.ok({"plan", "baseline", "p", "--run", "1"});

  const std::string text = "+3.78% 1.04x higher throughput, single figures, no test vs run #1";
  CHECK_THAT(repo.ok({"show", "2"}), Catch::Contains(text));
  CHECK_THAT(repo.ok({"log"}), Catch::Contains(text));
  const auto c = json::parse(repo.ok({"compare", "r1", "r2", "--json"}))["series"][0];
  CHECK(c["basis"] == "single-figures");
  CHECK(c["p_value"].is_null());
  CHECK(c["change_low_pct"].is_null());
  CHECK(c["interval"] == "");
  CHECK(c["outcome"] == "inconclusive");
  const auto printed = repo.ok({"compare", "r1", "r2"});
  CHECK_THAT(printed, Catch::Contains("outcome    inconclusive: single figures, no test"));
  CHECK_THAT(printed, Catch::Contains("run #2 was imported"));
  CHECK_THAT(printed, !Catch::Contains("p="));
  const auto judged = repo.ok({"judge", "2"});
  CHECK_THAT(judged, Catch::Contains("proposed status: inconclusive"));
}

TEST_CASE("ej compare says when a run mostly waited: its wall time far exceeds its CPU time")
{
  EjRepo repo;
  write_text(repo.path() / "bench.sh",
             "n=$(cat counter 2>/dev/null || echo 0); n=$((n+1)); echo $n > counter\n"
             "sleep 0.25; echo \"x=1$((n % 5)).$((n % 3))\"\n");
  repo.ok(
      {"bench", "add", "s", "--shell", "sh bench.sh", "--repeat", "4", "--metric", "x=regex:x=([0-9.]+)"});
  repo.ok({"run", "s", "--quiet"});
  repo.ok({"run", "s", "--quiet"});
  const auto text = repo.ok({"compare", "r1", "r2"});
  CHECK_THAT(text, Catch::Contains("run #1: wall time is") && Catch::Contains("the benchmark mostly waited"));
  CHECK_THAT(text, Catch::Contains("run #2: wall time is"));
}

TEST_CASE("ej log reads a line the render kept after a later baseline, with the note on it judging gives")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Kept"});
  repo.ok({"bench", "add", "b", "--metric", "x=regex:x=([0-9.]+)", "--unit", "x=ms", "--", "true"});
  for (const auto* title : {"reference", "candidate", "new stack"}) {
    repo.ok({"try", title, "--plan", "p"});
  }
  repo.ok(
      {"record", "1", "--bench", "b", "--samples", "x=10,10.1,9.9,10.2,9.8,10.05", "--when", "2026-01-10"});
  repo.ok({"plan", "baseline", "p", "--run", "1"}, {{"EJ_NOW", "2026-01-10T12:00:00Z"}});
  repo.ok({"record", "2", "--bench", "b", "--samples", "x=5,5.05,4.95,5.1,4.9,5.02", "--when", "2026-01-11"});
  repo.ok({"plan", "render", "p"});
  repo.ok(
      {"record", "3", "--bench", "b", "--samples", "x=4,4.04,3.96,4.08,3.92,4.02", "--when", "2026-01-13"});
  repo.ok({"plan", "baseline", "p", "--run", "3", "--reason", "new stack"},
          {{"EJ_NOW", "2026-01-13T12:00:00Z"}});
  const auto now = repo.ok({"log"});
  CHECK_THAT(now,
             Catch::Contains("-50.0% [") && Catch::Contains("vs run #1, the baseline then; the baseline is "
                                                            "now run #3"));
  // Attempt 2's line is the one the render kept, the note on the baseline worded anew...
  sql(repo, "UPDATE verdict_cache SET text = 'K' || substr(text, 2) WHERE attempt = 2");
  const auto read = repo.ok({"log"});
  CHECK_THAT(read, Catch::Contains("K50.0% [") && Catch::Contains("the baseline is now run #3"));
  // ...and what judging it again gives.
  sql(repo, "DELETE FROM verdict_cache");
  CHECK(repo.ok({"log"}) == now);
}
