// ej ci, the pull-request gate: the benchmarks marked for CI measured interleaved against the merge
// base with the default branch, exit 1 on a decisive regression, a markdown summary on stdout and
// in $GITHUB_STEP_SUMMARY; and the steps of examples/github-actions/ run as the workflow runs them,
// against a bare remote. The benchmark sleeps for what delay.txt of its code state says: the
// regressions are 3x, decisive in a few rounds however loaded the machine is.
#include "support/ej_repo.h"
#include "support/temp_dir.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace ej::test;
using nlohmann::json;

namespace {

const std::filesystem::path k_examples = std::filesystem::path(EJ_SOURCE_DIR) / "examples" / "github-actions";

void commit_delay(const std::filesystem::path& repo, const std::string& seconds, const std::string& message)
{
  write_text(repo / "delay.txt", seconds + "\n");
  git(repo, {"add", "delay.txt"});
  git(repo, {"commit", "-q", "-m", message});
}

// A benchmark marked for CI, whose time is what delay.txt says (plus starting two processes).
void add_nap(const EjRepo& repo)
{
  repo.ok({"bench", "add", "nap", "--ci", "--warmup", "1", "--min-effect", "5", "--", "sh", "-c",
           "sleep $(cat delay.txt)"});
}

std::string short_commit(const std::filesystem::path& repo, const std::string& revision)
{
  return git(repo, {"rev-parse", revision}).substr(0, 12);
}

} // namespace

TEST_CASE("ej ci fails on a 3x regression against the merge base and passes an improvement")
{
  EjRepo repo;
  commit_delay(repo.path(), "0.05", "the reference code");
  add_nap(repo);
  const auto fork_point = short_commit(repo.path(), "HEAD");
  git(repo.path(), {"checkout", "-q", "-b", "slower"});
  commit_delay(repo.path(), "0.15", "three times slower");
  // main moves on to the same slowness: against main's tip the branch would not look slower.
  git(repo.path(), {"checkout", "-q", "main"});
  commit_delay(repo.path(), "0.15", "main is slower too");
  git(repo.path(), {"checkout", "-q", "slower"});

  TempDir outside;
  const auto summary_file = outside / "step-summary.md";
  write_text(summary_file, "earlier step\n");
  // Outside GitHub Actions (its variables empty, should the suite run under it): no links.
  const auto slower = repo.ej(
      {"ci", "--max-rounds", "20"},
      {{"GITHUB_STEP_SUMMARY", summary_file.string()}, {"GITHUB_SERVER_URL", ""}, {"GITHUB_REPOSITORY", ""}});
  INFO(slower.out << slower.err);
  CHECK(slower.exit_code == 1);
  CHECK_THAT(slower.out, Catch::StartsWith("## ej ci: regression in `nap`\n"));
  CHECK_THAT(slower.out, Catch::Contains("against `" + fork_point + "` (the merge base of HEAD and main)"));
  CHECK_THAT(slower.out, Catch::Contains("| nap | wall_s (primary) |  | +"));
  CHECK_THAT(slower.out, Catch::Contains("| **regressed** |"));
  CHECK_THAT(slower.out,
             Catch::Contains("ej run nap --against " + fork_point + " --until-decisive --max-rounds 20"));
  CHECK_THAT(slower.err, Catch::Contains("ej: ci: a decisive regression in nap"));
  CHECK_THAT(slower.out, !Catch::Contains("]("));
  // Appended to what the job's earlier steps wrote, byte for byte what stdout got.
  CHECK(read_text(summary_file) == "earlier step\n" + slower.out);
  // Both sides are ordinary runs tied by an interleaved comparison: ej compare says the same.
  CHECK_THAT(repo.ok({"compare", "r2", "r1"}), Catch::Contains("interleaved: regressed"));

  git(repo.path(), {"checkout", "-q", "-b", "faster", fork_point});
  commit_delay(repo.path(), "0.015", "three times faster");
  const auto faster = repo.ej({"ci", "--max-rounds", "20", "--json"});
  INFO(faster.out << faster.err);
  CHECK(faster.exit_code == 0);
  const auto report = json::parse(faster.out);
  CHECK(report["outcome"] == "passed");
  CHECK(report["reference"]["short"] == fork_point);
  CHECK(report["benchmarks"][0]["outcome"] == "improved");
  CHECK(report["rows"][0]["outcome"] == "improved");
  CHECK(report["rows"][0]["primary"] == true);
  // Decisive, but nothing checks what nap computes: the verdict's next step is a check to add.
  const auto& next = report["benchmarks"][0]["verdict"]["next"];
  REQUIRE(next.size() == 1);
  CHECK(next[0]["kind"] == "add_check");
  CHECK(next[0]["command"] == "ej bench edit nap --check 'CMD'");
}

TEST_CASE("ej ci fails a regression whose output also changed: invalid, yet slower is slower")
{
  EjRepo repo;
  commit_delay(repo.path(), "0.05", "the reference code");
  repo.ok({"bench", "add", "nap", "--ci", "--warmup", "1", "--min-effect", "5", "--same-output", "stdout",
           "--", "sh", "-c", "sleep $(cat delay.txt); cat delay.txt"});
  git(repo.path(), {"checkout", "-q", "-b", "slower"});
  commit_delay(repo.path(), "0.15", "three times slower, and another output");
  const auto slower = repo.ej({"ci", "--max-rounds", "20"});
  INFO(slower.out << slower.err);
  CHECK(slower.exit_code == 1);
  CHECK_THAT(slower.out, Catch::StartsWith("## ej ci: regression in `nap`\n"));
  CHECK_THAT(slower.err, Catch::Contains("nap: invalid: output differs from the reference's"));
  CHECK_THAT(slower.err, !Catch::Contains("inconclusive after"));
}

TEST_CASE("ej ci passes unchanged code, an inconclusive verdict with a warning on stderr")
{
  EjRepo repo;
  commit_delay(repo.path(), "0.01", "the reference code");
  add_nap(repo);
  git(repo.path(), {"checkout", "-q", "-b", "docs-only"});
  write_text(repo.path() / "NOTES.md", "no code changed\n");
  git(repo.path(), {"add", "NOTES.md"});
  git(repo.path(), {"commit", "-q", "-m", "notes"});
  // Two rounds are too few for any decision: inconclusive, never a failure.
  const auto same = repo.ej({"ci", "--max-rounds", "2"});
  INFO(same.out << same.err);
  CHECK(same.exit_code == 0);
  CHECK_THAT(same.out, Catch::StartsWith("## ej ci: no decisive regression\n"));
  CHECK_THAT(same.out, Catch::Contains("| inconclusive | 2 |"));
  CHECK_THAT(same.err, Catch::Contains("ej: warning: nap wall_s: inconclusive after 2 rounds"));
  // What would decide it: a session against the same reference, and a calibration to size it at.
  const auto compared = json::parse(repo.ok({"compare", "r2", "r1", "--json"}));
  CHECK(compared["design"] == "interleaved");
  const auto& next = compared["next"];
  INFO(next.dump(2));
  REQUIRE(next.size() == 2);
  CHECK(next[0]["kind"] == "measure_more");
  CHECK_THAT(next[0]["command"].get<std::string>(),
             Catch::StartsWith("ej run nap --against r2 --")); // main's code, as run #2 measured it
  CHECK_THAT(next[0]["why"].get<std::string>(), Catch::StartsWith("inconclusive after 2 rounds"));
  CHECK(next[1]["kind"] == "calibrate");
  CHECK(next[1]["command"] == "ej calibrate nap");
}

TEST_CASE(
    "ej ci says how to mark a benchmark when none is, and how to name REV when there is no default branch")
{
  EjRepo repo;
  repo.ok({"bench", "add", "quick", "--", "true"});
  const auto none = repo.ej({"ci"});
  CHECK(none.exit_code == 2);
  CHECK_THAT(none.err, Catch::Contains("no benchmark is marked for CI") &&
                           Catch::Contains("ej bench edit NAME --ci") &&
                           Catch::Contains("ej bench add NAME --ci"));
  const auto unknown = repo.ej({"ci", "--bench", "nope"});
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("--bench nope: no benchmark of that name"));

  repo.ok({"bench", "edit", "quick", "--ci"});
  git(repo.path(), {"branch", "-m", "main", "trunk"});
  const auto no_default = repo.ej({"ci"});
  CHECK(no_default.exit_code == 2);
  CHECK_THAT(no_default.err,
             Catch::Contains("no origin/HEAD, main or master") && Catch::Contains("pass --against REV"));
  const auto bad_rev = repo.ej({"ci", "--against", "no-such-branch"});
  CHECK(bad_rev.exit_code == 2);
  CHECK_THAT(bad_rev.err, Catch::Contains("--against 'no-such-branch' names no commit"));
  CHECK(repo.ej({"ci", "--budget", "soon", "--against", "trunk"}).exit_code == 2);
  CHECK(repo.ok({"runs", "--json"}) == "[]\n"); // nothing measured by a refused ej ci
}

TEST_CASE("ej bench add --ci marks a benchmark, edit --ci and --no-ci change it, list and show say so")
{
  EjRepo repo;
  repo.ok({"bench", "add", "plain", "--", "true"});
  add_nap(repo);
  auto listed = json::parse(repo.ok({"bench", "list", "--json"}));
  REQUIRE(listed.size() == 2);
  CHECK(listed[0]["name"] == "nap");
  CHECK(listed[0]["ci"] == true);
  CHECK(listed[1]["ci"] == false);
  CHECK_FALSE(listed[1]["definition"].contains("ci")); // a definition without it reads as not marked
  CHECK_THAT(repo.ok({"bench", "list"}), Catch::Contains("sh -c sleep $(cat delay.txt)  [ci]"));
  CHECK_THAT(repo.ok({"bench", "show", "nap"}), Catch::Contains("ci:       yes"));

  CHECK_THAT(repo.ok({"bench", "edit", "plain", "--ci"}), Catch::Contains("revision 2"));
  CHECK(json::parse(repo.ok({"bench", "show", "plain", "--json"}))["revisions"][1]["ci"] == true);
  repo.ok({"bench", "edit", "nap", "--no-ci"});
  listed = json::parse(repo.ok({"bench", "list", "--json"}));
  CHECK(listed[0]["ci"] == false);
  CHECK(listed[1]["ci"] == true);
  CHECK(repo.ej({"bench", "edit", "plain", "--ci"}).exit_code == 2); // nothing changed
  // An edit of something else keeps the mark.
  repo.ok({"bench", "edit", "plain", "--repeat", "3"});
  CHECK(json::parse(repo.ok({"bench", "show", "plain", "--json"}))["revisions"][2]["ci"] == true);
}

TEST_CASE("the GitHub Actions steps gate branches of a bare remote and push the journal back")
{
  const auto workflow = read_text(k_examples / "benchmarks.yml");
  CHECK_THAT(workflow, Catch::Contains("examples/github-actions/ci-steps.sh"));

  TempDir dir("ej-ci-gate");
  const auto remote = dir / "remote.git";
  const auto url = "file://" + remote.string();
  git(dir.path(), {"init", "-q", "--bare", "-b", "main", remote.string()});
  // The team: the benchmark, marked for CI, and a plan whose document is committed.
  const auto team = dir / "team";
  make_git_repo(team);
  git(team, {"remote", "add", "origin", url});
  commit_delay(team, "0.05", "the reference code");
  git(team, {"push", "-q", "-u", "origin", "main"});
  REQUIRE(run_ej(team, {"init"}).exit_code == 0);
  REQUIRE(run_ej(team, {"bench", "add", "nap", "--ci", "--warmup", "1", "--min-effect", "5", "--", "sh", "-c",
                        "sleep $(cat delay.txt)"})
              .exit_code == 0);
  REQUIRE(run_ej(team, {"plan", "new", "speed", "--title", "Speed", "--measure", "nap"}).exit_code == 0);
  REQUIRE(run_ej(team, {"plan", "render", "speed"}).exit_code == 0);
  git(team, {"add", "journal"});
  git(team, {"commit", "-q", "-m", "the plan's document"});
  git(team, {"push", "-q", "origin", "main"});
  REQUIRE(run_ej(team, {"sync"}).exit_code == 0);
  git(team, {"checkout", "-q", "-b", "slower"});
  commit_delay(team, "0.15", "three times slower");
  git(team, {"push", "-q", "origin", "slower"});
  git(team, {"checkout", "-q", "-b", "faster", "main"});
  commit_delay(team, "0.015", "three times faster");
  git(team, {"push", "-q", "origin", "faster"});
  const auto replicas_before = git(remote, {"for-each-ref", "refs/ej/replicas/"});

  // A CI job's checkout as actions/checkout makes it: init, fetch everything, no origin/HEAD.
  const auto ci_job = [&](const std::string& branch, const std::string& name) {
    const auto work = dir / name;
    std::filesystem::create_directories(work);
    git(work, {"init", "-q"});
    git(work, {"remote", "add", "origin", url});
    git(work, {"fetch", "-q", "origin", "+refs/heads/*:refs/remotes/origin/*"});
    git(work, {"checkout", "-q", "--detach", "origin/" + branch});
    const auto summary = dir / (name + "-summary.md");
    CommandOptions options;
    options.cwd = work;
    options.env = {{"EJ", EJ_BINARY},
                   {"GITHUB_STEP_SUMMARY", summary.string()},
                   {"GITHUB_SERVER_URL", "https://github.com"},
                   {"GITHUB_REPOSITORY", "team/app"},
                   {"GITHUB_RUN_ID", "4242"},
                   {"NO_COLOR", "1"}};
    auto result = run_command({"sh", (k_examples / "ci-steps.sh").string(), "--max-rounds", "20"}, options);
    return std::make_pair(result, std::filesystem::exists(summary) ? read_text(summary) : std::string());
  };

  const auto [slower, slower_summary] = ci_job("slower", "ci-slower");
  INFO(slower.out << slower.err);
  CHECK(slower.exit_code == 1);
  CHECK_THAT(slower_summary, Catch::StartsWith("## ej ci: regression in `nap`\n"));
  CHECK_THAT(slower_summary, Catch::Contains("(the merge base of HEAD and origin/main)"));
  // As GitHub Actions runs it: the commits, their comparison and the run are links.
  const auto base = git(team, {"rev-parse", "main"}).substr(0, 40);
  const auto head = git(team, {"rev-parse", "slower"}).substr(0, 40);
  CHECK_THAT(slower_summary, Catch::Contains("](https://github.com/team/app/commit/" + head + ")"));
  CHECK_THAT(slower_summary,
             Catch::Contains("(https://github.com/team/app/compare/" + base + "..." + head + ")"));
  CHECK_THAT(slower_summary,
             Catch::Contains("[this workflow run](https://github.com/team/app/actions/runs/4242)"));

  const auto [faster, faster_summary] = ci_job("faster", "ci-faster");
  INFO(faster.out << faster.err);
  CHECK(faster.exit_code == 0);
  CHECK_THAT(faster_summary, Catch::StartsWith("## ej ci: no decisive regression\n"));

  // Both jobs pushed their replica of the journal: the team sees the four runs after ej sync.
  const auto replicas_after = git(remote, {"for-each-ref", "refs/ej/replicas/"});
  CHECK(replicas_after.size() > replicas_before.size());
  REQUIRE(run_ej(team, {"sync"}).exit_code == 0);
  const auto runs = json::parse(run_ej(team, {"runs", "--json"}).out);
  CHECK(runs.size() == 4);

  // An attempt recorded and synced, its document not rendered again: the gate passes, the job not.
  REQUIRE(run_ej(team, {"try", "unrolled loop", "--plan", "speed"}).exit_code == 0);
  REQUIRE(run_ej(team, {"sync"}).exit_code == 0);
  const auto [stale, stale_summary] = ci_job("faster", "ci-stale");
  INFO(stale.out << stale.err);
  CHECK(stale.exit_code == 1);
  CHECK_THAT(stale_summary, Catch::StartsWith("## ej ci: no decisive regression\n"));
  CHECK_THAT(stale.out + stale.err, Catch::Contains("journal/speed.md"));
}
