#include "cli/run_devices.h"

#include <fmt/format.h>

#include <cstdio>

namespace ej::cli {

std::string clocks_policy(const DeviceOptions& options)
{
  return options.lock_clocks ? run::clocks_policy(options.lock_mhz) : std::string("default");
}

RunDevices::RunDevices(const run::GpuSet& gpus, const DeviceOptions& options)
{
  if (options.lock_clocks) {
    m_clocks = run::ClockLock::lock(gpus, options.lock_mhz);
    fmt::print(stderr, "ej: clocks locked for the run: {}\n", m_clocks->describe());
  }
  std::string note;
  m_sampler = run::GpuSampler::start(gpus, options.sample_ms, note);
  if (m_sampler) {
    fmt::print(stderr, "ej: reading {} every {} ms during each repeat ({})\n", run::describe(gpus),
               options.sample_ms, note);
  }
  std::fflush(stderr);
}

} // namespace ej::cli
