#include "run/env_diff.h"

#include <catch2/catch.hpp>

using namespace ej::run;
using nlohmann::json;

namespace {

json snapshot(const std::string& cuda, const std::string& driver, const std::string& nvcc,
              const std::string& pip, const json& variables, int gpu_count)
{
  json devices = json::array();
  for (int i = 0; i < gpu_count; ++i) {
    devices.push_back({{"index", i},
                       {"name", "NVIDIA B200"},
                       {"uuid", "GPU-" + std::to_string(i)},
                       {"memory_total_mib", 183359},
                       {"persistence_mode", "enabled"}});
  }
  return {
      {"schema", 1},
      {"host", {{"hostname", "b200-node"}, {"os", "Ubuntu 24.04.2 LTS"}, {"kernel", "6.8.0-55-generic"}}},
      {"gpu",
       {{"source", "nvml"}, {"driver_version", driver}, {"cuda_driver_version", cuda}, {"devices", devices}}},
      {"toolkit", {{"nvcc", nvcc}, {"nvcc_path", "/usr/local/cuda/bin/nvcc"}}},
      {"variables", variables},
      {"probes",
       {{"pip-freeze", {{"command", "pip freeze"}, {"exit_code", 0}, {"error", nullptr}, {"output", pip}}}}}};
}

} // namespace

TEST_CASE("identical environments have no changes")
{
  const json a = snapshot("12.8", "570.86", "release 12.8", "torch==2.9.0\n", json::object(), 8);
  CHECK(diff_environments(a, a).empty());
  CHECK(diff_environments({{"fingerprint", a}}, a).empty());
}

TEST_CASE("the CUDA 12.8 to 13.0 upgrade of the EAGLE-3 story is described line by line")
{
  const json before = snapshot("12.8", "570.86.15", "Cuda compilation tools, release 12.8, V12.8.93",
                               "flashinfer-python==0.2.5\nnumpy==2.1.0\nsglang==0.4.6\ntorch==2.9.0\n",
                               {{"NCCL_ALGO", "Tree"}, {"CUDA_HOME", "/usr/local/cuda-12.8"}}, 8);
  json after = snapshot("13.0", "580.65.06", "Cuda compilation tools, release 13.0, V13.0.48",
                        "numpy==2.1.0\nsglang==0.5.0\ntorch==2.11.0\ntriton==3.5.0\n",
                        {{"CUDA_HOME", "/usr/local/cuda-13.0"}, {"NCCL_PROTO", "Simple"}}, 8);
  after["gpu"]["devices"][3]["persistence_mode"] = "disabled";

  const std::vector<std::string> lines = format_changes(diff_environments(before, after));
  CHECK(lines ==
        std::vector<std::string>{
            "NVIDIA driver: 570.86.15 -> 580.65.06",
            "CUDA driver: 12.8 -> 13.0",
            "GPU 3 persistence_mode: enabled -> disabled",
            "nvcc: Cuda compilation tools, release 12.8, V12.8.93 -> Cuda compilation tools, release 13.0, "
            "V13.0.48",
            "variable CUDA_HOME: /usr/local/cuda-12.8 -> /usr/local/cuda-13.0",
            "variable NCCL_ALGO: removed Tree",
            "variable NCCL_PROTO: added Simple",
            "probe pip-freeze: sglang==0.4.6 -> sglang==0.5.0",
            "probe pip-freeze: torch==2.9.0 -> torch==2.11.0",
            "probe pip-freeze: removed flashinfer-python==0.2.5",
            "probe pip-freeze: added triton==3.5.0",
        });
}

TEST_CASE("GPUs added or removed are reported by index, host changes by field")
{
  json a = snapshot("13.0", "580", "x", "", json::object(), 8);
  json b = snapshot("13.0", "580", "x", "", json::object(), 7);
  b["host"]["kernel"] = "6.8.0-60-generic";
  const auto changes = diff_environments(a, b);
  REQUIRE(changes.size() == 3);
  CHECK(format_change(changes[0]) == "kernel: 6.8.0-55-generic -> 6.8.0-60-generic");
  CHECK(format_change(changes[1]) == "GPU count: 8 -> 7");
  CHECK(format_change(changes[2]) == "GPU 7: removed NVIDIA B200");
  CHECK(format_change(diff_environments(b, a)[2]) == "GPU 7: added NVIDIA B200");
}

TEST_CASE("the GPUs' clocks policy is part of the environment")
{
  json a = snapshot("13.0", "580", "x", "", json::object(), 2);
  json b = a;
  a["gpu"]["clocks_policy"] = "default";
  b["gpu"]["clocks_policy"] = "locked 1500 MHz";
  CHECK(format_changes(diff_environments(a, b)) ==
        std::vector<std::string>{"GPU clocks policy: default -> locked 1500 MHz"});
}

TEST_CASE("probe lines without a package name are plain additions and removals")
{
  json a = snapshot("13.0", "580", "x", "line one\nline two\n", json::object(), 0);
  json b = snapshot("13.0", "580", "x", "line one\nline 2\n", json::object(), 0);
  b["probes"]["pip-freeze"]["exit_code"] = 1;
  CHECK(format_changes(diff_environments(a, b)) == std::vector<std::string>{
                                                       "probe pip-freeze exit code: 0 -> 1",
                                                       "probe pip-freeze: removed line two",
                                                       "probe pip-freeze: added line 2",
                                                   });
}

TEST_CASE("a value that became unknown says so")
{
  json a = snapshot("13.0", "580", "x", "", json::object(), 0);
  json b = a;
  b["gpu"]["cuda_driver_version"] = nullptr;
  CHECK(format_changes(diff_environments(a, b)) == std::vector<std::string>{"CUDA driver: 13.0 -> unknown"});
}
