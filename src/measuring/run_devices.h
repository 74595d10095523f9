#pragma once

#include "measuring/run_observer.h"
#include "run/clock_lock.h"
#include "run/gpu_lock.h"
#include "run/gpu_sampler.h"

#include <memory>
#include <optional>
#include <string>

// The GPUs of a run on this machine, while it measures: their clocks locked when asked (and reset
// however the run ends), their state read during every repeat.
namespace ej::measuring {

struct DeviceOptions {
  int sample_ms = run::k_default_sample_ms; // --gpu-sample-ms; 0: not read
  bool lock_clocks = false;                 // --lock-clocks
  std::optional<int> lock_mhz;              // --lock-clocks SM_MHZ; nullopt: the base clock
};

// "default", "locked base", "locked 1500 MHz": the fingerprint's clocks policy.
std::string clocks_policy(const DeviceOptions& options);

class RunDevices {
public:
  // Locks the clocks first (throws ej::Error saying why it cannot), then starts the sampler.
  RunDevices(const run::GpuSet& gpus, const DeviceOptions& options, RunObserver& observer);

  run::GpuSampler* sampler() const { return m_sampler.get(); }

private:
  std::unique_ptr<run::ClockLock> m_clocks; // reset after the sampler has stopped
  std::unique_ptr<run::GpuSampler> m_sampler;
};

} // namespace ej::measuring
