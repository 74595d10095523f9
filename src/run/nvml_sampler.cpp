#include "run/gpu_sampler.h"
#include "run/nvml_library.h"
#include "util/error.h"

#include <array>

// The NVML source of GpuSampler: the library stays loaded for the run; each reading asks every
// chosen GPU for its clocks, power, temperature, utilisation and clock-event reasons.
namespace ej::run {

namespace {

class NvmlSampler final : public GpuSampler {
public:
  NvmlSampler(const std::string& library, const GpuSet& gpus, int interval_ms)
      : GpuSampler("nvml", interval_ms), m_nvml(library)
  {
    m_clock = m_nvml.get<nvml::ClockFn>("nvmlDeviceGetClockInfo");
    m_power = m_nvml.get<nvml::UintFn>("nvmlDeviceGetPowerUsage");
    m_temperature = m_nvml.get<nvml::TemperatureFn>("nvmlDeviceGetTemperature");
    m_utilization = m_nvml.get<nvml::UtilizationFn>("nvmlDeviceGetUtilizationRates");
    choose(gpus);
    if (m_chosen.empty()) {
      throw Error("NVML sees none of {}", describe(gpus));
    }
    start_thread([this] { poll_loop(); });
  }
  ~NvmlSampler() override { stop_thread(); }
  NvmlSampler(const NvmlSampler&) = delete;
  NvmlSampler& operator=(const NvmlSampler&) = delete;

protected:
  std::vector<GpuReading> read_now() override
  {
    std::vector<GpuReading> out;
    out.reserve(m_chosen.size());
    for (std::size_t i = 0; i < m_chosen.size(); ++i) {
      out.push_back(read(m_chosen[i], m_uuids[i]));
    }
    return out;
  }

private:
  void choose(const GpuSet& gpus)
  {
    std::vector<std::string> missing; // read what can be read
    m_chosen = nvml::choose_devices(m_nvml, gpus, missing);
    const auto uuid_fn = m_nvml.get<nvml::DeviceStringFn>("nvmlDeviceGetUUID");
    for (auto& gpu : m_chosen) {
      std::array<char, 96> buffer{};
      m_uuids.emplace_back(uuid_fn != nullptr &&
                                   uuid_fn(gpu.device, buffer.data(), buffer.size()) == nvml::k_success
                               ? buffer.data()
                               : "");
    }
  }

  GpuReading read(const nvml::Chosen& gpu, const std::string& uuid) const
  {
    GpuReading r;
    r.index = gpu.index;
    r.uuid = uuid;
    const auto note = [&r](nvml::Return status) {
      if (status == nvml::k_gpu_is_lost) {
        r.lost = true;
      }
      return status == nvml::k_success;
    };
    unsigned value = 0;
    if (m_clock != nullptr && note(m_clock(gpu.device, nvml::k_clock_sm, &value))) {
      r.sm_clock_mhz = value;
    }
    if (r.lost) {
      return r;
    }
    if (m_clock != nullptr && note(m_clock(gpu.device, nvml::k_clock_mem, &value))) {
      r.memory_clock_mhz = value;
    }
    if (m_power != nullptr && note(m_power(gpu.device, &value))) {
      r.power_w = value / 1000.0;
    }
    if (m_temperature != nullptr && note(m_temperature(gpu.device, nvml::k_temperature_gpu, &value))) {
      r.temperature_c = value;
    }
    nvml::Utilization utilization{};
    if (m_utilization != nullptr && note(m_utilization(gpu.device, &utilization))) {
      r.utilization_pct = utilization.gpu;
    }
    unsigned long long mask = 0;
    if (m_nvml.throttle_reasons(gpu.device, mask)) {
      r.reasons = mask;
    }
    return r;
  }

  nvml::Library m_nvml;
  nvml::ClockFn m_clock = nullptr;
  nvml::UintFn m_power = nullptr;
  nvml::TemperatureFn m_temperature = nullptr;
  nvml::UtilizationFn m_utilization = nullptr;
  std::vector<nvml::Chosen> m_chosen;
  std::vector<std::string> m_uuids; // of m_chosen
};

} // namespace

std::unique_ptr<GpuSampler> start_nvml_sampler(const std::string& library, const GpuSet& gpus,
                                               int interval_ms)
{
  return std::make_unique<NvmlSampler>(library, gpus, interval_ms);
}

} // namespace ej::run
