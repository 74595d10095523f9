// GPU runs without a GPU: the NVML test double (tests/support/fake_nvml.cpp, loaded through ej's
// own dlopen path by EJ_NVML_LIBRARY) and a fake nvidia-smi play what the GPUs do; ej reads them
// during every repeat, flags throttled repeats, locks and resets clocks.
#include "support/ej_repo.h"
#include "support/fake_gpus.h"
#include "support/runs.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <thread>

using namespace ej::test;
using nlohmann::json;

namespace {

// Each repeat counts itself; every fifth from the third on runs on a GPU 0 that is hot and slow
// (it says so in the state file the double reads), and reports t=30 instead of t=10. The hot state
// lasts 0.4 s: long enough for the sampler to read it on a loaded machine.
constexpr const char* k_gpu_script =
    "n=$(($(cat count 2>/dev/null || echo 0) + 1)); echo $n > count; "
    "if [ $((n % 5)) = 3 ]; then echo '0 sm=1200 temp=92 reasons=0x40' > state; t=30; s=0.4; "
    "else t=10; s=0.06; fi; sleep $s; : > state; echo t=$t";

std::map<std::string, std::string> fake_gpus(const EjRepo& repo, const std::string& script = "")
{
  write_text(repo.path() / "timeline", script);
  return {{"EJ_NVML_LIBRARY", ej::test::fake_nvml_library()},
          {"EJ_FAKE_NVML_STATE", (repo.path() / "state").string()},
          {"EJ_FAKE_NVML_SCRIPT", (repo.path() / "timeline").string()},
          {"EJ_FAKE_NVML_LOG", (repo.path() / "nvml.log").string()},
          {"EJ_GPU_LOCK_DIR", (repo.path() / "locks").string()}};
}

void add_gpu_bench(const EjRepo& repo, const std::string& name, const std::vector<std::string>& extra = {})
{
  std::vector<std::string> args = {
      "bench",  "add",  name,      "--repeat",  "5", "--metric", "t=regex:t=([0-9]+)",
      "--unit", "t=ms", "--shell", k_gpu_script};
  args.insert(args.end(), extra.begin(), extra.end());
  repo.ok(args);
}

bool wait_for_file(const std::filesystem::path& path)
{
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    if (std::filesystem::exists(path)) {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

} // namespace

TEST_CASE("each repeat of a GPU run stores what its GPUs went through, and ej show run shows it per repeat")
{
  EjRepo repo;
  add_gpu_bench(repo, "gpu");
  const auto env = fake_gpus(repo, "0 1 persistence=0\n");
  const auto ran = repo.ej({"run", "gpu", "--quiet", "--gpu-sample-ms", "10"}, env);
  REQUIRE(ran.exit_code == 0);
  CHECK_THAT(ran.err, Catch::Contains("reading all GPUs every 10 ms during each repeat (NVML)"));
  CHECK_THAT(ran.err, Catch::Contains("warning: the GPU clocks were not locked"));
  CHECK_THAT(ran.err, Catch::Contains("warning: persistence mode was off on GPU 1"));

  const auto run = show_run(repo, 1);
  REQUIRE(run["repeats"].size() == 5);
  const auto& first = run["repeats"][0];
  REQUIRE(first["device"].size() == 2);
  CHECK(first["device"][0]["uuid"] == "GPU-fake-0");
  CHECK(first["device"][0]["samples"].get<int>() >= 1);
  CHECK(first["device"][0]["sm_clock_mhz"]["median"] == 1980);
  CHECK(first["device"][0]["power_w"]["max"] == 350);
  CHECK(first["device"][0]["reasons"] == json::array());
  CHECK(first["throttled"] == false);
  const auto& hot = run["repeats"][2];
  CHECK(hot["throttled"] == true);
  CHECK(hot["device"][0]["temperature_max_c"] == 92);
  CHECK(hot["device"][0]["sm_clock_mhz"]["min"] == 1200);
  CHECK(hot["device"][0]["reasons"] == json::array({"hw_thermal_slowdown"}));
  CHECK(hot["device"][1]["reasons"] == json::array());
  CHECK(hot["throttled_why"][0] == "GPU 0 hw_thermal_slowdown");
  CHECK(run["throttled"]["repeats"] == 1);
  CHECK(run["throttled"]["of"] == 5);
  CHECK(run["gpu_warnings"].size() == 2);

  const auto text = repo.ok({"show", "run", "1"});
  CHECK_THAT(text, Catch::Contains("device state per repeat"));
  CHECK_THAT(text, Catch::Contains("THROTTLED"));
  CHECK_THAT(text, Catch::Contains("GPU 1  SM 1980 MHz"));
  CHECK_THAT(text, Catch::Contains("throttled: 1 of 5 repeats throttled (GPU 0 hw_thermal_slowdown"));
  CHECK_THAT(text, Catch::Contains("warning: the GPU clocks were not locked"));
}

TEST_CASE("throttled repeats are counted in comparisons and verdicts, and left out with --exclude-throttled")
{
  EjRepo repo;
  const auto env = fake_gpus(repo);
  add_gpu_bench(repo, "gpu");
  repo.ok({"plan", "new", "p", "--title", "GPU"});
  repo.ok({"try", "candidate", "--plan", "p"});
  repo.ok({"run", "gpu", "--quiet", "--gpu-sample-ms", "10"}, env);
  repo.ok({"plan", "baseline", "p", "--run", "1"});
  repo.ok({"run", "gpu", "--quiet", "--gpu-sample-ms", "10", "--attempt", "1"}, env);

  const auto kept = json::parse(repo.ok({"compare", "r1", "r2", "--json"}));
  CHECK(kept["series"][0]["n_candidate"] == 5);
  CHECK(kept["throttled"]["candidate"] == 1);
  CHECK(kept["throttled"]["excluded"] == false);
  CHECK_THAT(kept["warnings"].dump(),
             Catch::Contains("run #2: 1 of 5 repeats throttled") &&
                 Catch::Contains("'ej compare --exclude-throttled' judges without them"));

  const auto left_out = json::parse(repo.ok({"compare", "r1", "r2", "--json", "--exclude-throttled"}));
  CHECK(left_out["series"][0]["n_candidate"] == 4);
  CHECK(left_out["series"][0]["n_reference"] == 4);
  CHECK(left_out["throttled"]["excluded"] == true);
  CHECK_THAT(left_out["warnings"].dump(), Catch::Contains("judged without them (--exclude-throttled)"));

  const auto judged = json::parse(repo.ok({"judge", "1", "--json"}));
  CHECK_THAT(judged["verdict"]["text"].get<std::string>(), Catch::Contains("2 of 10 repeats throttled"));

  // A benchmark can make it the default, and comparisons say why they leave them out.
  add_gpu_bench(repo, "gpu-strict", {"--exclude-throttled", "true"});
  repo.ok({"run", "gpu-strict", "--quiet", "--gpu-sample-ms", "10"}, env);
  repo.ok({"run", "gpu-strict", "--quiet", "--gpu-sample-ms", "10"}, env);
  const auto strict = json::parse(repo.ok({"compare", "r3", "r4", "--json"}));
  CHECK(strict["series"][0]["n_candidate"] == 4);
  CHECK_THAT(strict["warnings"].dump(),
             Catch::Contains("judged without them (the benchmark's --exclude-throttled)"));
}

TEST_CASE("ej run --lock-clocks locks the run's GPUs and resets them when ej is interrupted by SIGINT or SIGTERM")
{
  for (const int signal : {SIGINT, SIGTERM}) {
    INFO("signal " << signal);
    EjRepo repo;
    repo.ok({"bench", "add", "slow", "--repeat", "3", "--shell", "touch started; sleep 30"});
    auto env = fake_gpus(repo);
    CommandOptions options{repo.path(), env, {}};
    const int ej =
        start_command({EJ_BINARY, "run", "slow", "--quiet", "--gpus", "1", "--lock-clocks", "1500"}, options);
    REQUIRE(wait_for_file(repo.path() / "started"));
    CHECK(read_text(repo.path() / "nvml.log") == "lock 1 1500 1500\n");
    ::kill(ej, signal);
    CHECK(wait_command(ej) == 128 + signal);
    CHECK(read_text(repo.path() / "nvml.log") == "lock 1 1500 1500\nreset 1\n");
    const auto run = show_run(repo, 1);
    CHECK(run["status"] == "interrupted");
    CHECK(run["gpu_warnings"] == json::array()); // clocks locked, persistence on
  }
}

TEST_CASE("the clocks policy is part of the environment: ej env diff and compare say it changed")
{
  EjRepo repo;
  const auto env = fake_gpus(repo);
  add_gpu_bench(repo, "gpu");
  repo.ok({"run", "gpu", "--quiet"}, env);
  repo.ok({"run", "gpu", "--quiet", "--lock-clocks"}, env);
  CHECK(read_text(repo.path() / "nvml.log") ==
        "lock 0 4294967041 4294967041\nlock 1 4294967041 4294967041\nreset 0\nreset 1\n");
  const auto diff = repo.ok({"env", "diff", "1", "2"});
  CHECK_THAT(diff, Catch::Contains("GPU clocks policy: default -> locked base"));
  const auto compared = repo.ok({"compare", "r1", "r2"});
  CHECK_THAT(compared, Catch::Contains("GPU clocks policy: default -> locked base"));
}

TEST_CASE("a clock lock the driver refuses fails the run, saying it needs root, and locks nothing")
{
  EjRepo repo;
  auto env = fake_gpus(repo);
  env["EJ_FAKE_NVML_DENY_LOCK"] = "1";
  add_gpu_bench(repo, "gpu");
  const auto ran = repo.ej({"run", "gpu", "--quiet", "--lock-clocks", "1500"}, env);
  CHECK(ran.exit_code == 1);
  CHECK_THAT(ran.err,
             Catch::Contains("cannot lock the clocks of GPU 0 at 1500 MHz: Insufficient Permissions") &&
                 Catch::Contains("needs root"));
  CHECK(show_run(repo, 1)["status"] == "failed");
  CHECK_FALSE(std::filesystem::exists(repo.path() / "count")); // nothing ran
}

TEST_CASE("with only nvidia-smi, a long-lived nvidia-smi -lms reads the GPUs during the repeats")
{
  EjRepo repo;
  const auto bin = write_fake_nvidia_smi(repo.path() / "bin", "GPU-smi-0");
  // Long enough for the sampler, started beside it, to read twice on a loaded machine.
  repo.ok({"bench", "add", "smi", "--repeat", "3", "--shell", "sleep 0.5"});
  const auto path = bin.string() + ":" + std::getenv("PATH");
  const auto ran = repo.ej({"run", "smi", "--quiet", "--gpu-sample-ms", "10"},
                           {{"EJ_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1"},
                            {"PATH", path},
                            {"EJ_GPU_LOCK_DIR", (repo.path() / "locks").string()}});
  REQUIRE(ran.exit_code == 0);
  CHECK_THAT(ran.err, Catch::Contains("(nvidia-smi)"));
  const auto run = show_run(repo, 1);
  const auto& device = run["repeats"][1]["device"];
  REQUIRE(device.size() == 1);
  CHECK(device[0]["uuid"] == "GPU-smi-0");
  CHECK(device[0]["samples"].get<int>() >= 2);
  CHECK(device[0]["sm_clock_mhz"]["median"] == 1410);
}

TEST_CASE("without NVML or nvidia-smi a run says no GPU, as before: no device state, no GPU warning")
{
  EjRepo repo;
  repo.ok({"bench", "add", "cpu", "--repeat", "2", "--shell", "true"});
  const auto ran = repo.ej({"run", "cpu", "--quiet"}, {{"EJ_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1"},
                                                       {"PATH", "/usr/bin:/bin"}});
  REQUIRE(ran.exit_code == 0);
  CHECK_THAT(ran.err, !Catch::Contains("GPU"));
  const auto run = show_run(repo, 1);
  CHECK(run["repeats"][0]["device"] == json::array());
  CHECK(run["throttled"]["of"] == 0);
  CHECK(run["gpu_warnings"] == json::array());
  CHECK_THAT(repo.ok({"show", "run", "1"}),
             !Catch::Contains("device state") && !Catch::Contains("throttled"));
}
