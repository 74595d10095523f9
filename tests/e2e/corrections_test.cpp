// Correcting the record as a user does: blockers added and removed after the fact, a blocked
// attempt resolved by its adopted retry, runs withdrawn from judgements and documents (and taken
// back), a reason given to a baseline pin later, a run cancelled in the GPU queue, and the code
// behind a run. Every correction is an event: it survives ej reindex and ej fsck.
#include "support/command.h"
#include "support/ej_repo.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <thread>

using namespace ej::test;
using nlohmann::json;

namespace {

// (Compiled together with other tests: names of its own.)
std::string corrections_sql(const EjRepo& repo, const std::string& statement)
{
  const auto result = run_command({"sqlite3", repo.db_path().string(), statement});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return result.out;
}

void check_journal_agrees(const EjRepo& repo)
{
  const auto fsck = repo.ej({"fsck"});
  INFO(fsck.out << fsck.err);
  CHECK(fsck.exit_code == 0);
}

// The rendered document's text, as ej plan render --stdout writes it.
std::string corrections_document(const EjRepo& repo)
{
  return repo.ok({"plan", "render", "p", "--stdout"});
}

// Plan p, benchmark b (x, ms, lower is better), attempt #1 "reference" with run #1 pinned as the
// baseline, attempt #2 "candidate" with run #2 (a debug build, 2x "faster") and run #3 (the real
// figure): all recorded figures, dated.
void withdrawal_campaign(const EjRepo& repo)
{
  repo.ok({"plan", "new", "p", "--title", "Faster x"});
  repo.ok({"bench", "add", "b", "--metric", "x=regex:x=([0-9.]+)", "--unit", "x=ms", "--", "true"});
  repo.ok({"try", "reference", "--plan", "p"});
  repo.ok({"try", "candidate", "--plan", "p"});
  repo.ok(
      {"record", "1", "--bench", "b", "--samples", "x=10,10.1,9.9,10.2,9.8,10.05", "--when", "2026-01-10"});
  repo.ok({"plan", "baseline", "p", "--run", "1"}, {{"EJ_NOW", "2026-01-10T12:00:00Z"}});
  repo.ok({"record", "2", "--bench", "b", "--samples", "x=5,5.05,4.95,5.1,4.9,5.02", "--when", "2026-01-11",
           "--source", "debug build"});
  repo.ok({"record", "2", "--bench", "b", "--samples", "x=10,10.02,9.98,10.1,9.9,10.01", "--when",
           "2026-01-12", "--source", "release build"});
}

} // namespace

TEST_CASE(
    "ej attempt edit adds a blocker found later and removes it, as events that survive reindex and fsck")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"try", "CUDA 13 upgrade", "--plan", "p"});
  repo.ok({"try", "Torch symmetric memory", "--plan", "p"});
  CHECK_THAT(repo.ok({"attempt", "edit", "2", "--blocked-by", "1"}), Catch::Contains("#2: edited"));
  CHECK_THAT(repo.ok({"show", "2"}), Catch::Contains("link:       blocked-by #1"));
  CHECK_THAT(repo.ok({"why", "2"}), Catch::Contains("Blocked by #1 CUDA 13 upgrade — still proposed"));
  CHECK_THAT(corrections_document(repo), Catch::Contains("- **Blocked by:** #1 CUDA 13 upgrade (proposed)"));
  repo.ok({"reindex"});
  CHECK_THAT(repo.ok({"show", "2"}), Catch::Contains("link:       blocked-by #1"));
  check_journal_agrees(repo);

  // What cannot be: a second link alike, a link to itself, removing a blocker it does not have.
  const auto twice = repo.ej({"attempt", "edit", "2", "--blocked-by", "1"});
  CHECK(twice.exit_code == 1);
  CHECK_THAT(twice.err, Catch::Contains("#2 is blocked by #1 already"));
  const auto itself = repo.ej({"attempt", "edit", "2", "--blocked-by", "2"});
  CHECK(itself.exit_code == 2);
  CHECK_THAT(itself.err, Catch::Contains("cannot be linked to itself"));
  const auto not_blocked = repo.ej({"attempt", "edit", "1", "--unblock", "2"});
  CHECK(not_blocked.exit_code == 1);
  CHECK_THAT(not_blocked.err, Catch::Contains("#1 is not blocked by #2; it has no blocker"));

  repo.ok({"attempt", "edit", "2", "--unblock", "1"});
  CHECK_THAT(repo.ok({"show", "2"}), !Catch::Contains("blocked-by"));
  CHECK(json::parse(repo.ok({"show", "2", "--json"}))["links"].empty());
  repo.ok({"reindex"});
  CHECK_THAT(repo.ok({"show", "2"}), !Catch::Contains("blocked-by"));
  check_journal_agrees(repo);
  CHECK(corrections_sql(repo, "SELECT count(*) FROM events WHERE type = 'attempt.linked'") == "2\n");
}

TEST_CASE("a blocked attempt reads resolved by its adopted retry in show, why, log and the plan document")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"try", "FlashInfer allreduce fusion", "--plan", "p"});
  repo.ok({"status", "1", "blocked", "--reason", "needs CUDA 13"});
  repo.ok({"try", "FlashInfer fusion on CUDA 13", "--plan", "p", "--retry-of", "1"});
  CHECK_THAT(repo.ok({"show", "1"}), !Catch::Contains("resolved"));
  repo.ok({"status", "2", "adopted", "--reason", "+3.8% tok/s"});

  CHECK_THAT(repo.ok({"show", "1"}), Catch::Contains("status:     blocked (resolved by #2): needs CUDA 13"));
  CHECK_THAT(repo.ok({"why", "1"}), Catch::Contains("blocked (resolved by #2) since"));
  CHECK_THAT(repo.ok({"log"}), Catch::Contains("FlashInfer allreduce fusion [p]  resolved by #2"));
  CHECK(json::parse(repo.ok({"show", "1", "--json"}))["resolved_by"] == json::array({2}));
  CHECK(json::parse(repo.ok({"show", "2", "--json"}))["resolved_by"].empty());
  const auto document = corrections_document(repo);
  // The summary's status cell is held together (no-break spaces), as the outcome's is.
  CHECK_THAT(document, Catch::Contains("| resolved\u00a0by\u00a0#2 |"));
  CHECK_THAT(document, Catch::Contains("- **Status:** blocked (resolved by #2): needs CUDA 13"));

  // A retry recorded without its link gets it later.
  repo.ok({"try", "FlashInfer fusion, second try", "--plan", "p"});
  repo.ok({"status", "3", "adopted", "--reason", "also fine"});
  repo.ok({"attempt", "edit", "3", "--retry-of", "1"});
  CHECK_THAT(repo.ok({"show", "1"}), Catch::Contains("blocked (resolved by #2 and #3)"));
  repo.ok({"reindex"});
  CHECK_THAT(repo.ok({"show", "1"}), Catch::Contains("blocked (resolved by #2 and #3)"));
  check_journal_agrees(repo);
}

TEST_CASE("ej run withdraw keeps a run in the journal, out of compare, judge, kept verdict lines and the "
          "document, until --undo")
{
  EjRepo repo;
  withdrawal_campaign(repo);
  CHECK_THAT(repo.ok({"compare", "2"}), Catch::Contains("attempt #2 (runs #2, #3) (candidate)"));
  repo.ok({"plan", "render", "p"}); // keeps the verdict lines
  corrections_sql(repo, "UPDATE verdict_cache SET text = 'kept by the render'");
  CHECK_THAT(repo.ok({"log"}), Catch::Contains("kept by the render"));

  const auto no_reason = repo.ej({"run", "withdraw", "2"});
  CHECK(no_reason.exit_code == 2);
  CHECK_THAT(no_reason.err, Catch::Contains("say why"));
  const auto baseline = repo.ej({"run", "withdraw", "1", "--reason", "old stack"});
  CHECK(baseline.exit_code == 1);
  CHECK_THAT(baseline.err,
             Catch::Contains("run #1 is the current baseline of plan p for b: pin another first"));

  const auto withdrawn = repo.ok({"run", "withdraw", "r2", "--reason", "measured on the debug build"},
                                 {{"EJ_NOW", "2026-01-13T09:00:00Z"}});
  CHECK_THAT(withdrawn, Catch::Contains("run #2 withdrawn: kept in the journal"));
  // Kept, and shown as withdrawn.
  CHECK_THAT(repo.ok({"runs"}),
             Catch::Contains("withdrawn") &&
                 Catch::Contains("run #2 was withdrawn on 2026-01-13: measured on the debug build"));
  CHECK_THAT(repo.ok({"show", "run", "2"}),
             Catch::Contains("withdrawn: 2026-01-13T09:00:00Z: measured on the debug build") &&
                 Catch::Contains("'ej run withdraw 2 --undo' takes it back"));
  CHECK(json::parse(repo.ok({"show", "run", "2", "--json"}))["withdrawn"]["reason"] ==
        "measured on the debug build");
  CHECK_THAT(repo.ok({"show", "2"}), Catch::Contains("imported (debug build), withdrawn"));
  // Out of every judgement: the kept line is judged again, without it.
  CHECK_THAT(repo.ok({"log"}), !Catch::Contains("kept by the render"));
  CHECK_THAT(repo.ok({"compare", "2"}), Catch::Contains("attempt #2 (run #3) (candidate)"));
  const auto judged = json::parse(repo.ok({"judge", "2", "--json"}));
  CHECK(judged["proposed_status"] != "adopted");
  const auto named = repo.ej({"compare", "r1", "r2"});
  CHECK(named.exit_code == 1);
  CHECK_THAT(named.err, Catch::Contains("run #2 was withdrawn on 2026-01-13: measured on the debug build; a "
                                        "withdrawn run is not compared"));
  const auto pinned = repo.ej({"plan", "baseline", "p", "--run", "2", "--reason", "faster"});
  CHECK(pinned.exit_code == 1);
  CHECK_THAT(pinned.err, Catch::Contains("a withdrawn run cannot be a baseline"));
  // Out of the document.
  auto document = corrections_document(repo);
  CHECK_THAT(document, !Catch::Contains("- run #2 ") && Catch::Contains("- run #3 "));

  repo.ok({"reindex"});
  check_journal_agrees(repo);
  CHECK(json::parse(repo.ok({"show", "run", "2", "--json"}))["withdrawn"]["reason"] ==
        "measured on the debug build");
  CHECK_THAT(repo.ok({"compare", "2"}), Catch::Contains("attempt #2 (run #3) (candidate)"));

  const auto again = repo.ej({"run", "withdraw", "2", "--reason", "twice"});
  CHECK(again.exit_code == 1);
  CHECK_THAT(again.err, Catch::Contains("already"));
  CHECK_THAT(repo.ok({"run", "withdraw", "2", "--undo", "--reason", "the build was fine"}),
             Catch::Contains("run #2 restored"));
  CHECK_THAT(repo.ok({"compare", "2"}), Catch::Contains("attempt #2 (runs #2, #3) (candidate)"));
  CHECK_THAT(repo.ok({"show", "run", "2"}),
             Catch::Contains("restored:  ") && Catch::Contains("the build was fine"));
  CHECK_THAT(corrections_document(repo), Catch::Contains("- run #2 "));
  check_journal_agrees(repo);
}

TEST_CASE("ej plan baseline --reason gives the current pin the reason it was pinned without")
{
  EjRepo repo;
  withdrawal_campaign(repo);
  CHECK_THAT(repo.ok({"plan", "baseline", "p"}), Catch::Contains("b: run #1 pinned\n"));
  CHECK_THAT(repo.ok({"plan", "baseline", "p", "--reason", "stock SGLang on CUDA 12.8"}),
             Catch::Contains("baseline of p for b (run #1): stock SGLang on CUDA 12.8"));
  CHECK_THAT(repo.ok({"plan", "baseline", "p"}),
             Catch::Contains("b: run #1 pinned: stock SGLang on CUDA 12.8"));
  CHECK_THAT(corrections_document(repo), Catch::Contains(", pinned 2026-01-10: stock SGLang on CUDA 12.8."));
  // With the run pinned now, the same; a better reason replaces it, and says what it was.
  CHECK_THAT(repo.ok({"plan", "baseline", "p", "--run", "1", "--reason", "stock SGLang 0.4 on CUDA 12.8"}),
             Catch::Contains("(was: stock SGLang on CUDA 12.8)"));
  repo.ok({"reindex"});
  CHECK(json::parse(repo.ok({"plan", "baseline", "p", "--json"}))[0]["reason"] ==
        "stock SGLang 0.4 on CUDA 12.8");
  check_journal_agrees(repo);

  // Two benchmarks pinned: the reason must say whose it is.
  repo.ok({"bench", "add", "v", "--metric", "y=regex:y=([0-9.]+)", "--", "true"});
  repo.ok({"record", "1", "--bench", "v", "--metric", "y=12.5"});
  repo.ok({"plan", "baseline", "p", "--run", "4"});
  const auto which = repo.ej({"plan", "baseline", "p", "--reason", "which one?"});
  CHECK(which.exit_code == 2);
  CHECK_THAT(which.err, Catch::Contains(
                            "name the pin whose reason it is with --bench or --run: run #1 (b), run #4 (v)"));
  repo.ok({"plan", "baseline", "p", "--run", "4", "--reason", "verify pass, CUDA 12.8"});
  CHECK_THAT(repo.ok({"plan", "baseline", "p"}), Catch::Contains("v: run #4 pinned: verify pass, CUDA 12.8"));
  // --bench names it as well as --run does.
  CHECK_THAT(repo.ok({"plan", "baseline", "p", "--bench", "v", "--reason", "verify pass, CUDA 13.0"}),
             Catch::Contains("baseline of p for v (run #4): verify pass, CUDA 13.0"));
  CHECK_THAT(repo.ok({"plan", "baseline", "p"}),
             Catch::Contains("b: run #1 pinned: stock SGLang 0.4 on CUDA 12.8"));
  const auto unknown = repo.ej({"plan", "baseline", "p", "--bench", "nope", "--reason", "x"});
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.err,
             Catch::Contains("plan p has no baseline for nope") && Catch::Contains("run #1 (b), run #4 (v)"));
}

TEST_CASE("a run cancelled while it waited for its GPUs stays in the journal but not in the plan document")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Queue"});
  repo.ok({"try", "queued", "--plan", "p"});
  repo.ok({"bench", "add", "hold", "--repeat", "1", "--shell",
           "while [ ! -e go ]; do sleep 0.02; done; echo x=1", "--metric", "x=regex:x=([0-9.]+)"});
  repo.ok(
      {"bench", "add", "quick", "--repeat", "1", "--shell", "echo x=2", "--metric", "x=regex:x=([0-9.]+)"});
  repo.ok({"run", "hold", "--gpus", "0", "--detach"});
  // --detach returns before the background ej takes the GPU; the second run must find it taken.
  bool holding = false;
  for (int i = 0; i < 1500 && !holding; ++i) {
    for (const auto& run : json::parse(repo.ok({"runs", "--running", "--json"}))) {
      holding = holding || (run["number"] == 1 && run["waiting_for_gpus"] == false);
    }
    if (!holding) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  REQUIRE(holding);
  const int waiting = start_command({EJ_BINARY, "run", "quick", "--gpus", "0", "--attempt", "1", "--quiet"},
                                    {repo.path(), {}, {}});
  bool queued = false;
  for (int i = 0; i < 500 && !queued; ++i) {
    const auto running = json::parse(repo.ok({"runs", "--running", "--json"}));
    for (const auto& run : running) {
      queued = queued || (run["number"] == 2 && run["waiting_for_gpus"] == true);
    }
    if (!queued) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  REQUIRE(queued);
  ::kill(waiting, SIGINT);
  wait_command(waiting);
  write_text(repo.path() / "go", "");
  CHECK(repo.ej({"wait", "1", "--timeout", "30"}).exit_code == 0);
  const auto run = json::parse(repo.ok({"show", "run", "2", "--json"}));
  REQUIRE(run["status"] == "interrupted");
  CHECK_THAT(run["reason"].get<std::string>(), Catch::Contains("nothing was measured"));
  CHECK_THAT(repo.ok({"show", "1"}), Catch::Contains("run #2")); // the journal keeps it
  const auto document = corrections_document(repo);
  CHECK_THAT(document, Catch::Contains("### #1 queued") && !Catch::Contains("run #2"));
}

TEST_CASE("ej show run N --diff prints the code the run measured, and ej show ATTEMPT --diff which runs "
          "measured other code")
{
  EjRepo repo;
  write_text(repo.path() / "kernel.cu", "tile = 64\n");
  git(repo.path(), {"add", "kernel.cu"});
  git(repo.path(), {"commit", "-q", "-m", "kernel"});
  repo.ok({"plan", "new", "p", "--title", "Tiles"});
  repo.ok({"bench", "add", "b", "--repeat", "1", "--shell", "cat kernel.cu >/dev/null; echo x=1", "--metric",
           "x=regex:x=([0-9.]+)"});
  write_text(repo.path() / "kernel.cu", "tile = 128\n");
  repo.ok({"try", "tile 128", "--plan", "p"});
  repo.ok({"run", "b", "--attempt", "1", "--quiet"}); // the attempt's own code
  write_text(repo.path() / "kernel.cu", "tile = 256\n");
  write_text(repo.path() / "tuning.txt", "found by hand\n");
  repo.ok({"run", "b", "--attempt", "1", "--quiet"}); // patched since

  const auto own = repo.ok({"show", "run", "2", "--diff"});
  CHECK_THAT(own, Catch::Contains("diff against ") && Catch::Contains("+tile = 256") &&
                      Catch::Contains("tuning.txt") && Catch::Contains("+found by hand"));
  CHECK(json::parse(repo.ok({"show", "run", "1", "--json", "--diff"}))["diff"].get<std::string>().find(
            "+tile = 128") != std::string::npos);

  const auto attempt = repo.ok({"show", "1", "--diff"});
  CHECK_THAT(attempt, Catch::Contains("+tile = 128") &&
                          Catch::Contains("runs that measured other code than this attempt's:") &&
                          Catch::Contains("  run #1: this code") &&
                          Catch::Contains("the same commit, another diff ('ej show run 2 --diff')"));

  git(repo.path(), {"add", "kernel.cu", "tuning.txt"});
  git(repo.path(), {"commit", "-q", "-m", "tile 256"});
  repo.ok({"run", "b", "--attempt", "1", "--quiet"});
  CHECK_THAT(repo.ok({"show", "run", "3", "--diff"}), Catch::Contains("no diff: the work tree was clean at"));
  CHECK_THAT(repo.ok({"show", "1", "--diff"}),
             Catch::Contains("run #3: ") && Catch::Contains("another commit, no diff"));
  const auto code = json::parse(repo.ok({"show", "1", "--json", "--diff"}))["run_code"];
  REQUIRE(code.size() == 3);
  CHECK(code[0]["runs"] == json::array({1}));
  CHECK(code[0]["same_as_attempt"] == true);
  CHECK(code[2]["git"]["dirty"] == false);
}
