#include "run/clock_lock.h"
#include "run/gpu_sampler.h"
#include "run/nvml.h"
#include "support/fake_gpus.h"
#include "support/temp_dir.h"
#include "util/error.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

using namespace ej::run;
using namespace std::chrono_literals;

namespace {

// The NVML test double, playing `script` (see tests/support/fake_nvml.cpp).
void use_fake_nvml(const ej::test::TempDir& dir, const std::string& script)
{
  ej::test::write_text(dir / "timeline", script);
  ::setenv("EJ_NVML_LIBRARY", ej::test::fake_nvml_library().c_str(), 1);
  ::setenv("EJ_FAKE_NVML_SCRIPT", (dir / "timeline").c_str(), 1);
  ::setenv("EJ_FAKE_NVML_LOG", (dir / "log").c_str(), 1);
}

GpuReading reading(int index, double sm, unsigned long long reasons = 0)
{
  GpuReading r;
  r.index = index;
  r.uuid = "GPU-" + std::to_string(index);
  r.sm_clock_mhz = sm;
  r.memory_clock_mhz = 3201;
  r.power_w = sm / 4;
  r.temperature_c = sm / 20;
  r.reasons = reasons;
  return r;
}

} // namespace

TEST_CASE("readings of a repeat are summarised per GPU: ranges, peak temperature, reasons seen, samples")
{
  auto lost = reading(1, 0);
  lost.lost = true;
  const auto state = summarize_readings(
      {reading(1, 1980), reading(0, 1980, 0x1), reading(0, 1410, 0x40), reading(0, 1800), lost});
  REQUIRE(state.size() == 2);
  const auto& gpu0 = state[0];
  CHECK(gpu0.index == 0);
  CHECK(gpu0.samples == 3);
  CHECK(gpu0.sm_clock_mhz == ej::core::Range{1410, 1800, 1980});
  CHECK(gpu0.power_w->median == 450);
  CHECK(gpu0.temperature_max_c == 99);
  CHECK(gpu0.reasons == std::vector<std::string>{"gpu_idle", "hw_thermal_slowdown"});
  CHECK_FALSE(gpu0.lost);
  CHECK(state[1].samples == 1);
  CHECK(state[1].lost);
  CHECK(state[1].uuid == "GPU-1");
}

TEST_CASE("a line of the sampler's nvidia-smi query is one reading, [N/A] as unknown")
{
  const auto r = parse_sampler_smi_line("1, GPU-abc, 1410, 3201, 301.25, 83, 97, 0x0000000000000020");
  REQUIRE(r);
  CHECK(r->index == 1);
  CHECK(r->uuid == "GPU-abc");
  CHECK(r->sm_clock_mhz == 1410);
  CHECK(r->power_w == 301.25);
  CHECK(r->utilization_pct == 97);
  CHECK(r->reasons == 0x20ULL);
  const auto unknown = parse_sampler_smi_line("0, GPU-abc, 1410, 3201, [N/A], 83, [N/A], [N/A]");
  REQUIRE(unknown);
  CHECK_FALSE(unknown->power_w);
  CHECK_FALSE(unknown->reasons);
  CHECK_FALSE(parse_sampler_smi_line("NVIDIA-SMI has failed because it couldn't communicate"));
}

TEST_CASE(
    "the NVML sampler follows a scripted timeline: clocks drop, a thermal reason appears, a GPU vanishes")
{
  ej::test::TempDir dir;
  use_fake_nvml(dir, "0 * sm=1980 temp=60\n"
                     "1000 0 sm=1200 temp=91 reasons=0x40\n"
                     "1000 1 lost\n");
  auto sampler = start_nvml_sampler(ej::test::fake_nvml_library(), GpuSet{}, 10);
  const auto begun = std::chrono::steady_clock::now();
  sampler->start_repeat();
  std::this_thread::sleep_for(300ms); // three readings at 10 ms on a loaded machine; the drop is at 1 s
  const auto before = sampler->end_repeat();
  REQUIRE(before.size() == 2);
  CHECK(before[0].samples >= 3);
  CHECK(before[0].sm_clock_mhz == ej::core::Range{1980, 1980, 1980});
  CHECK(before[0].temperature_max_c == 60);
  CHECK(before[0].reasons.empty());
  CHECK_FALSE(before[1].lost);

  std::this_thread::sleep_until(begun + 1100ms);
  sampler->start_repeat();
  std::this_thread::sleep_for(60ms);
  const auto after = sampler->end_repeat();
  REQUIRE(after.size() == 2);
  CHECK(after[0].sm_clock_mhz->max == 1200);
  CHECK(after[0].temperature_max_c == 91);
  CHECK(after[0].reasons == std::vector<std::string>{"hw_thermal_slowdown"});
  CHECK(after[1].lost);
  CHECK(after[1].samples == 0);
}

TEST_CASE(
    "the sampler reads only the GPUs the run uses, and a repeat shorter than the interval gets one reading")
{
  ej::test::TempDir dir;
  use_fake_nvml(dir, "");
  GpuSet gpus;
  gpus.all = false;
  gpus.devices = {"GPU-fake-1"};
  auto sampler = start_nvml_sampler(ej::test::fake_nvml_library(), gpus, 10'000);
  std::this_thread::sleep_for(20ms);
  sampler->start_repeat();
  const auto state = sampler->end_repeat(); // at once: the thread may not have read yet
  REQUIRE(state.size() == 1);
  CHECK(state[0].index == 1);
  CHECK(state[0].uuid == "GPU-fake-1");
  CHECK(state[0].samples >= 1);
}

TEST_CASE("GPU sampling off, or no GPU in the run, gives no sampler")
{
  std::string note;
  CHECK(GpuSampler::start(GpuSet{}, 0, note) == nullptr);
  CHECK(note == "GPU sampling is off");
  GpuSet none;
  none.all = false;
  CHECK(GpuSampler::start(none, 50, note) == nullptr);
  CHECK(note == "the run uses no GPU");
}

TEST_CASE("without NVML and nvidia-smi the sampler says there is no GPU")
{
  ::setenv("EJ_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
  const char* path = std::getenv("PATH");
  const std::string saved = path != nullptr ? path : "";
  ::setenv("PATH", "/nonexistent", 1);
  std::string note;
  const auto sampler = GpuSampler::start(GpuSet{}, 50, note);
  ::setenv("PATH", saved.c_str(), 1);
  CHECK(sampler == nullptr);
  CHECK_THAT(note, Catch::StartsWith("no GPU (NVML: cannot load /nonexistent"));
}

TEST_CASE("the nvidia-smi sampler reads the lines of one long-lived nvidia-smi -lms")
{
  ej::test::TempDir dir;
  const auto smi = dir / "nvidia-smi";
  ej::test::write_text(smi, "#!/bin/sh\n"
                            "echo \"$@\" > \"$(dirname \"$0\")/args\"\n"
                            "while :; do echo '0, GPU-1, 1410, 3201, 300.5, 83, 99, 0x0000000000000004'; "
                            "sleep 0.02; done\n");
  std::filesystem::permissions(smi, std::filesystem::perms::owner_all);
  GpuSet gpus;
  gpus.all = false;
  gpus.devices = {"0"};
  auto sampler = start_smi_sampler(smi.string(), gpus, 20);
  sampler->start_repeat();
  std::this_thread::sleep_for(500ms); // two lines of a shell loop, on a loaded machine
  const auto state = sampler->end_repeat();
  REQUIRE(state.size() == 1);
  CHECK(state[0].samples >= 2);
  CHECK(state[0].sm_clock_mhz->median == 1410);
  CHECK(state[0].reasons == std::vector<std::string>{"sw_power_cap"});
  CHECK(sampler->source() == "nvidia-smi");
  sampler.reset(); // ends it
  const auto args = ej::test::read_text(dir / "args");
  CHECK(args.find("--loop-ms=20") != std::string::npos);
  CHECK(args.find("--id=0") != std::string::npos);
}

TEST_CASE("an nvidia-smi that reports no GPU gives no sampler, with what it said")
{
  ej::test::TempDir dir;
  const auto smi = dir / "nvidia-smi";
  ej::test::write_text(smi,
                       "#!/bin/sh\necho \"NVIDIA-SMI has failed because it couldn't communicate with the "
                       "NVIDIA driver\"\nexit 9\n");
  std::filesystem::permissions(smi, std::filesystem::perms::owner_all);
  CHECK_THROWS_WITH(start_smi_sampler(smi.string(), GpuSet{}, 50), Catch::Contains("NVIDIA-SMI has failed"));
}

TEST_CASE(
    "locked clocks are reset when the lock goes, and a refused lock leaves none locked and says root is needed")
{
  ej::test::TempDir dir;
  use_fake_nvml(dir, "");
  {
    const auto lock = ClockLock::lock(GpuSet{}, 1500);
    CHECK(lock->describe() == "GPU 0, GPU 1 at 1500 MHz");
    CHECK(ej::test::read_text(dir / "log") == "lock 0 1500 1500\nlock 1 1500 1500\n");
  }
  CHECK(ej::test::read_text(dir / "log") == "lock 0 1500 1500\nlock 1 1500 1500\nreset 0\nreset 1\n");
  CHECK(clocks_policy(1500) == "locked 1500 MHz");
  CHECK(clocks_policy(std::nullopt) == "locked base");

  ::setenv("EJ_FAKE_NVML_DENY_LOCK", "1", 1);
  CHECK_THROWS_WITH(ClockLock::lock(GpuSet{}, std::nullopt), Catch::Contains("needs root"));
  ::unsetenv("EJ_FAKE_NVML_DENY_LOCK");
}

TEST_CASE("the environment snapshot reads GPUs through the library EJ_NVML_LIBRARY names")
{
  ej::test::TempDir dir;
  use_fake_nvml(dir, "0 1 persistence=0\n");
  const auto report = query_gpus();
  CHECK(report.fingerprint["source"] == "nvml");
  REQUIRE(report.fingerprint["devices"].size() == 2);
  CHECK(report.fingerprint["devices"][1]["persistence_mode"] == "disabled");
  CHECK(report.fingerprint["cuda_driver_version"] == "12.8");
}
