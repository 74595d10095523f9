#include "run/nvml.h"

#include "run/process.h"
#include "support/temp_dir.h"
#include "support/skip.h"
#include "util/error.h"

#include <catch2/catch.hpp>

using namespace ej::run;
using nlohmann::json;

TEST_CASE("GPUs are read through NVML loaded at run time, missing functions as unknown")
{
  ej::test::TempDir dir;
  const auto library = dir / "libfake-nvml.so";
  ProcessSpec compile;
  compile.argv = {
      "cc", "-shared",        "-fPIC",
      "-o", library.string(), std::string(EJ_SOURCE_DIR) + "/tests/unit/run/fixtures/fake_nvml.c"};
  const ProcessResult compiled = run_process(compile);
  if (compiled.ending == Ending::SpawnFailed) {
    EJ_SKIP_WITHOUT_SERVICE("no C compiler: " + compiled.error);
  }
  REQUIRE(compiled.succeeded());

  const GpuReport report = query_gpus_nvml(library.string());
  const json& fp = report.fingerprint;
  CHECK(fp["source"] == "nvml");
  CHECK(fp["driver_version"] == "580.65.06");
  CHECK(fp["cuda_driver_version"] == "13.0");
  REQUIRE(fp["devices"].size() == 2);
  const json& gpu1 = fp["devices"][1];
  CHECK(gpu1["index"] == 1);
  CHECK(gpu1["name"] == "NVIDIA B200");
  CHECK(gpu1["uuid"] == "GPU-bbbb");
  CHECK(gpu1["memory_total_mib"] == 183359);
  CHECK(gpu1["power_limit_w"] == 1000.0);
  CHECK(gpu1["persistence_mode"] == "enabled");
  CHECK(gpu1["ecc_mode"] == "enabled");
  CHECK(gpu1["mig_mode"].is_null());

  REQUIRE(report.readings.size() == 2);
  const json& reading = report.readings[1];
  CHECK(reading["sm_clock_mhz"] == 1965);
  CHECK(reading["memory_clock_mhz"] == 3996);
  CHECK(reading["power_draw_w"] == 412.5);
  CHECK(reading["temperature_c"] == 55);
  CHECK(reading["memory_used_mib"] == 1024);
  CHECK(reading["throttle_reasons"] == json::array({"sw_power_cap"}));
  CHECK(report.readings[0]["throttle_reasons"] == json::array({"gpu_idle"}));
}

TEST_CASE("an NVML library that cannot be loaded is an error naming it")
{
  CHECK_THROWS_WITH(query_gpus_nvml("/nonexistent/libnvidia-ml.so.1"),
                    Catch::StartsWith("cannot load /nonexistent/libnvidia-ml.so.1"));
}

TEST_CASE("nvidia-smi CSV output is parsed, [N/A] fields as unknown")
{
  const GpuReport report = parse_nvidia_smi_csv(
      "0, NVIDIA H200, GPU-1234, 570.86.15, 143771, 3, 1980, 3201, 75.32, 700.00, 31, Enabled, Enabled, "
      "[N/A], 0x0000000000000001\n"
      "1, NVIDIA H200, GPU-5678, 570.86.15, 143771, 3, 345, 3201, [N/A], 700.00, 30, Disabled, [N/A], "
      "Disabled, 0x0000000000000024\n");
  const json& fp = report.fingerprint;
  CHECK(fp["source"] == "nvidia-smi");
  CHECK(fp["driver_version"] == "570.86.15");
  REQUIRE(fp["devices"].size() == 2);
  CHECK(fp["devices"][0]["name"] == "NVIDIA H200");
  CHECK(fp["devices"][0]["memory_total_mib"] == 143771.0);
  CHECK(fp["devices"][0]["mig_mode"].is_null());
  CHECK(fp["devices"][1]["persistence_mode"] == "disabled");
  CHECK(fp["devices"][1]["ecc_mode"].is_null());
  CHECK(report.readings[0]["power_draw_w"] == 75.32);
  CHECK(report.readings[1]["power_draw_w"].is_null());
  CHECK(report.readings[1]["throttle_reasons"] == json::array({"sw_power_cap", "sw_thermal_slowdown"}));
}

TEST_CASE("nvidia-smi output with too few fields is an error")
{
  CHECK_THROWS_AS(parse_nvidia_smi_csv("0, NVIDIA H200\n"), ej::Error);
}

TEST_CASE("a fake nvidia-smi on a given path is queried for devices and the CUDA version")
{
  ej::test::TempDir dir;
  const auto smi = dir / "nvidia-smi";
  ej::test::write_text(smi,
                       "#!/bin/sh\n"
                       "if [ $# -eq 0 ]; then echo '| NVIDIA-SMI 570.86.15  Driver Version: 570.86.15  "
                       "CUDA Version: 12.8     |'; exit 0; fi\n"
                       "echo '0, NVIDIA H200, GPU-1, 570.86.15, 143771, 3, 1980, 3201, 75.3, 700.00, 31, "
                       "Enabled, Enabled, Disabled, 0x0'\n");
  std::filesystem::permissions(smi, std::filesystem::perms::owner_all);
  const GpuReport report = query_gpus_nvidia_smi(smi.string());
  CHECK(report.fingerprint["cuda_driver_version"] == "12.8");
  CHECK(report.fingerprint["devices"].size() == 1);
  CHECK(report.readings[0]["throttle_reasons"] == json::array());
}

TEST_CASE("without NVML and nvidia-smi the machine is recorded as having no GPU")
{
  ProcessSpec which;
  which.shell = "command -v nvidia-smi || ls /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1";
  if (run_process(which).succeeded()) {
    EJ_SKIP_NOT_APPLICABLE("this machine has NVIDIA tools; the no-GPU path is not exercised");
  }
  const GpuReport report = query_gpus();
  CHECK(report.fingerprint["source"] == "none");
  CHECK(report.fingerprint["devices"] == json::array());
  CHECK(report.fingerprint["driver_version"].is_null());
  CHECK_THAT(report.fingerprint["note"].get<std::string>(), Catch::StartsWith("no GPU found"));
  CHECK(report.readings == json::array());
}
