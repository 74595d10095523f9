#include "support/ej_repo.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>

using namespace ej::test;
using nlohmann::json;

namespace {

// "x=v1,v2,..." for `ej record --samples`: start, start+step, ... (count values), plus shift.
std::string samples(const std::string& metric, double start, double step, int count, double shift = 0)
{
  std::string out = metric + "=";
  for (int i = 0; i < count; ++i) {
    char value[32];
    std::snprintf(value, sizeof value, "%.10g", start + i * step + shift);
    out += (i == 0 ? "" : ",") + std::string(value);
  }
  return out;
}

// A plan `p` (optionally with a target), benchmark `b` whose metric x (ms) is lower-is-better
// and y (tok/s) higher-is-better; figures are put in with `ej record`.
void set_up(const EjRepo& repo, const std::string& target = "")
{
  std::vector<std::string> plan{"plan", "new", "p", "--title", "Plan"};
  if (!target.empty()) {
    plan.insert(plan.end(), {"--target", target});
  }
  repo.ok(plan);
  repo.ok({"bench", "add", "b", "--metric", "x=regex:x=([0-9.]+)", "--metric", "y=regex:y=([0-9.]+)",
           "--unit", "x=ms", "--unit", "y=tok/s", "--better", "x=lower", "--better", "y=higher", "--",
           "true"});
}

void record(const EjRepo& repo, int attempt, const std::string& values, const std::string& bench = "b")
{
  repo.ok({"record", std::to_string(attempt), "--bench", bench, "--samples", values});
}

// Attempts 1 (the baseline, pinned) and 2 of plan p: x moves within its noise, y improves by half.
void record_y_improves(const EjRepo& repo)
{
  repo.ok({"try", "baseline", "--plan", "p"});
  repo.ok({"try", "faster elsewhere", "--plan", "p"});
  repo.ok({"record", "1", "--bench", "b", "--samples", samples("x", 10, 1, 10), "--samples",
           samples("y", 100, 1, 10)});
  repo.ok({"record", "2", "--bench", "b", "--samples", samples("x", 10, 1, 10, 0.5), "--samples",
           samples("y", 100, 1, 10, 50)});
  repo.ok({"plan", "baseline", "p", "--run", "1"});
}

json compare_json(const EjRepo& repo, const std::vector<std::string>& args)
{
  std::vector<std::string> all{"compare"};
  all.insert(all.end(), args.begin(), args.end());
  all.push_back("--json");
  return json::parse(repo.ok(all));
}

// A shell benchmark that prints x=<base>.<counter % 7> so repeats differ a little but never tie
// across the integer parts; `mode` (a file) and {concurrency} choose the base. Its benchmarks read
// it in microseconds: a time the script can take (one longer than its repeat makes the run invalid).
const char* const k_sweep_script = R"sh(n=$(cat counter 2>/dev/null || echo 0); n=$((n+1)); echo $n > counter
c=$1
if [ "$(cat mode 2>/dev/null)" = cand ]; then t=$((100 + c * 8)); else t=$((120 + c * 4)); fi
echo "x=$t.$((n % 7))"
)sh";

} // namespace

TEST_CASE("ej plan baseline pins a run, shows it with its history, and moving it needs a reason")
{
  EjRepo repo;
  set_up(repo);
  repo.ok({"try", "baseline", "--plan", "p"});
  record(repo, 1, samples("x", 10, 1, 10));
  record(repo, 1, samples("x", 10, 1, 10));

  CHECK_THAT(repo.ok({"plan", "baseline", "p"}), Catch::Contains("has no baseline"));
  CHECK_THAT(repo.ok({"plan", "baseline", "p", "--run", "1"}), Catch::Contains("run #1"));
  const auto again = repo.ej({"plan", "baseline", "p", "--run", "1"});
  CHECK(again.exit_code == 1);
  CHECK_THAT(again.err, Catch::Contains("already the baseline"));

  const auto no_reason = repo.ej({"plan", "baseline", "p", "--run", "2"});
  CHECK(no_reason.exit_code == 2);
  CHECK_THAT(no_reason.err, Catch::Contains("--reason"));
  repo.ok({"plan", "baseline", "p", "--run", "2", "--reason", "after the CUDA 13 upgrade"});

  const auto shown = repo.ok({"plan", "baseline", "p"});
  CHECK_THAT(shown, Catch::Contains("baseline for b: run #2"));
  CHECK_THAT(shown, Catch::Contains("b: run #1 pinned"));
  CHECK_THAT(shown, Catch::Contains("baseline moved from run #1 to run #2: after the CUDA 13 upgrade"));

  const auto history = json::parse(repo.ok({"plan", "baseline", "p", "--json"}));
  REQUIRE(history.size() == 2);
  CHECK(history[0]["run"] == 1);
  CHECK(history[0]["bench"] == "b");
  CHECK(history[1]["run"] == 2);
  CHECK(history[1]["reason"] == "after the CUDA 13 upgrade");

  const auto missing = repo.ej({"plan", "baseline", "p", "--run", "9", "--reason", "r"});
  CHECK(missing.exit_code == 1);
  CHECK_THAT(missing.err, Catch::Contains("no run #9"));
  CHECK(repo.ej({"plan", "baseline", "nope"}).exit_code == 1);
}

TEST_CASE("ej compare gives the medians, change, interval, p-value and outcome of a lower-is-better metric")
{
  EjRepo repo;
  set_up(repo);
  repo.ok({"try", "reference", "--plan", "p"});
  repo.ok({"try", "candidate", "--plan", "p"});
  // Reference 10..19, candidate the same 3.5 ms faster (no ties). Computed independently (NumPy):
  // medians 14.5 and 11; the change is the Hodges-Lehmann ratio, exp(median of the 100 pairwise
  // log differences) - 1 = -24.345% (signed as the time moved), its 95% interval from the 24th
  // smallest / largest log difference [-42.31%, -3.571%]; U = 21, exact two-sided p = 0.0288055597653.
  record(repo, 1, samples("x", 10, 1, 10));
  record(repo, 2, samples("x", 10, 1, 10, -3.5));

  const auto report = compare_json(repo, {"r1", "run:2"});
  CHECK(report["reference"] == "run #1");
  CHECK(report["candidate"] == "run #2");
  REQUIRE(report["series"].size() == 1);
  const auto& x = report["series"][0];
  CHECK(x["metric"] == "x");
  CHECK(x["unit"] == "ms");
  CHECK(x["reference_median"].get<double>() == Approx(14.5));
  CHECK(x["candidate_median"].get<double>() == Approx(11));
  CHECK(x["n_reference"] == 10);
  CHECK(x["n_candidate"] == 10);
  CHECK(x["estimate"] == "ratio");
  CHECK(x["basis"] == "test");
  CHECK(x["change_pct"].get<double>() == Approx(-24.344965729131296));
  CHECK(x["ratio"].get<double>() == Approx(1 - 0.24344965729131296));
  CHECK(x["median_ratio"].get<double>() == Approx(11 / 14.5));
  CHECK(x["shift"].is_null());
  CHECK(x["change_low_pct"].get<double>() == Approx(-42.307692307692314));
  CHECK(x["change_high_pct"].get<double>() == Approx(-3.5714285714285587));
  CHECK(x["change"] == "-24.3%");
  CHECK(x["interval"] == "[-42.3%, -3.57%]");
  CHECK(x["factor"] == "1.32x faster");
  CHECK(x["u"].get<double>() == Approx(21));
  CHECK(x["p_value"].get<double>() == Approx(0.0288055597653).epsilon(1e-6));
  CHECK(x["exact"] == true);
  CHECK(x["outcome"] == "improved");

  const auto text = repo.ok({"compare", "r1", "r2"});
  CHECK_THAT(text, Catch::Contains("14.50 ms -> 11.00 ms"));
  CHECK_THAT(text, Catch::Contains("n = 10 vs 10"));
  CHECK_THAT(text, Catch::Contains("change     -24.3%  (1.32x faster)"));
  CHECK_THAT(text, Catch::Contains("interval   [-42.3%, -3.57%]  (95%, Hodges-Lehmann ratio)"));
  CHECK_THAT(text, Catch::Contains("p=0.029 (Mann-Whitney U, exact)"));
  CHECK_THAT(text, Catch::Contains("improved"));
  // Figures typed in by hand are never passed off as measured.
  CHECK_THAT(text, Catch::Contains("run #2 was imported"));

  // Swapped, the same figures are a regression.
  const auto swapped = compare_json(repo, {"r2", "r1"});
  CHECK(swapped["series"][0]["change_pct"].get<double>() == Approx(32.17891045025332));
  CHECK(swapped["series"][0]["outcome"] == "regressed");
}

TEST_CASE("ej compare signs a throughput as it moved and calls a rise an improvement")
{
  EjRepo repo;
  set_up(repo);
  for (const auto* title : {"reference", "faster", "slower", "barely"}) {
    repo.ok({"try", title, "--plan", "p"});
  }
  // Reference 100..109 tok/s. +3.5: median 108 (+3.3493%), p = 0.0288; -3.5: the mirror image;
  // +2.5: p = 0.1051, not significant.
  record(repo, 1, samples("y", 100, 1, 10));
  record(repo, 2, samples("y", 100, 1, 10, 3.5));
  record(repo, 3, samples("y", 100, 1, 10, -3.5));
  record(repo, 4, samples("y", 100, 1, 10, 2.5));

  const auto faster = compare_json(repo, {"r1", "r2", "--metric", "y"})["series"][0];
  CHECK(faster["unit"] == "tok/s");
  CHECK(faster["candidate_median"].get<double>() == Approx(108));
  // NumPy, as above: the Hodges-Lehmann ratio and its interval.
  CHECK(faster["change_pct"].get<double>() == Approx(3.349357731868574));
  CHECK(faster["change_low_pct"].get<double>() == Approx(0.4672897196261738));
  CHECK(faster["change_high_pct"].get<double>() == Approx(6.372549019607887));
  CHECK(faster["factor"] == "1.03x higher throughput");
  CHECK(faster["p_value"].get<double>() == Approx(0.0288055597653).epsilon(1e-6));
  CHECK(faster["outcome"] == "improved");

  const auto slower = compare_json(repo, {"r1", "r3", "--metric", "y"})["series"][0];
  CHECK(slower["change_pct"].get<double>() == Approx(-3.349360302964599));
  CHECK(slower["outcome"] == "regressed");

  const auto barely = compare_json(repo, {"r1", "r4", "--metric", "y"})["series"][0];
  CHECK(barely["change_pct"].get<double>() == Approx(2.3923986275509623));
  CHECK(barely["p_value"].get<double>() == Approx(0.1051224317478).epsilon(1e-6));
  CHECK(barely["outcome"] == "inconclusive");
}

TEST_CASE("ej compare of two attempts pools each attempt's runs of the benchmark")
{
  EjRepo repo;
  set_up(repo);
  repo.ok({"try", "reference", "--plan", "p"});
  repo.ok({"try", "candidate", "--plan", "p"});
  record(repo, 1, samples("x", 10, 1, 5));
  record(repo, 1, samples("x", 15, 1, 5));
  record(repo, 2, samples("x", 6.5, 1, 5));
  record(repo, 2, samples("x", 11.5, 1, 5));

  const auto report = compare_json(repo, {"1", "#2"});
  CHECK(report["reference"] == "attempt #1 (runs #1, #2)");
  CHECK(report["candidate"] == "attempt #2 (runs #3, #4)");
  const auto& x = report["series"][0];
  CHECK(x["n_reference"] == 10);
  CHECK(x["n_candidate"] == 10);
  CHECK(x["reference_median"].get<double>() == Approx(14.5));
  CHECK(x["candidate_median"].get<double>() == Approx(11));
  CHECK(x["p_value"].get<double>() == Approx(0.0288055597653).epsilon(1e-6));

  const auto bad = repo.ej({"compare", "1", "r-x"});
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("names neither a run"));
  const auto none = repo.ej({"compare", "1", "7"});
  CHECK(none.exit_code == 1);
  CHECK_THAT(none.err, Catch::Contains("no attempt #7"));
}

TEST_CASE("ej compare lists what differs between the environments and warns that the comparison mixes them")
{
  EjRepo repo;
  set_up(repo);
  write_text(repo.path() / "bench.sh", k_sweep_script);
  repo.ok({"bench", "add", "s", "--shell", "sh bench.sh 1", "--repeat", "5", "--metric",
           "x=regex:x=([0-9.]+)", "--unit", "x=us"});
  repo.ok({"run", "s", "--quiet"}, {{"NCCL_ALGO", "Ring"}});
  repo.ok({"run", "s", "--quiet"}, {{"NCCL_ALGO", "Ring"}});
  repo.ok({"run", "s", "--quiet"}, {{"NCCL_ALGO", "Tree"}});

  const auto same = compare_json(repo, {"r1", "r2"});
  CHECK(same["environment_changes"].empty());
  CHECK_THAT(repo.ok({"compare", "r1", "r2"}), !Catch::Contains("environment"));

  const auto mixed = compare_json(repo, {"r1", "r3"});
  REQUIRE(mixed["environment_changes"].size() == 1);
  CHECK_THAT(mixed["environment_changes"][0].get<std::string>(), Catch::Contains("NCCL_ALGO"));
  CHECK_THAT(mixed["environment_changes"][0].get<std::string>(), Catch::Contains("Tree"));
  CHECK_THAT(mixed["warnings"].dump(), Catch::Contains("different environments"));
  const auto text = repo.ok({"compare", "r1", "r3"});
  CHECK_THAT(text, Catch::Contains("the comparison mixes them"));
  CHECK_THAT(text, Catch::Contains("NCCL_ALGO"));
}

TEST_CASE("ej compare refuses runs of different benchmark revisions unless --force")
{
  EjRepo repo;
  set_up(repo);
  repo.ok({"try", "a", "--plan", "p"});
  record(repo, 1, samples("x", 10, 1, 10));
  repo.ok({"bench", "edit", "b", "--metric", "x=regex:x=([0-9.]+)", "--unit", "x=ms", "--better", "x=lower",
           "--min-effect", "1", "--", "true"});
  record(repo, 1, samples("x", 10, 1, 10, -3.5));

  const auto refused = repo.ej({"compare", "r1", "r2"});
  CHECK(refused.exit_code == 1);
  CHECK_THAT(refused.err,
             Catch::Contains("revision 1") && Catch::Contains("revision 2") && Catch::Contains("--force"));

  const auto forced = compare_json(repo, {"r1", "r2", "--force"});
  CHECK(forced["series"][0]["outcome"] == "improved");
  CHECK_THAT(forced["warnings"].dump(), Catch::Contains("revisions differ"));
}

TEST_CASE("runs of an attempt in a plan with a baseline show their verdict in ej show, ej log and ej runs")
{
  EjRepo repo;
  set_up(repo);
  repo.ok({"try", "baseline", "--plan", "p"});
  repo.ok({"try", "faster", "--plan", "p"});
  record(repo, 1, samples("x", 10, 1, 10));
  record(repo, 2, samples("x", 10, 1, 10, -3.5));
  // Before a baseline is pinned there is nothing to compare with.
  CHECK_THAT(repo.ok({"log"}), !Catch::Contains("improved"));

  repo.ok({"plan", "baseline", "p", "--run", "1"});
  // Two runs recorded one after the other: a sequential verdict, which says how far apart they were.
  // (Catch's && keeps references to its operands: they must outlive it.)
  const auto judged = Catch::Contains("-24.3% [-42.3%, -3.57%] 1.32x faster, improved (p=0.029) vs run #1; "
                                      "sequential, baseline ");
  const auto imported = Catch::Contains(" earlier; imported figures, not measured by ej");
  const auto verdict = judged && imported;
  CHECK_THAT(repo.ok({"show", "2"}), verdict);
  CHECK_THAT(repo.ok({"log"}), verdict);
  CHECK_THAT(repo.ok({"runs"}), verdict);
  // The baseline itself has no verdict.
  CHECK_THAT(repo.ok({"show", "1"}), !Catch::Contains("improved"));

  const auto shown = json::parse(repo.ok({"show", "2", "--json"}));
  CHECK(shown["verdict"]["outcome"] == "improved");
  CHECK(shown["verdict"]["baseline_run"] == 1);
  CHECK(shown["verdict"]["design"]["kind"] == "sequential");
  CHECK(shown["verdict"]["design"]["drift_controlled"] == false);
  CHECK(shown["verdict"]["design"]["baseline_earlier_s"].get<double>() >= 0);
  CHECK_THAT(shown["verdict"]["design"]["text"].get<std::string>(),
             Catch::StartsWith("sequential: the baseline was measured ") &&
                 Catch::EndsWith(" earlier; drift not controlled"));
  // show, why and judge say it in a sentence of its own.
  CHECK_THAT(repo.ok({"show", "2"}), Catch::Contains("design:   sequential: the baseline was measured "));
  CHECK_THAT(repo.ok({"why", "2"}), Catch::Contains("  Design: sequential: the baseline was measured "));
  CHECK_THAT(repo.ok({"judge", "2"}), Catch::Contains("    sequential: the baseline was measured "));
  const auto runs = json::parse(repo.ok({"runs", "--json"}));
  bool found = false;
  for (const auto& run : runs) {
    if (run["number"] == 2) {
      CHECK_THAT(run["verdict"]["text"].get<std::string>(), verdict);
      found = true;
    }
  }
  CHECK(found);
}

TEST_CASE("ej plan show says which attempts meet the plan's target")
{
  EjRepo repo;
  set_up(repo, "x<12");
  repo.ok({"try", "baseline", "--plan", "p"});
  repo.ok({"try", "meets", "--plan", "p"});
  repo.ok({"try", "misses", "--plan", "p"});
  record(repo, 1, samples("x", 10, 1, 10));
  record(repo, 2, samples("x", 10, 1, 10, -3.5)); // median 11
  record(repo, 3, samples("x", 10, 1, 10, -1.5)); // median 13
  repo.ok({"plan", "baseline", "p", "--run", "1"});

  const auto text = repo.ok({"plan", "show", "p"});
  CHECK_THAT(text, Catch::Contains("target:   x < 12"));
  CHECK_THAT(text, Catch::Matches("(.|\n)*meets +[^\n]*meets target(.|\n)*"));
  CHECK_THAT(text, Catch::Matches("(.|\n)*misses +[^\n]*misses target(.|\n)*"));

  const auto plan = json::parse(repo.ok({"plan", "show", "p", "--json"}));
  const auto& attempts = plan["attempt_list"];
  REQUIRE(attempts.size() == 3);
  CHECK_FALSE(attempts[0].contains("verdict")); // the baseline
  CHECK(attempts[1]["meets_target"] == true);
  CHECK(attempts[2]["meets_target"] == false);
  CHECK(attempts[1]["verdict"]["target"] == "everywhere");
  CHECK(attempts[1]["verdict"]["baseline_run"] == 1);
}

TEST_CASE("a target that does not parse is refused at plan new with the reason")
{
  EjRepo repo;
  for (const auto* target : {"verify_ms", "verify_ms < fast", "< 15", "verify_ms == 15", "verify_ms < nan"}) {
    const auto result = repo.ej({"plan", "new", "p", "--title", "t", "--target", target});
    INFO(target);
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.err, Catch::Contains("target"));
  }
  CHECK(json::parse(repo.ok({"plan", "list", "--json"})).empty());
  repo.ok({"plan", "new", "p", "--title", "t", "--target", "tok_s>=89.5"});
  CHECK(json::parse(repo.ok({"plan", "list", "--json"}))[0]["target"] == "tok_s >= 89.5");
}

TEST_CASE("ej judge proposes adopted for an improvement that meets the target and records it with --apply")
{
  EjRepo repo;
  set_up(repo, "x < 12");
  repo.ok({"try", "baseline", "--plan", "p"});
  repo.ok({"try", "faster", "--plan", "p"});
  record(repo, 1, samples("x", 10, 1, 10));
  record(repo, 2, samples("x", 10, 1, 10, -3.5));

  const auto no_baseline = repo.ej({"judge", "2"});
  CHECK(no_baseline.exit_code == 1);
  CHECK_THAT(no_baseline.err, Catch::Contains("ej plan baseline p --run N"));

  repo.ok({"plan", "baseline", "p", "--run", "1"});
  const auto proposal = repo.ok({"judge", "2"});
  CHECK_THAT(proposal, Catch::Contains("proposed status: adopted"));
  CHECK_THAT(
      proposal,
      Catch::Contains("x 14.50 ms -> 11.00 ms, -24.3% [-42.3%, -3.57%] 1.32x faster, improved (p=0.029)"));
  CHECK_THAT(proposal, Catch::Contains("--apply"));
  CHECK(json::parse(repo.ok({"show", "2", "--json"}))["status"] == "proposed");

  CHECK_THAT(repo.ok({"judge", "2", "--apply"}), Catch::Contains("proposed -> adopted"));
  const auto shown = json::parse(repo.ok({"show", "2", "--json"}));
  CHECK(shown["status"] == "adopted");
  // One sentence: the decisive figures and the target; the evidence is judge's output and the document's.
  CHECK(shown["reason"] == "improved x -24.3% (14.50 -> 11.00 ms); x 11.00 ms meets < 12");

  CHECK(repo.ej({"judge", "9"}).exit_code == 1);
}

TEST_CASE("ej judge proposes rejected for a regression or no change, and inconclusive within the noise")
{
  EjRepo repo;
  set_up(repo);
  repo.ok({"bench", "edit", "b", "--metric", "x=regex:x=([0-9.]+)", "--unit", "x=ms", "--better", "x=lower",
           "--min-effect", "5", "--", "true"});
  for (const auto* title : {"baseline", "slower", "same", "few", "noisy"}) {
    repo.ok({"try", title, "--plan", "p"});
  }
  record(repo, 1, samples("x", 100, 0.1, 10));       // 100.0 .. 100.9
  record(repo, 2, samples("x", 100, 0.1, 10, 8));    // 8% slower
  record(repo, 3, samples("x", 100, 0.1, 10, 0.05)); // within 5%: no change
  record(repo, 4, samples("x", 90, 0.1, 3));         // too few samples to decide
  record(repo, 5, samples("x", 85.05, 3.3, 10));     // wide spread: cannot tell
  repo.ok({"plan", "baseline", "p", "--run", "1"});

  CHECK_THAT(repo.ok({"judge", "2"}),
             Catch::Contains("regressed") && Catch::Contains("proposed status: rejected"));
  CHECK_THAT(repo.ok({"judge", "3"}),
             Catch::Contains("no change") && Catch::Contains("proposed status: rejected"));
  CHECK_THAT(repo.ok({"judge", "4"}), Catch::Contains("proposed status: inconclusive"));
  CHECK_THAT(repo.ok({"judge", "5"}), Catch::Contains("proposed status: inconclusive"));

  repo.ok({"judge", "3", "--apply"});
  const auto shown = json::parse(repo.ok({"show", "3", "--json"}));
  CHECK(shown["status"] == "rejected");
  CHECK_THAT(shown["reason"].get<std::string>(), Catch::Contains("no change"));
}

TEST_CASE("ej compare of an attempt decides on the judged metric as its verdict does and on no other")
{
  EjRepo repo;
  set_up(repo);
  // x (the primary metric, judged) moves within its noise; y clearly improves.
  record_y_improves(repo);

  const auto judged = json::parse(repo.ok({"judge", "2", "--json"}));
  REQUIRE(judged["verdict"]["outcome"] == "inconclusive");
  const auto compared = compare_json(repo, {"2"});
  // Every series keeps its own outcome; the one decided is x's, as judge's, and so is what to do next.
  CHECK(compared["series"][0]["metric"] == "x");
  CHECK(compared["series"][1]["outcome"] == "improved");
  CHECK(compared["outcome"] == "inconclusive");
  CHECK(compared["next"][0]["kind"] == judged["verdict"]["next"][0]["kind"]);
  CHECK_THAT(repo.ok({"compare", "2", "--format", "markdown"}), Catch::Contains("inconclusive"));
}

TEST_CASE("ej compare of an attempt whose plan measures another metric than the primary decides on that one")
{
  EjRepo repo;
  set_up(repo);
  repo.ok({"plan", "edit", "p", "--measure", "b:y"});
  // x (the primary metric) moves within its noise; y, the metric the plan measures, clearly improves.
  record_y_improves(repo);

  const auto judged = json::parse(repo.ok({"judge", "2", "--json"}));
  REQUIRE(judged["verdict"]["metric"] == "y");
  REQUIRE(judged["verdict"]["outcome"] == "improved");
  const auto compared = compare_json(repo, {"2"});
  CHECK(compared["outcome"] == "improved");
  CHECK(compared["next"][0]["kind"] == judged["verdict"]["next"][0]["kind"]);
  // Asked for x, it decides on x.
  CHECK(compare_json(repo, {"2", "--metric", "x"})["outcome"] == "inconclusive");
}

TEST_CASE("ej compare of two runs of no attempt says that its next session measures the work tree")
{
  EjRepo repo;
  // The same five values each run (a counter modulo 5): inconclusive, so a session is proposed.
  repo.ok({"bench", "add", "b", "--repeat", "5", "--metric", "x=regex:x=([0-9.]+)", "--unit", "x=us", "--shell",
           "n=$(cat .git/c 2>/dev/null || echo 0); n=$((n+1)); echo $n > .git/c; echo x=$((100 + n % 5))"});
  repo.ok({"run", "b", "--quiet"});
  repo.ok({"run", "b", "--quiet"});
  const auto compared = compare_json(repo, {"r1", "r2"});
  REQUIRE(compared["next"][0]["kind"] == "measure_against");
  CHECK_THAT(compared["next"][0]["command"].get<std::string>(), Catch::StartsWith("ej run b --against r1"));
  CHECK_THAT(compared["next"][0]["why"].get<std::string>(),
             Catch::Contains("it measures the work tree as the candidate, so run it with run #2's code in "
                             "the work tree (its commit and diff: 'ej checkout r2 DIR' writes its files)"));
}

TEST_CASE(
    "ej compare of a parameter sweep compares per value and says in words where the candidate wins and loses")
{
  EjRepo repo;
  set_up(repo);
  write_text(repo.path() / "bench.sh", k_sweep_script);
  // x = 120 + 4c for the reference, 100 + 8c for the candidate: faster up to c = 4, slower from 8.
  repo.ok({"bench", "add", "s", "--shell", "sh bench.sh {concurrency}", "--param",
           "concurrency=1,2,4,8,16,32", "--repeat", "5", "--metric", "x=regex:x=([0-9.]+)", "--unit", "x=us",
           "--better", "x=lower"});
  repo.ok({"try", "reference", "--plan", "p"});
  repo.ok({"try", "candidate", "--plan", "p"});
  repo.ok({"run", "s", "--attempt", "1", "--quiet"});
  write_text(repo.path() / "mode", "cand\n");
  repo.ok({"run", "s", "--attempt", "2", "--quiet"});

  const auto report = compare_json(repo, {"r1", "r2", "--metric", "x"});
  const auto& series = report["series"];
  REQUIRE(series.size() == 6);
  const std::vector<std::string> values{"1", "2", "4", "8", "16", "32"};
  for (std::size_t i = 0; i < values.size(); ++i) {
    INFO(values[i]);
    CHECK(series[i]["params"] == "concurrency=" + values[i]);
    CHECK(series[i]["n_reference"] == 5);
    const double c = std::stod(values[i]);
    CHECK(series[i]["reference_median"].get<double>() == Approx(120 + 4 * c).margin(0.7));
    CHECK(series[i]["candidate_median"].get<double>() == Approx(100 + 8 * c).margin(0.7));
    CHECK(series[i]["outcome"] == (c <= 4 ? "improved" : "regressed"));
  }
  CHECK(report["crossover"] == "wins at concurrency <= 4, loses at >= 8");
  CHECK_THAT(repo.ok({"compare", "r1", "r2"}),
             Catch::Contains("crossover: wins at concurrency <= 4, loses at >= 8"));
}

TEST_CASE("ej compare refuses a run compared with itself, runs of different benchmarks and a missing metric")
{
  EjRepo repo;
  set_up(repo);
  repo.ok({"bench", "add", "other", "--metric", "x=regex:x=([0-9.]+)", "--", "true"});
  repo.ok({"try", "a", "--plan", "p"});
  record(repo, 1, samples("x", 10, 1, 10));
  record(repo, 1, samples("x", 10, 1, 10), "other");
  record(repo, 1, samples("y", 10, 1, 10));

  const auto itself = repo.ej({"compare", "r1", "run:1"});
  CHECK(itself.exit_code == 1);
  CHECK_THAT(itself.err, Catch::Contains("compared with itself"));

  const auto other = repo.ej({"compare", "r1", "r2"});
  CHECK(other.exit_code == 1);
  CHECK_THAT(other.err, Catch::Contains("different benchmarks"));

  const auto metric = repo.ej({"compare", "r1", "r3", "--metric", "z"});
  CHECK(metric.exit_code == 1);
  CHECK_THAT(metric.err, Catch::Contains("no samples of metric 'z'"));

  // r1 has only x and r3 only y: nothing in common.
  const auto disjoint = repo.ej({"compare", "r1", "r3"});
  CHECK(disjoint.exit_code == 1);
  CHECK_THAT(disjoint.err, Catch::Contains("with samples on both sides"));

  const auto missing = repo.ej({"compare", "r1", "r9"});
  CHECK(missing.exit_code == 1);
  CHECK_THAT(missing.err, Catch::Contains("no run #9"));
}

TEST_CASE("ej compare refuses a failed run and marks an interrupted one")
{
  EjRepo repo;
  write_text(repo.path() / "bench.sh", k_sweep_script);
  // Fails when a file `fail` exists; sleeps (to be interrupted) from the 13th repeat on.
  repo.ok({"bench", "add", "s", "--shell",
           "sh bench.sh 1; test ! -f fail || exit 3; if [ $(cat counter) -ge 13 ]; then sleep 30; fi",
           "--repeat", "10", "--metric", "x=regex:x=([0-9.]+)"});
  repo.ok({"run", "s", "--quiet"});

  // Interrupted during the third repeat: two samples measured, kept, and the comparison says so.
  const auto pid = start_command({EJ_BINARY, "run", "s", "--quiet"}, {repo.path(), {}, ""});
  // A minute at most: not a bound on ej's speed, a guard against a run that never gets there.
  for (int i = 0; i < 1200 && read_text(repo.path() / "counter") != "13\n"; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  REQUIRE(read_text(repo.path() / "counter") == "13\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ::kill(pid, SIGINT);
  CHECK(wait_command(pid) != 0);
  const auto interrupted = repo.ok({"compare", "r1", "r2"});
  CHECK_THAT(interrupted, Catch::Contains("run #2 is interrupted"));
  // A metric without a unit prints no stray spaces where the unit would be.
  CHECK_THAT(interrupted, Catch::Matches("(.|\n)*median +[0-9.]+ -> [0-9.]+  \\(n = 10 vs 2\\)(.|\n)*"));
  CHECK_THAT(interrupted, Catch::Contains("inconclusive"));

  write_text(repo.path() / "fail", "");
  CHECK(repo.ej({"run", "s", "--quiet"}).exit_code == 1);
  const auto failed = repo.ej({"compare", "r1", "r3"});
  CHECK(failed.exit_code == 1);
  CHECK_THAT(failed.err, Catch::Contains("run #3 is failed"));

  // Neither can be a baseline.
  repo.ok({"plan", "new", "p", "--title", "P"});
  CHECK(repo.ej({"plan", "baseline", "p", "--run", "2"}).exit_code == 1);
  CHECK(repo.ej({"plan", "baseline", "p", "--run", "3"}).exit_code == 1);
}

TEST_CASE("a benchmark printing nan or inf gives an extract-error run with the reason")
{
  EjRepo repo;
  int n = 0;
  for (const std::string value : {"nan", "inf", "-inf"}) {
    INFO(value);
    const auto name = "bad" + std::to_string(++n);
    repo.ok({"bench", "add", name, "--shell", "echo x=" + value, "--repeat", "2", "--metric",
             "x=regex:x=(\\S+)"});
    const auto run = repo.ej({"run", name, "--quiet"});
    CHECK(run.exit_code == 1);
    CHECK_THAT(run.err, Catch::Contains("not a finite number"));
    const auto runs = json::parse(repo.ok({"runs", "--json", "-n", "1"}));
    REQUIRE(runs.size() == 1);
    CHECK(runs[0]["bench"] == name);
    CHECK(runs[0]["status"] == "extract-error");
    CHECK_THAT(runs[0]["reason"].get<std::string>(), Catch::Contains("metric 'x'") && Catch::Contains(value));
  }
  // Figures typed in by hand are held to the same rule.
  repo.ok({"plan", "new", "p", "--title", "P"});
  repo.ok({"try", "a", "--plan", "p"});
  for (const auto* value : {"x=nan", "x=1,inf,2"}) {
    const auto imported = repo.ej({"record", "1", "--bench", "bad1", "--samples", value});
    INFO(value);
    CHECK(imported.exit_code == 2);
    CHECK_THAT(imported.err, Catch::Contains("not a finite number"));
  }
  // kv extraction says the same.
  repo.ok({"bench", "add", "kv", "--shell", "echo 'y: NaN'", "--metric", "y=kv:y"});
  const auto run = repo.ej({"run", "kv", "--quiet"});
  CHECK(run.exit_code == 1);
  CHECK_THAT(run.err, Catch::Contains("not a finite number"));
}

TEST_CASE("every command that takes a run reads r5, run:5 and 5 alike")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"try", "an idea", "--plan", "p"});
  repo.ok({"bench", "add", "b", "--repeat", "2", "--metric", "x=regex:x=([0-9.]+)", "--", "sh", "-c",
           "echo x=1"});
  repo.ok({"run", "b", "--attempt", "1", "--quiet"});
  repo.ok({"run", "b", "--attempt", "1", "--quiet"});
  const auto by_words = repo.ok({"show", "run", "2", "--json"});
  for (const std::string name : {"r2", "run:2", "run2"}) {
    INFO(name);
    CHECK(repo.ok({"show", name, "--json"}) == by_words);
    CHECK(repo.ok({"show", "run", name, "--json"}) == by_words);
    CHECK(repo.ok({"env", "show", name, "--json"}) == repo.ok({"env", "show", "2", "--json"}));
    repo.ok({"env", "diff", "r1", name});
    repo.ok({"wait", name});
    repo.ok({"compare", "r1", name});
  }
  repo.ok({"plan", "baseline", "p", "--run", "r1"});
  CHECK_THAT(repo.ok({"plan", "baseline", "p"}), Catch::Contains("run #1"));
  // An attempt is still an attempt, and a typo names itself.
  CHECK_THAT(repo.ok({"show", "1"}), Catch::Contains("an idea"));
  const auto typo = repo.ej({"show", "rx2"});
  CHECK(typo.exit_code == 2);
  CHECK_THAT(typo.err, Catch::Contains("'rx2'"));
  const auto bad_run = repo.ej({"env", "show", "runx"});
  CHECK(bad_run.exit_code == 2);
  CHECK_THAT(bad_run.err, Catch::Contains("is not a run"));
}

TEST_CASE("ej compare of a sweep with few samples warns about them once, not under every combination")
{
  EjRepo repo;
  repo.ok({"bench", "add", "sweep", "--metric", "t=kv:t", "--unit", "t=us", "--param", "size=1,2,3",
           "--repeat", "5", "--shell", "echo \"t: {size}\""});
  repo.ok({"run", "sweep", "--quiet"});
  repo.ok({"run", "sweep", "--quiet"});
  const auto out = repo.ok({"compare", "r1", "r2"});
  const auto count = [&](const std::string& text) {
    std::size_t n = 0;
    for (auto at = out.find(text); at != std::string::npos; at = out.find(text, at + 1)) {
      ++n;
    }
    return n;
  };
  CHECK(count("the reference has only 5 samples") == 1);
  CHECK(count("the candidate has only 5 samples") == 1);
  CHECK(count("size=") >= 3); // every combination is still compared
}
