#include "measuring/run_devices.h"

#include <fmt/format.h>

#include <cstdio>

namespace ej::measuring {

std::string clocks_policy(const DeviceOptions& options)
{
  return options.lock_clocks ? run::clocks_policy(options.lock_mhz) : std::string("default");
}

RunDevices::RunDevices(const run::GpuSet& gpus, const DeviceOptions& options, RunObserver& observer)
{
  if (options.lock_clocks) {
    m_clocks = run::ClockLock::lock(gpus, options.lock_mhz);
    observer.message(fmt::format("ej: clocks locked for the run: {}", m_clocks->describe()));
  }
  std::string note;
  m_sampler = run::GpuSampler::start(gpus, options.sample_ms, note);
  if (m_sampler) {
    observer.message(fmt::format("ej: reading {} every {} ms during each repeat ({})", run::describe(gpus),
                                 options.sample_ms, note));
  }
}

} // namespace ej::measuring
