// Plans with several measures: targets on any measured metric, each benchmark against its own
// baseline, the headline combination of a sweep, as `ej plan`, `ej judge`, `ej compare` and the
// plan document show them.
#include "support/ej_repo.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using ej::test::EjRepo;
using ej::test::read_text;
using ej::test::write_text;
using nlohmann::json;

namespace {

// serve: tok_s over a concurrency sweep; the candidate ("mode" holds "fast") wins at 1 and 2 and
// loses at 8. verify: verify_ms, 30 ms for the reference, 12.5 ms for the candidate, and it takes
// them (a time longer than the repeat would make the run invalid). Each repeat varies a little, the
// same way every run.
const char* const k_serve = R"sh(c=$1
n=$(cat count-$c 2>/dev/null || echo 0); echo $((n + 1)) > count-$c
case "$(cat mode 2>/dev/null)/$c" in
  fast/1) t=96 ;; fast/2) t=180 ;; fast/4) t=320 ;; fast/8) t=540 ;;
  */1) t=90 ;; */2) t=170 ;; */4) t=320 ;; */8) t=580 ;;
esac
echo "Output token throughput (tok/s): $t.$((n % 5))"
)sh";

const char* const k_verify = R"sh(n=$(cat count-v 2>/dev/null || echo 0); echo $((n + 1)) > count-v
if [ "$(cat mode 2>/dev/null)" = fast ]; then t=12; else t=30; fi
sleep 0.0$((t + 1))
echo "verify pass: $t.$((n % 5))5 ms"
)sh";

void set_up(EjRepo& repo)
{
  write_text(repo.path() / "serve.sh", k_serve);
  write_text(repo.path() / "verify.sh", k_verify);
  repo.ok({"bench", "add", "serve", "--shell", "sh serve.sh {concurrency}", "--param", "concurrency=1,2,4,8",
           "--repeat", "5", "--min-effect", "1", "--metric", "tok_s=kv:Output token throughput (tok/s)",
           "--better", "tok_s=higher"});
  repo.ok({"bench", "add", "verify", "--shell", "sh verify.sh", "--repeat", "5", "--min-effect", "5",
           "--metric", "verify_ms=regex:verify pass: ([0-9.]+) ms", "--unit", "verify_ms=ms", "--better",
           "verify_ms=lower"});
}

// Plan p measuring both, the reference attempt #1 with its runs pinned, the candidate #2 run.
void campaign(EjRepo& repo, bool pin_verify = true)
{
  set_up(repo);
  repo.ok({"plan", "new", "p", "--title", "Fast verify", "--measure", "serve:tok_s@concurrency=1",
           "--measure", "verify:verify_ms", "--target", "verify_ms < 15"});
  repo.ok({"try", "reference", "--plan", "p"});
  repo.ok({"try", "fused verify", "--plan", "p"});
  repo.ok({"run", "serve", "--attempt", "1", "--quiet"});
  repo.ok({"run", "verify", "--attempt", "1", "--quiet"});
  repo.ok({"plan", "baseline", "p", "--run", "1"});
  if (pin_verify) {
    repo.ok({"plan", "baseline", "p", "--bench", "verify", "--run", "2"});
  }
  write_text(repo.path() / "mode", "fast\n");
  repo.ok({"run", "serve", "--attempt", "2", "--quiet"});
  repo.ok({"run", "verify", "--attempt", "2", "--quiet"});
}

} // namespace

TEST_CASE("ej plan new takes measures and targets on any measured metric, and refuses what it cannot find")
{
  EjRepo repo;
  set_up(repo);
  const auto unknown_bench = repo.ej({"plan", "new", "p", "--title", "t", "--measure", "nope:tok_s"});
  CHECK(unknown_bench.exit_code == 2);
  CHECK_THAT(unknown_bench.err, Catch::Contains("no benchmark named 'nope'"));
  const auto unknown_metric = repo.ej({"plan", "new", "p", "--title", "t", "--measure", "serve:ttft"});
  CHECK(unknown_metric.exit_code == 2);
  CHECK_THAT(unknown_metric.err,
             Catch::Contains("benchmark serve has no metric 'ttft'; its metrics are tok_s"));
  const auto unknown_value =
      repo.ej({"plan", "new", "p", "--title", "t", "--measure", "serve@concurrency=3"});
  CHECK(unknown_value.exit_code == 2);
  CHECK_THAT(unknown_value.err,
             Catch::Contains("axis concurrency of benchmark serve has no value '3'; its values "
                             "are 1, 2, 4, 8"));
  // wall_s is every benchmark's: without measures to choose from, the user names one.
  const auto ambiguous = repo.ej({"plan", "new", "p", "--title", "t", "--target", "wall_s < 2"});
  CHECK(ambiguous.exit_code == 2);
  CHECK_THAT(ambiguous.err, Catch::Contains("name one: --target 'serve:wall_s < 2' or 'verify:wall_s < 2'"));
  CHECK(json::parse(repo.ok({"plan", "list", "--json"})).empty());

  // Both measured benchmarks have wall_s too: measures do not choose for the user either.
  const auto ambiguous_measured = repo.ej({"plan", "new", "p", "--title", "t", "--measure", "serve",
                                           "--measure", "verify", "--target", "wall_s < 2"});
  CHECK(ambiguous_measured.exit_code == 2);
  CHECK_THAT(ambiguous_measured.err, Catch::Contains("benchmarks serve, verify all measure wall_s"));

  repo.ok({"plan", "new", "p", "--title", "t", "--measure", "serve@concurrency=1", "--measure", "verify",
           "--target", "verify_ms < 15", "--target", "serve:wall_s < 2"});
  const auto plan = json::parse(repo.ok({"plan", "list", "--json"}))[0];
  CHECK(plan["measures"] ==
        json::parse(R"([{"bench": "serve", "metric": "tok_s", "headline": "concurrency=1"},
                                            {"bench": "verify", "metric": "verify_ms", "headline": ""}])"));
  // The target found its benchmark; wall_s keeps the one it named.
  CHECK(plan["targets"] == json::parse(R"([{"bench": "verify", "target": "verify_ms < 15"},
                                           {"bench": "serve", "target": "wall_s < 2"}])"));
  CHECK(plan["target"] == "verify_ms < 15"); // what an older ej reads
  const auto shown = repo.ok({"plan", "show", "p"});
  CHECK_THAT(shown, Catch::Contains("measures: serve:tok_s at concurrency=1 (headline)") &&
                        Catch::Contains("          verify:verify_ms") &&
                        Catch::Contains("target:   verify:verify_ms < 15"));
}

TEST_CASE("ej plan edit replaces measures, targets and the headline, and keeps what it is not given")
{
  EjRepo repo;
  set_up(repo);
  repo.ok({"plan", "new", "p", "--title", "t", "--target", "verify_ms < 15"});
  CHECK(json::parse(repo.ok({"plan", "list", "--json"}))[0]["targets"][0]["bench"] == "verify");
  CHECK(repo.ej({"plan", "edit", "p"}).exit_code == 2); // nothing to change
  repo.ok({"plan", "edit", "p", "--measure", "serve", "--measure", "verify", "--headline", "concurrency=2"});
  auto plan = json::parse(repo.ok({"plan", "list", "--json"}))[0];
  CHECK(plan["measures"].size() == 2);
  CHECK(plan["headline"] == "concurrency=2");
  CHECK(plan["targets"][0]["target"] == "verify_ms < 15");
  CHECK(repo.ej({"plan", "edit", "p", "--headline", "batch=2"}).exit_code == 2); // no measure has that axis
  repo.ok({"plan", "edit", "p", "--no-target", "--title", "Renamed"});
  plan = json::parse(repo.ok({"plan", "list", "--json"}))[0];
  CHECK(plan["targets"].empty());
  CHECK(plan["target"] == "");
  CHECK(plan["title"] == "Renamed");
  // Derived from events: a rebuild gives the same plan.
  repo.ok({"reindex"});
  CHECK(json::parse(repo.ok({"plan", "list", "--json"}))[0] == plan);
}

TEST_CASE("ej plan baseline --bench shows one benchmark's baseline and refuses a run of another")
{
  EjRepo repo;
  campaign(repo);
  const auto verify = repo.ok({"plan", "baseline", "p", "--bench", "verify"});
  CHECK_THAT(verify, Catch::Contains("baseline for verify: run #2") && !Catch::Contains("serve"));
  const auto wrong = repo.ej({"plan", "baseline", "p", "--bench", "verify", "--run", "3", "--reason", "x"});
  CHECK(wrong.exit_code == 2);
  CHECK_THAT(wrong.err, Catch::Contains("run #3 is a run of benchmark serve, not verify"));
}

TEST_CASE("ej judge judges every benchmark an attempt ran against its own baseline and records one sentence")
{
  EjRepo repo;
  campaign(repo);
  const auto judged = repo.ok({"judge", "2"});
  CHECK_THAT(judged, Catch::Contains("serve tok_s against run #1:") &&
                         Catch::Contains("verify verify_ms against run #2:"));
  CHECK_THAT(judged, Catch::Contains("tok_s [concurrency=8] 580.2 tok/s -> 540.2 tok/s, -6.89%"));
  CHECK_THAT(judged, Catch::Contains(
                         "mixed over 4 combinations: wins at concurrency <= 2, no change at 4, loses at 8"));
  CHECK_THAT(judged, Catch::Contains("target: verify_ms 12.25 ms meets < 15"));
  CHECK_THAT(judged, Catch::Contains("proposed status: adopted"));
  repo.ok({"judge", "2", "--apply"});
  const auto reason = json::parse(repo.ok({"show", "2", "--json"}))["reason"].get<std::string>();
  CHECK(reason ==
        "improved tok_s +6.65% at concurrency=1 (90.20 -> 96.20 tok/s); verify_ms 12.25 ms meets < 15");

  const auto as_json = json::parse(repo.ok({"judge", "2", "--json"}));
  CHECK(as_json["verdicts"].size() == 2);
  CHECK(as_json["verdict"]["bench"] == "serve");
  CHECK(as_json["verdict"]["headline"] == "concurrency=1");
  CHECK(as_json["verdict"]["outcome"] == "mixed");
  CHECK(as_json["verdict"]["headline_outcome"] == "improved");
  CHECK(as_json["targets"][0]["state"] == "met");
  CHECK(as_json["targets"][0]["bench"] == "verify");
}

TEST_CASE(
    "An attempt with no baseline for one benchmark gets the others judged and one line on what is missing")
{
  EjRepo repo;
  campaign(repo, false);
  const auto judged = repo.ok({"judge", "2"});
  CHECK_THAT(judged, Catch::Contains("not judged: plan p has no baseline for benchmark verify"));
  CHECK_THAT(judged, Catch::Contains("proposed status: adopted"));
  CHECK_THAT(judged,
             Catch::Contains("reason: improved tok_s") && Catch::Contains("; no baseline for verify"));
  // ej compare ATTEMPT covers every benchmark it ran: the one it can, and says which it cannot.
  const auto compared = repo.ok({"compare", "2"});
  CHECK_THAT(compared,
             Catch::Contains("benchmark serve") && Catch::Contains("not compared: verify: plan p has no "
                                                                   "baseline for benchmark verify"));
}

TEST_CASE("ej compare of an attempt covers each benchmark it ran, and --metric finds the benchmark")
{
  EjRepo repo;
  campaign(repo);
  const auto both = json::parse(repo.ok({"compare", "2", "--json"}));
  REQUIRE(both["benchmarks"].size() == 2);
  CHECK(both["benchmarks"][0]["bench"] == "verify"); // newest first, as the attempt ran them
  CHECK(both["benchmarks"][1]["bench"] == "serve");
  CHECK(both["not_compared"].empty());
  const auto text = repo.ok({"compare", "2"});
  CHECK_THAT(text,
             Catch::Contains("run #2 (reference) vs attempt #2 (run #4) (candidate), benchmark verify") &&
                 Catch::Contains("run #1 (reference) vs attempt #2 (run #3) (candidate), benchmark serve"));
  // Two attempts, one metric: the benchmark that measures it, whichever ran last.
  const auto tok_s = json::parse(repo.ok({"compare", "1", "2", "--metric", "tok_s", "--json"}));
  CHECK(tok_s["bench"] == "serve");
  CHECK(tok_s["series"].size() == 4);
  const auto verify = json::parse(repo.ok({"compare", "2", "--metric", "verify_ms", "--json"}));
  CHECK(verify["bench"] == "verify");
  CHECK(verify["series"][0]["outcome"] == "improved");
}

TEST_CASE("The plan document of a sweep sums it up at the headline and tells each attempt's evidence once")
{
  EjRepo repo;
  campaign(repo);
  repo.ok({"judge", "2", "--apply"});
  repo.ok({"plan", "render", "p"});
  const auto doc = read_text(repo.path() / "journal" / "p.md");
  // Two measures: the headline's value and change, the other's value, the target; the changes and
  // outcomes are in the attempt's section.
  // The design of the headline's change beside it (no outcome column with several measures): two
  // runs measured apart, and a note says what that means.
  CHECK_THAT(doc,
             Catch::Contains("| # | attempt | status | tok_s (tok/s) | change | verify_ms (ms) | target |"));
  CHECK_THAT(doc,
             Catch::Contains("| 2 | fused verify | adopted | 96.20 | +6.65% (sequential) | 12.25 | yes |"));
  CHECK_THAT(doc, Catch::Contains("\n\nA sequential change compares two runs measured at different times"));
  CHECK_THAT(doc, Catch::Contains(
                      "**Measures:** tok_s of serve (tok/s, higher is better) at concurrency=1; verify_ms "
                      "of verify (ms, lower is better)."));
  CHECK_THAT(doc, Catch::Contains("| tok_s (tok/s) | concurrency=1 | 90.20 | 96.20 | +6.65% |"));
  CHECK_THAT(doc, Catch::Contains("|  | concurrency=8 | 580.2 | 540.2 | -6.89% |"));
  CHECK_THAT(doc, Catch::Contains("tok_s wins at concurrency <= 2, no change at 4, loses at 8."));
  CHECK_THAT(doc, Catch::Contains("| verify_ms (ms) |  | 30.25 | 12.25 | -59.5% |"));
  // The runs of one sitting share a line, with their headline values only.
  CHECK_THAT(doc, Catch::Contains("- runs #3, #4 (") &&
                      Catch::Contains("): 96.20 tok/s at concurrency=1; verify_ms 12.25 ms\n"));
  CHECK(std::filesystem::exists(repo.path() / "journal" / "p-verify_ms.svg"));
  CHECK(std::filesystem::exists(repo.path() / "journal" / "p-progress.svg"));
  CHECK_THAT(repo.ok({"plan", "render", "p", "--check"}), Catch::Contains("is up to date"));
  // A chart changed by hand makes the document stale.
  write_text(repo.path() / "journal" / "p-progress.svg", "<svg/>\n");
  CHECK(repo.ej({"plan", "render", "p", "--check"}).exit_code == 1);
}
