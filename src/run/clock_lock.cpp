#include "run/clock_lock.h"

#include "run/nvml_library.h"
#include "run/tool.h"
#include "util/error.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <cstdio>

namespace ej::run {

namespace {

std::string at_what(std::optional<int> sm_mhz)
{
  return sm_mhz ? fmt::format("{} MHz", *sm_mhz) : std::string("the base clock");
}

class NvmlClockLock final : public ClockLock {
public:
  NvmlClockLock(const GpuSet& gpus, std::optional<int> sm_mhz)
      : m_nvml(nvml::library_path()), m_sm_mhz(sm_mhz)
  {
    const auto lock_fn = m_nvml.get<nvml::LockClocksFn>("nvmlDeviceSetGpuLockedClocks");
    m_reset = m_nvml.get<nvml::ResetClocksFn>("nvmlDeviceResetGpuLockedClocks");
    if (lock_fn == nullptr || m_reset == nullptr) {
      throw Error("this NVIDIA driver cannot lock clocks (no nvmlDeviceSetGpuLockedClocks)");
    }
    std::vector<std::string> missing;
    const auto chosen = nvml::choose_devices(m_nvml, gpus, missing);
    if (!missing.empty()) {
      throw Error("cannot lock the clocks of GPU {}: NVML does not find it", missing.front());
    }
    const unsigned mhz = sm_mhz ? static_cast<unsigned>(*sm_mhz) : nvml::k_clock_limit_tdp;
    for (const auto& gpu : chosen) {
      if (const auto status = lock_fn(gpu.device, mhz, mhz); status != nvml::k_success) {
        reset_all(); // those locked before it
        throw Error("cannot lock the clocks of GPU {} at {}: {}{}", gpu.name, at_what(sm_mhz),
                    m_nvml.error_text(status),
                    status == nvml::k_no_permission ? "; --lock-clocks needs root (or run without it)" : "");
      }
      m_locked.emplace_back(gpu.name, gpu.device);
    }
  }
  ~NvmlClockLock() override { reset_all(); }
  NvmlClockLock(const NvmlClockLock&) = delete;
  NvmlClockLock& operator=(const NvmlClockLock&) = delete;

  std::string describe() const override
  {
    std::vector<std::string> names;
    for (const auto& [name, device] : m_locked) {
      names.push_back("GPU " + name);
    }
    return fmt::format("{} at {}", util::join(names, ", "), at_what(m_sm_mhz));
  }

private:
  void reset_all() noexcept
  {
    for (const auto& [name, device] : m_locked) {
      if (const auto status = m_reset(device); status != nvml::k_success) {
        std::fprintf(stderr, "ej: cannot reset the clocks of GPU %s (%s); run 'nvidia-smi -i %s -rgc'\n",
                     name.c_str(), m_nvml.error_text(status).c_str(), name.c_str());
      }
    }
    m_locked.clear();
  }

  nvml::Library m_nvml;
  std::optional<int> m_sm_mhz;
  nvml::ResetClocksFn m_reset = nullptr;
  std::vector<std::pair<std::string, nvml::Device>> m_locked;
};

ToolResult smi(const std::vector<std::string>& args)
{
  std::vector<std::string> argv = {"nvidia-smi"};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_tool(argv);
}

class SmiClockLock final : public ClockLock {
public:
  SmiClockLock(const GpuSet& gpus, std::optional<int> sm_mhz) : m_sm_mhz(sm_mhz)
  {
    if (!gpus.all) {
      m_ids = {"-i", util::join(gpus.devices, ",")};
    }
    auto args = m_ids;
    args.push_back("-lgc");
    args.push_back(sm_mhz ? fmt::format("{},{}", *sm_mhz, *sm_mhz) : std::string("tdp,tdp"));
    const auto result = smi(args);
    if (result.exit_code == 127) {
      throw Error("cannot lock the clocks: neither NVML nor nvidia-smi is available");
    }
    if (!result.succeeded()) {
      const auto said = util::first_line(result.output, 200);
      throw Error("cannot lock the clocks of {} at {}: nvidia-smi exited with {}: {}{}", run::describe(gpus),
                  at_what(sm_mhz), result.exit_code, said,
                  said.find("ermission") != std::string::npos ? "; --lock-clocks needs root" : "");
    }
    m_what = run::describe(gpus);
  }
  ~SmiClockLock() override
  {
    auto args = m_ids;
    args.push_back("-rgc");
    if (!smi(args).succeeded()) {
      std::fprintf(stderr, "ej: cannot reset the GPU clocks; run 'nvidia-smi -rgc'\n");
    }
  }
  SmiClockLock(const SmiClockLock&) = delete;
  SmiClockLock& operator=(const SmiClockLock&) = delete;

  std::string describe() const override { return fmt::format("{} at {}", m_what, at_what(m_sm_mhz)); }

private:
  std::optional<int> m_sm_mhz;
  std::vector<std::string> m_ids;
  std::string m_what;
};

} // namespace

std::string clocks_policy(std::optional<int> sm_mhz)
{
  return sm_mhz ? fmt::format("locked {} MHz", *sm_mhz) : std::string("locked base");
}

std::unique_ptr<ClockLock> ClockLock::lock(const GpuSet& gpus, std::optional<int> sm_mhz)
{
  std::string nvml_error;
  try {
    return std::make_unique<NvmlClockLock>(gpus, sm_mhz);
  } catch (const Error& error) {
    nvml_error = error.what();
    if (nvml_error.starts_with("cannot lock the clocks of")) {
      throw; // NVML is there and said no: nvidia-smi would say the same
    }
  }
  return std::make_unique<SmiClockLock>(gpus, sm_mhz);
}

} // namespace ej::run
