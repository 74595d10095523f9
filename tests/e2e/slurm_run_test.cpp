// `ej run --on slurm`: against a real single-node Slurm started by the test (tests/support).
#include "support/ej_repo.h"
#include "support/fake_gpus.h"
#include "support/runs.h"
#include "support/skip.h"
#include "support/slurm_cluster.h"
#include "support/sshd_server.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <thread>

using namespace ej::test;
using nlohmann::json;

namespace {

SlurmCluster& cluster()
{
  return SlurmCluster::shared();
}

} // namespace

TEST_CASE(
    "a run on Slurm measures every repeat as a step of one job and records the job and partition and node")
{
  REQUIRE_SLURM();
  EjRepo repo;
  repo.ok({"bench", "add", "steps", "--repeat", "3", "--metric", "step=regex:step=([0-9]+)", "--shell",
           "echo step=$SLURM_STEP_ID job=$SLURM_JOB_ID"});
  const auto result = repo.ej(
      {"run", "steps", "--on", "slurm:" + cluster().partition(), "--slurm-arg=--time=5"}, cluster().env());
  INFO(result.err << cluster().logs());
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("run #1 steps finished: 3 repeat(s)"));
  CHECK_THAT(result.err, Catch::Contains("ej: run #1 runs in Slurm job "));
  const auto run = show_run(repo, 1, true);
  CHECK(run["status"] == "finished");
  CHECK(samples_of(run, "step") == std::vector<double>{0, 1, 2}); // the steps of one job, in turn
  CHECK(samples_of(run, "wall_s").size() == 3);
  const auto& slurm = run["outputs"]["slurm"];
  CHECK(slurm["partition"] == cluster().partition());
  CHECK(slurm["nodes"] == cluster().node());
  CHECK(slurm["time_limit"] == "00:05:00");
  const auto job = slurm["job"].get<std::string>();
  CHECK_THAT(run["stdout"].get<std::string>(), Catch::Contains("job=" + job));
  CHECK_THAT(cluster().final_job_state(job),
             Catch::StartsWith("CANCELLED")); // its allocation given back at the end
}

TEST_CASE("ej cancel of a detached Slurm run cancels its job and the run is recorded interrupted")
{
  REQUIRE_SLURM();
  EjRepo repo;
  repo.ok({"bench", "add", "long", "--repeat", "2", "--shell", "echo $$ > step.pid; exec sleep 60"});
  const auto started = repo.ej({"run", "long", "--on", "slurm", "--detach"}, cluster().env());
  INFO(started.err);
  REQUIRE(started.exit_code == 0);
  REQUIRE(wait_for_file(repo.path() / "step.pid", 20));
  const auto job = cluster().job_of_run(1);
  const auto cancel = repo.ej({"cancel", "1"}, cluster().env());
  INFO(cancel.err);
  CHECK(cancel.exit_code == 0);
  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "interrupted");
  CHECK_THAT(run["reason"].get<std::string>(), Catch::Contains("cancelled with 'ej cancel'"));
  CHECK_THAT(run["reason"].get<std::string>(), Catch::Contains("Slurm job " + job + " cancelled"));
  CHECK_THAT(cluster().final_job_state(job), Catch::StartsWith("CANCELLED"));
  CHECK(wait_gone(std::stoi(read_text(repo.path() / "step.pid")), 10));
}

TEST_CASE("a Slurm job cancelled outside ej ends the run interrupted saying the job was cancelled")
{
  REQUIRE_SLURM();
  EjRepo repo;
  repo.ok({"bench", "add", "long", "--repeat", "1", "--shell", "echo started > step.txt; exec sleep 60"});
  const int ej = start_command({"sh", "-c", "exec \"$0\" run long --on slurm > ej.out 2> ej.err", EJ_BINARY},
                               {repo.path(), cluster().env(), {}});
  REQUIRE(wait_for_file(repo.path() / "step.txt", 20));
  const auto job = cluster().job_of_run(1);
  CHECK(cluster().client({"scancel", job}).exit_code == 0);
  CHECK(wait_command(ej) == 1);
  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "interrupted");
  CHECK_THAT(run["reason"].get<std::string>(),
             Catch::Contains("Slurm job " + job + " on " + cluster().node() + " was cancelled"));
}

TEST_CASE("a Slurm run over its time limit is recorded timeout and its job cancelled")
{
  REQUIRE_SLURM();
  EjRepo repo;
  repo.ok({"bench", "add", "slow", "--repeat", "2", "--timeout", "1", "--shell", "exec sleep 30"});
  const auto result = repo.ej({"run", "slow", "--on", "slurm"}, cluster().env());
  CHECK(result.exit_code == 1);
  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "timeout");
  const auto reason = run["reason"].get<std::string>();
  CHECK_THAT(reason, Catch::Contains("timed out after 1.0 s"));
  const auto job = run["outputs"]["slurm"]["job"].get<std::string>();
  CHECK_THAT(reason, Catch::Contains("Slurm job " + job + " cancelled"));
  CHECK_THAT(cluster().final_job_state(job), Catch::StartsWith("CANCELLED"));
}

TEST_CASE("a Slurm job over its own --time limit is recorded timeout with Slurm's word for it")
{
  REQUIRE_SLURM();
#if defined(__SANITIZE_ADDRESS__)
  // Slurm's time limits count in minutes: a minute of waiting adds nothing a sanitizer could find
  // that the release suite's run of this test and the other Slurm tests do not.
  EJ_SKIP_NOT_APPLICABLE("under sanitizers: a job must outlive Slurm's one-minute time limit");
#endif
  EjRepo repo;
  repo.ok({"bench", "add", "slow", "--repeat", "1", "--shell", "exec sleep 120"});
  const auto result = repo.ej({"run", "slow", "--on", "slurm", "--slurm-arg=--time=0:01"}, cluster().env());
  INFO(result.err);
  CHECK(result.exit_code == 1);
  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "timeout");
  const auto job = run["outputs"]["slurm"]["job"].get<std::string>();
  CHECK_THAT(run["reason"].get<std::string>(), Catch::Contains("Slurm job " + job + " on "));
  CHECK_THAT(run["reason"].get<std::string>(), Catch::Contains("reached its time limit (00:01:00)"));
  CHECK_THAT(cluster().final_job_state(job), Catch::StartsWith("TIMEOUT"));
}

TEST_CASE("sbatch refusing the job is an error that says what sbatch said and the run is recorded failed")
{
  REQUIRE_SLURM();
  EjRepo repo;
  repo.ok({"bench", "add", "quick", "--shell", "true"});
  const auto result = repo.ej({"run", "quick", "--on", "slurm:no-such-partition"}, cluster().env());
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("sbatch did not take the job"));
  CHECK_THAT(result.err, Catch::Contains("invalid partition"));
  CHECK(show_run(repo, 1)["status"] == "failed");
}

TEST_CASE("Ctrl-C during a Slurm run cancels its job and records the run interrupted")
{
  REQUIRE_SLURM();
  EjRepo repo;
  repo.ok({"bench", "add", "long", "--repeat", "2", "--shell", "echo started > step.txt; exec sleep 60"});
  const int ej = start_command({"sh", "-c", "exec \"$0\" run long --on slurm > ej.out 2> ej.err", EJ_BINARY},
                               {repo.path(), cluster().env(), {}});
  REQUIRE(wait_for_file(repo.path() / "step.txt", 20));
  const auto job = cluster().job_of_run(1);
  ::kill(ej, SIGINT);
  CHECK(wait_command(ej) == 128 + SIGINT);
  const auto run = show_run(repo, 1);
  CHECK(run["status"] == "interrupted");
  CHECK_THAT(run["reason"].get<std::string>(), Catch::Contains("Slurm job " + job + " cancelled"));
  CHECK_THAT(cluster().final_job_state(job), Catch::StartsWith("CANCELLED"));
}

TEST_CASE("slurm@HOST ships the code state to the login host and runs the job through it")
{
  REQUIRE_SLURM();
  if (const auto why = SshdServer::unavailable()) {
    EJ_SKIP_WITHOUT_SERVICE(*why);
  }
  SshdServer server;
  EjRepo repo;
  write_text(repo.path() / "bench.sh", "echo value=1\n");
  git(repo.path(), {"add", "bench.sh"});
  git(repo.path(), {"commit", "-q", "-m", "bench"});
  const auto root =
      (repo.path() / ".." / (repo.path().filename().string() + "-login-root")).lexically_normal();
  // The login host's own variables reach sbatch, scontrol, scancel and every step there.
  repo.ok({"host", "add", "login", "ssh:" + server.alias(), "--root", root.string(), "--env",
           "SLURM_CONF=" + cluster().env().at("SLURM_CONF")});
  repo.ok({"bench", "add", "b", "--repeat", "2", "--metric", "value=kv:value", "--", "sh", "bench.sh"});
  write_text(repo.path() / "bench.sh", "echo value=2 job=$SLURM_JOB_ID; pwd >&2\n"); // only the diff has it
  // Not in ej's environment: what reaches the cluster goes through the login host.
  const auto result = repo.ej({"run", "b", "--on", "slurm@login:" + cluster().partition()},
                              {{"EJ_SSH_COMMAND", server.ssh_command()}, {"SLURM_CONF", "/nonexistent"}});
  INFO(result.err << cluster().logs());
  REQUIRE(result.exit_code == 0);
  const auto run = show_run(repo, 1, true);
  CHECK(run["status"] == "finished");
  CHECK(samples_of(run, "value") == std::vector<double>{2, 2});
  const auto job = run["outputs"]["slurm"]["job"].get<std::string>();
  CHECK_THAT(run["stdout"].get<std::string>(), Catch::Contains("job=" + job));
  CHECK(run["on"]["name"] == "login");
  const std::string work_dir = run["on"]["work_dir"];
  CHECK_THAT(work_dir, Catch::StartsWith(root.string()));
  CHECK_THAT(run["stderr"].get<std::string>(),
             Catch::Contains(work_dir)); // the steps ran in the shipped tree
  CHECK_THAT(cluster().final_job_state(job),
             Catch::StartsWith("CANCELLED")); // given back through the login host

  const auto bad = repo.ej({"run", "b", "--on", "slurm@"}, {{"EJ_SSH_COMMAND", server.ssh_command()}});
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("--on slurm@HOST needs the login host"));
}

TEST_CASE("a GPU run on Slurm reads the node's GPUs with nvidia-smi beside each step")
{
  REQUIRE_SLURM();
  EjRepo repo;
  const auto bin = write_fake_nvidia_smi(repo.path() / "bin", "GPU-node-0");
  // Long enough for the sampler, started beside it, to read twice on a loaded machine.
  repo.ok({"bench", "add", "g", "--repeat", "2", "--shell", "sleep 0.5"});
  auto env = cluster().env();
  const char* path = std::getenv("PATH");
  env["PATH"] =
      bin.string() + ":" + (env.count("PATH") != 0 ? env["PATH"] : std::string(path != nullptr ? path : ""));
  const auto result = repo.ej(
      {"run", "g", "--on", "slurm:" + cluster().partition(), "--slurm-arg=--time=5", "--gpu-sample-ms", "10"},
      env);
  INFO(result.err << cluster().logs());
  REQUIRE(result.exit_code == 0);
  const auto run = show_run(repo, 1);
  for (const auto& repeat : run["repeats"]) {
    REQUIRE(repeat["device"].size() == 1);
    CHECK(repeat["device"][0]["uuid"] == "GPU-node-0");
    CHECK(repeat["device"][0]["samples"].get<int>() >= 2);
  }
  for (const auto& entry : std::filesystem::directory_iterator(repo.ej_dir())) {
    CHECK_THAT(entry.path().filename().string(), !Catch::StartsWith("gpu-")); // the readings' file is gone
  }
}
