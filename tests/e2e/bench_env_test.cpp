// Environment snapshots of runs: ej env show, env diff, env probe, and secrets kept out of .ej/.
#include "support/ej_repo.h"
#include "support/runs.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace ej::test;
using nlohmann::json;

namespace {

// Every file under .ej/ (database, -wal, -shm, config...) whose raw bytes contain `needle`.
std::vector<std::string> files_containing(const EjRepo& repo, const std::string& needle)
{
  std::vector<std::string> found;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(repo.ej_dir())) {
    if (entry.is_regular_file() && read_text(entry.path()).find(needle) != std::string::npos) {
      found.push_back(entry.path().filename().string());
    }
  }
  return found;
}

} // namespace

TEST_CASE("ej env show lists the host, GPU, toolkit and selected variables a run ran with")
{
  EjRepo repo;
  repo.ok({"bench", "add", "b", "--repeat", "1", "--env", "OMP_NUM_THREADS=3", "--shell", "true"});
  repo.ok({"run", "b", "--quiet"}, {{"NCCL_ALGO", "Ring"}, {"UNRELATED_VARIABLE", "zzz"}});

  const auto text = repo.ok({"env", "show", "1"});
  for (const auto* line :
       {"host.hostname: ", "host.os: ", "host.kernel: ", "host.cpu_count: ", "gpu.source: ", "toolkit.nvcc: ",
        "variables.NCCL_ALGO: Ring", "variables.OMP_NUM_THREADS: 3"}) {
    CHECK_THAT(text, Catch::Contains(line));
  }
  CHECK_THAT(text, !Catch::Contains("UNRELATED_VARIABLE"));

  const auto snapshot = json::parse(repo.ok({"env", "show", "1", "--json"}));
  const auto& fingerprint = snapshot["fingerprint"];
  CHECK(fingerprint["schema"] == 1);
  CHECK(fingerprint["host"]["cpu_count"].get<int>() > 0);
  CHECK(fingerprint["gpu"].contains("source"));
  CHECK(fingerprint["toolkit"].contains("nvcc"));
  CHECK(fingerprint["variables"]["NCCL_ALGO"] == "Ring");
  CHECK(snapshot["readings"].is_object());
  CHECK(show_run(repo, 1)["env"].get<std::string>().size() == 64);

  CHECK(repo.ej({"env", "show", "9"}).exit_code == 1);
  CHECK(repo.ej({"env", "show", "x"}).exit_code == 2);
}

TEST_CASE("a secret reaches the benchmark but never any file under .ej")
{
  EjRepo repo;
  repo.ok({"bench", "add", "b", "--repeat", "2", "--shell",
           "echo \"$API_TOKEN $NCCL_AUTH_TOKEN $CUDA_REPO_URL\" > seen.txt"});
  repo.ok({"run", "b", "--quiet", "--env", "API_TOKEN=hunter2"},
          {{"NCCL_AUTH_TOKEN", "hunter3"}, {"CUDA_REPO_URL", "https://bob:hunter4@example.com/repo"}});
  CHECK(read_text(repo.path() / "seen.txt") == "hunter2 hunter3 https://bob:hunter4@example.com/repo\n");

  const auto text = repo.ok({"env", "show", "1"});
  CHECK_THAT(text, Catch::Contains("variables.API_TOKEN: <redacted>"));
  CHECK_THAT(text, Catch::Contains("variables.NCCL_AUTH_TOKEN: <redacted>"));
  CHECK_THAT(text, Catch::Contains("variables.CUDA_REPO_URL: https://<redacted>@example.com/repo"));
  for (const auto* secret : {"hunter2", "hunter3", "hunter4"}) {
    INFO(secret);
    CHECK(files_containing(repo, secret).empty());
  }
  // A definition is stored: a secret there is refused, with the ways that keep it out.
  const auto stored = repo.ej({"bench", "add", "c", "--env", "API_TOKEN=hunter5", "--shell", "true"});
  CHECK(stored.exit_code == 2);
  CHECK_THAT(stored.err, Catch::Contains("looks like a secret") && Catch::Contains("ej run --env"));
  CHECK(repo.ej({"bench", "edit", "b", "--env", "MY_PASSWORD=hunter6"}).exit_code == 2);
  CHECK(files_containing(repo, "hunter5").empty());
  CHECK(files_containing(repo, "hunter6").empty());
  CHECK(json::parse(repo.ok({"bench", "list", "--json"})).size() == 1);
}

TEST_CASE("a probe's output is part of the snapshot, and a probe that hangs is cut by its timeout")
{
  EjRepo repo;
  CHECK_THAT(repo.ok({"env", "probe", "list"}), Catch::Contains("no probes"));
  repo.ok({"env", "probe", "add", "greeting", "--", "echo", "probe says hi"});
  // Long enough for the shell to write its pid on a loaded machine.
  repo.ok(
      {"env", "probe", "add", "stuck", "--timeout", "2", "--shell", "echo $$ > probe.pid; exec sleep 60"});
  const auto probes = json::parse(repo.ok({"env", "probe", "list", "--json"}));
  REQUIRE(probes.size() == 2);
  CHECK(repo.ej({"env", "probe", "add", "bad name", "--", "true"}).exit_code == 2);
  CHECK(repo.ej({"env", "probe", "add", "nothing"}).exit_code == 2);

  repo.ok({"bench", "add", "b", "--repeat", "1", "--shell", "true"});
  repo.ok({"run", "b", "--quiet"});
  const auto fingerprint = json::parse(repo.ok({"env", "show", "1", "--json"}))["fingerprint"];
  CHECK(fingerprint["probes"]["greeting"]["output"] == "probe says hi\n");
  CHECK(fingerprint["probes"]["greeting"]["exit_code"] == 0);
  CHECK(fingerprint["probes"]["stuck"]["exit_code"].is_null());
  CHECK_THAT(fingerprint["probes"]["stuck"]["error"].get<std::string>(), Catch::Contains("timed out"));
  REQUIRE(wait_for_file(repo.path() / "probe.pid", 10));
  CHECK(wait_gone(std::stoi(read_text(repo.path() / "probe.pid")), 3));
  CHECK_THAT(repo.ok({"env", "show", "1"}), Catch::Contains("probe says hi"));

  repo.ok({"env", "probe", "remove", "stuck"});
  CHECK(repo.ej({"env", "probe", "remove", "stuck"}).exit_code == 1);
  repo.ok({"run", "b", "--quiet"});
  const auto after = json::parse(repo.ok({"env", "show", "2", "--json"}))["fingerprint"];
  CHECK_FALSE(after["probes"].contains("stuck"));
  CHECK(after["probes"].contains("greeting"));
}

TEST_CASE("ej env diff shows a changed variable, and nothing for identical environments")
{
  EjRepo repo;
  repo.ok({"bench", "add", "b", "--repeat", "1", "--shell", "true"});
  repo.ok({"run", "b", "--quiet"}, {{"NCCL_ALGO", "Ring"}});
  repo.ok({"run", "b", "--quiet"}, {{"NCCL_ALGO", "Ring"}});
  repo.ok({"run", "b", "--quiet"}, {{"NCCL_ALGO", "Tree"}});

  CHECK(repo.ok({"env", "diff", "1", "2"}) == "runs 1 and 2 ran in the same environment\n");
  CHECK(json::parse(repo.ok({"env", "diff", "1", "2", "--json"})).empty());
  CHECK(show_run(repo, 1)["env"] == show_run(repo, 2)["env"]);

  const auto text = repo.ok({"env", "diff", "2", "3"});
  CHECK_THAT(text, Catch::Contains("NCCL_ALGO") && Catch::Contains("Ring -> Tree"));
  const auto changes = json::parse(repo.ok({"env", "diff", "2", "3", "--json"}));
  REQUIRE(changes.size() == 1);
  CHECK(changes[0]["before"] == "Ring");
  CHECK(changes[0]["after"] == "Tree");
  CHECK_THAT(changes[0]["what"].get<std::string>(), Catch::Contains("NCCL_ALGO"));
}
