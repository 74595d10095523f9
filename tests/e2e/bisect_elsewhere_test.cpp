// ej bisect --on: every comparison measured where `ej run --against --on` measures, on a real
// OpenSSH server on 127.0.0.1 (support/sshd_server.h) or in the real single-node Slurm the suite
// starts (support/slurm_cluster.h), with bisect_test's benchmark (support/built_speed.h).
#include "support/built_speed.h"
#include "support/ej_repo.h"
#include "support/runs.h"
#include "support/skip.h"
#include "support/slurm_cluster.h"
#include "support/sshd_server.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

using namespace ej::test;
using nlohmann::json;

TEST_CASE("ej bisect --on an ssh host builds and measures every commit there and names the first bad one")
{
  if (const auto reason = SshdServer::unavailable()) {
    EJ_SKIP_WITHOUT_SERVICE(*reason);
  }
  const SshdServer server;
  EjRepo repo;
  add_built_speed_benchmark(repo);
  const auto root = repo.path() / ".." / (repo.path().filename().string() + "-bisect-root");
  repo.ok({"host", "add", "box", "ssh:" + server.alias(), "--root", root.lexically_normal().string()});
  const auto good = commit_speed(repo, "10", "the reference code");
  commit_speed(repo, "10", "a refactoring");
  const auto slower = commit_speed(repo, "30", "three times slower");
  commit_speed(repo, "30", "a comment");

  const auto result =
      repo.ej({"bisect", "speed", good.substr(0, 12), "HEAD", "--on", "box", "--max-rounds", "12"},
              {{"EJ_SSH_COMMAND", server.ssh_command()}});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::StartsWith("first bad commit: " + slower + " three times slower; step +"));
  // Every run of the bisection was measured on the host, in a work directory of its code state.
  const auto runs = json::parse(repo.ok({"runs", "--json"}));
  REQUIRE(runs.size() >= 4);
  for (const auto& listed : runs) {
    const auto run = show_run(repo, listed["number"].get<int>());
    CHECK(run["on"]["name"] == "box");
    CHECK_THAT(run["on"]["work_dir"].get<std::string>(), Catch::StartsWith(root.lexically_normal().string()));
  }
  CHECK(json::parse(repo.ok({"history", "speed", "--json"}))["series"][0]["located"][0]["first_bad"] ==
        slower);
}

TEST_CASE("ej bisect --on slurm measures every comparison as one Slurm job and names the first bad commit")
{
  REQUIRE_SLURM();
  auto& slurm = SlurmCluster::shared();
  EjRepo repo;
  add_built_speed_benchmark(repo);
  const auto good = commit_speed(repo, "10", "the reference code");
  const auto slower = commit_speed(repo, "30", "three times slower");
  commit_speed(repo, "30", "a comment");

  const auto result = repo.ej({"bisect", "speed", good.substr(0, 12), "HEAD", "--on",
                               "slurm:" + slurm.partition(), "--slurm-arg=--time=5", "--max-rounds", "12"},
                              slurm.env());
  INFO(result.out << result.err << slurm.logs());
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::StartsWith("first bad commit: " + slower + " three times slower; step +"));
  const auto runs = json::parse(repo.ok({"runs", "--json"}));
  REQUIRE(runs.size() == 4); // BAD against GOOD, then the slower commit against GOOD
  for (const auto& listed : runs) {
    const auto run = show_run(repo, listed["number"].get<int>(), true);
    CHECK(run["outputs"]["slurm"]["partition"] == slurm.partition());
  }

  const auto misplaced = repo.ej({"bisect", "speed", good.substr(0, 12), "HEAD", "--slurm-arg=--time=5"});
  CHECK(misplaced.exit_code == 2);
  CHECK_THAT(misplaced.err, Catch::Contains("--slurm-arg goes with --on slurm[:PARTITION]"));
}
