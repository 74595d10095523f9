// `ej run --against --on slurm`: both sides of an interleaved session measured in one job of the
// real single-node Slurm the suite starts (tests/support/slurm_cluster.h).
#include "support/command.h"
#include "support/ej_repo.h"
#include "support/runs.h"
#include "support/skip.h"
#include "support/slurm_cluster.h"
#include "support/sshd_server.h"
#include "support/temp_dir.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <string>
#include <vector>

using namespace ej::test;
using nlohmann::json;

namespace {

// A committed bench.sh printing value=1 and the Slurm step it runs in; the work tree's prints
// value=2, only in the diff: the candidate and the reference tell their runs apart.
void set_up_two_code_states(EjRepo& repo)
{
  write_text(repo.path() / "bench.sh", "echo value=1; echo step=$SLURM_STEP_ID; echo job=$SLURM_JOB_ID\n");
  git(repo.path(), {"add", "bench.sh"});
  git(repo.path(), {"commit", "-q", "-m", "bench"});
  repo.ok({"bench", "add", "b", "--repeat", "3", "--metric", "value=kv:value", "--metric",
           "step=regex:step=([0-9]+)", "--", "sh", "bench.sh"});
  write_text(repo.path() / "bench.sh", "echo value=2; echo step=$SLURM_STEP_ID; echo job=$SLURM_JOB_ID\n");
}

// Both runs of the session ej recorded first: the candidate #1, its reference as the comparison says.
std::pair<json, json> session_runs(const EjRepo& repo)
{
  auto candidate = show_run(repo, 1, true);
  REQUIRE(candidate["comparison"].is_object());
  const int reference = candidate["comparison"]["reference"].get<int>();
  return {candidate, show_run(repo, reference, true)};
}

// A benchmark whose fifth repeat, whichever side it is, waits (`seconds`, after writing the file
// returned): four of them, two rounds, are measured before.
std::filesystem::path add_fifth_repeat_waits(EjRepo& repo, int seconds)
{
  const auto count = repo.path() / ".git" / "count";
  const auto waiting = repo.path() / ".git" / "waiting";
  repo.ok({"bench", "add", "long", "--repeat", "10", "--metric", "value=kv:value", "--better", "value=higher",
           "--shell",
           "n=$(cat " + count.string() + " 2>/dev/null || echo 0); echo $((n+1)) > " + count.string() +
               "; if [ $n -ge 4 ]; then echo started > " + waiting.string() + "; exec sleep " +
               std::to_string(seconds) + "; fi; echo value=1"});
  return waiting;
}

// `ej run long --against HEAD` ARGS in the background, its output in .git/ej.out and .git/ej.err.
int start_session(const EjRepo& repo, const std::string& args)
{
  return start_command({"sh", "-c",
                        "exec \"$0\" run long --against HEAD " + args + " > .git/ej.out 2> .git/ej.err",
                        EJ_BINARY},
                       {repo.path(), SlurmCluster::shared().env(), {}});
}

} // namespace

TEST_CASE("ej run --against on Slurm measures both code states in rounds, every repeat a step of one job")
{
  REQUIRE_SLURM();
  auto& slurm = SlurmCluster::shared();
  EjRepo repo;
  set_up_two_code_states(repo);
  const auto result = repo.ej({"run", "b", "--against", "HEAD", "--on", "slurm:" + slurm.partition(),
                               "--slurm-arg=--time=5", "--seed", "7"},
                              slurm.env());
  INFO(result.out << result.err << slurm.logs());
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.err, Catch::Contains("ej: runs #1 and #2 run in Slurm job "));
  CHECK_THAT(result.out, Catch::Contains("interleaved, 3 rounds"));
  const auto [candidate, reference] = session_runs(repo);
  CHECK(reference["number"] == 2);
  CHECK(candidate["status"] == "finished");
  CHECK(reference["status"] == "finished");
  CHECK(samples_of(candidate, "value") == std::vector<double>{2, 2, 2});
  CHECK(samples_of(reference, "value") == std::vector<double>{1, 1, 1});
  // One job for both sides, whose steps the rounds took in turn.
  const auto job = candidate["outputs"]["slurm"]["job"].get<std::string>();
  CHECK(reference["outputs"]["slurm"]["job"] == job);
  for (const auto* run : {&candidate, &reference}) {
    CHECK((*run)["outputs"]["slurm"]["partition"] == slurm.partition());
    CHECK((*run)["outputs"]["slurm"]["nodes"] == slurm.node());
    CHECK_THAT((*run)["stdout"].get<std::string>(), Catch::Contains("job=" + job));
  }
  auto steps = samples_of(candidate, "step");
  const auto reference_steps = samples_of(reference, "step");
  steps.insert(steps.end(), reference_steps.begin(), reference_steps.end());
  std::sort(steps.begin(), steps.end());
  CHECK(steps == std::vector<double>{0, 1, 2, 3, 4, 5});
  // The comparison keeps the design of the session.
  CHECK(candidate["comparison"]["rounds"] == 3);
  CHECK(candidate["comparison"]["stopped"] == "rounds");
  CHECK(candidate["comparison"]["seed"] == "7");
  CHECK_THAT(slurm.final_job_state(job), Catch::StartsWith("CANCELLED")); // given back at the end
  CHECK(std::filesystem::is_empty(repo.ej_dir() / "rerun"));
}

TEST_CASE("sbatch refusing the job of an --against session ends both runs failed, saying what sbatch said")
{
  REQUIRE_SLURM();
  auto& slurm = SlurmCluster::shared();
  EjRepo repo;
  set_up_two_code_states(repo);
  const auto result =
      repo.ej({"run", "b", "--against", "HEAD", "--on", "slurm:no-such-partition"}, slurm.env());
  INFO(result.out << result.err);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err,
             Catch::Contains("sbatch did not take the job") && Catch::Contains("invalid partition"));
  for (const int number : {1, 2}) {
    const auto run = show_run(repo, number);
    CHECK(run["status"] == "failed");
    CHECK_THAT(run["reason"].get<std::string>(), Catch::StartsWith("sbatch did not take the job"));
    CHECK(run["comparison"].is_null()); // no round was measured
  }
}

TEST_CASE("the Slurm job of an --against session cancelled outside ej ends both runs, keeping their rounds")
{
  REQUIRE_SLURM();
  auto& slurm = SlurmCluster::shared();
  EjRepo repo;
  const auto waiting = add_fifth_repeat_waits(repo, 60);
  const int ej = start_session(repo, "--on slurm");
  REQUIRE(wait_for_file(waiting, 30));
  const auto job = slurm.job_of_run(1);
  CHECK(slurm.client({"scancel", job}).exit_code == 0);
  CHECK(wait_command(ej) == 1);
  INFO(read_text(repo.path() / ".git" / "ej.err"));
  const auto [candidate, reference] = session_runs(repo);
  for (const auto* run : {&candidate, &reference}) {
    CHECK((*run)["status"] == "interrupted");
    CHECK_THAT((*run)["reason"].get<std::string>(),
               Catch::Contains("Slurm job " + job + " on " + slurm.node() + " was cancelled"));
    CHECK((*run)["outputs"]["slurm"]["job"] == job);
  }
  // Nothing measured is lost: the two rounds before, and the comparison that says it stopped.
  CHECK(samples_of(candidate, "value").size() == 2);
  CHECK(samples_of(reference, "value").size() == 2);
  CHECK(candidate["comparison"]["rounds"] == 2);
  CHECK(candidate["comparison"]["stopped"] == "failed");
  CHECK_THAT(slurm.final_job_state(job), Catch::StartsWith("CANCELLED"));
}

TEST_CASE("Ctrl-C during an --against session on Slurm ends both runs interrupted and cancels the job")
{
  REQUIRE_SLURM();
  auto& slurm = SlurmCluster::shared();
  EjRepo repo;
  const auto waiting = add_fifth_repeat_waits(repo, 60);
  const int ej = start_session(repo, "--on slurm:" + slurm.partition());
  REQUIRE(wait_for_file(waiting, 30));
  const auto job = slurm.job_of_run(1);
  ::kill(ej, SIGINT);
  CHECK(wait_command(ej) == 128 + SIGINT);
  INFO(read_text(repo.path() / ".git" / "ej.err"));
  const auto [candidate, reference] = session_runs(repo);
  for (const auto* run : {&candidate, &reference}) {
    CHECK((*run)["status"] == "interrupted");
    CHECK_THAT((*run)["reason"].get<std::string>(), Catch::EndsWith("; Slurm job " + job + " cancelled"));
    CHECK((*run)["outputs"]["slurm"]["job"] == job);
  }
  CHECK(candidate["comparison"]["rounds"] == 2);
  CHECK(candidate["comparison"]["stopped"] == "failed");
  CHECK_THAT(slurm.final_job_state(job), Catch::StartsWith("CANCELLED"));
}

TEST_CASE("an --against session's Slurm job over its --time limit ends both runs timeout, Slurm's word said")
{
  REQUIRE_SLURM();
#if defined(__SANITIZE_ADDRESS__)
  // As the plain run's test of the time limit: a minute of waiting for Slurm's clock.
  EJ_SKIP_NOT_APPLICABLE("under sanitizers: a job must outlive Slurm's one-minute time limit");
#endif
  auto& slurm = SlurmCluster::shared();
  EjRepo repo;
  const auto waiting = add_fifth_repeat_waits(repo, 180);
  const int ej = start_session(repo, "--on slurm --slurm-arg=--time=0:01");
  REQUIRE(wait_for_file(waiting, 30));
  CHECK(wait_command(ej) == 1);
  INFO(read_text(repo.path() / ".git" / "ej.err"));
  const auto [candidate, reference] = session_runs(repo);
  const auto job = candidate["outputs"]["slurm"]["job"].get<std::string>();
  for (const auto* run : {&candidate, &reference}) {
    CHECK((*run)["status"] == "timeout");
    CHECK_THAT(
        (*run)["reason"].get<std::string>(),
        Catch::StartsWith("Slurm job " + job + " on " + slurm.node() + " reached its time limit (00:01:00)"));
  }
  CHECK(samples_of(candidate, "value").size() + samples_of(reference, "value").size() == 4);
  CHECK(candidate["comparison"]["rounds"] == 2);
  CHECK_THAT(slurm.final_job_state(job), Catch::StartsWith("TIMEOUT"));
}

TEST_CASE("ej cancel of a detached --against session on Slurm cancels its one job and ends both runs")
{
  REQUIRE_SLURM();
  auto& slurm = SlurmCluster::shared();
  EjRepo repo;
  const auto waiting = repo.path() / ".git" / "waiting";
  repo.ok({"bench", "add", "long", "--repeat", "2", "--shell",
           "echo $$ > " + waiting.string() + "; exec sleep 60"});
  const auto started =
      repo.ej({"run", "long", "--against", "HEAD", "--on", "slurm", "--detach"}, slurm.env());
  INFO(started.err);
  REQUIRE(started.exit_code == 0);
  REQUIRE(wait_for_file(waiting, 30));
  const auto job = slurm.job_of_run(1);
  const auto cancel = repo.ej({"cancel", "1"}, slurm.env());
  INFO(cancel.out << cancel.err);
  CHECK(cancel.exit_code == 0);
  repo.ej({"wait", "2"}); // the reference is written after the candidate
  // Cancelled in the first round: no comparison, the reference recorded second.
  const auto candidate = show_run(repo, 1);
  const auto reference = show_run(repo, 2);
  CHECK_THAT(reference["label"].get<std::string>(), Catch::Contains("interleaved with run #1"));
  CHECK(candidate["status"] == "interrupted");
  CHECK_THAT(candidate["reason"].get<std::string>(), Catch::Contains("cancelled with 'ej cancel'"));
  CHECK(reference["status"] == "interrupted");
  for (const auto* run : {&candidate, &reference}) {
    CHECK_THAT((*run)["reason"].get<std::string>(), Catch::Contains("Slurm job " + job + " cancelled"));
    CHECK((*run)["outputs"]["slurm"]["job"] == job);
  }
  CHECK_THAT(slurm.final_job_state(job), Catch::StartsWith("CANCELLED"));
  CHECK(wait_gone(std::stoi(read_text(waiting)), 10));
}

TEST_CASE("ej run --against on slurm@HOST ships both code states to the login host and measures in one job")
{
  REQUIRE_SLURM();
  if (const auto why = SshdServer::unavailable()) {
    EJ_SKIP_WITHOUT_SERVICE(*why);
  }
  auto& slurm = SlurmCluster::shared();
  SshdServer server;
  EjRepo repo;
  set_up_two_code_states(repo);
  const auto root =
      (repo.path() / ".." / (repo.path().filename().string() + "-login-root")).lexically_normal();
  repo.ok({"host", "add", "login", "ssh:" + server.alias(), "--root", root.string(), "--env",
           "SLURM_CONF=" + slurm.env().at("SLURM_CONF")});
  // Not in ej's environment: what reaches the cluster goes through the login host.
  const auto result = repo.ej({"run", "b", "--against", "HEAD", "--on", "slurm@login:" + slurm.partition()},
                              {{"EJ_SSH_COMMAND", server.ssh_command()}, {"SLURM_CONF", "/nonexistent"}});
  INFO(result.out << result.err << slurm.logs());
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("interleaved, 3 rounds"));
  const auto [candidate, reference] = session_runs(repo);
  CHECK(samples_of(candidate, "value") == std::vector<double>{2, 2, 2});
  CHECK(samples_of(reference, "value") == std::vector<double>{1, 1, 1});
  const auto job = candidate["outputs"]["slurm"]["job"].get<std::string>();
  CHECK(reference["outputs"]["slurm"]["job"] == job);
  // Each side shipped into a work directory of its own code state on the login host.
  for (const auto* run : {&candidate, &reference}) {
    CHECK((*run)["status"] == "finished");
    CHECK((*run)["on"]["name"] == "login");
    CHECK_THAT((*run)["on"]["work_dir"].get<std::string>(), Catch::StartsWith(root.string()));
    CHECK_THAT((*run)["stdout"].get<std::string>(), Catch::Contains("job=" + job));
  }
  CHECK(candidate["on"]["work_dir"] != reference["on"]["work_dir"]);
  CHECK_THAT(slurm.final_job_state(job), Catch::StartsWith("CANCELLED")); // given back through the login host
}
