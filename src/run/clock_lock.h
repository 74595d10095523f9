#pragma once

#include "run/gpu_lock.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

// `ej run --lock-clocks [SM_MHZ]`: the GPUs' SM clocks held at one value for the run, so that
// GPU Boost cannot move them between repeats, and reset when the lock goes however the run ends
// (a finished run, an error, Ctrl-C or SIGTERM: the InterruptGuard turns those into an ending
// ej unwinds from). Only SIGKILL leaves them locked; `nvidia-smi -rgc` resets them then.
namespace ej::run {

// "locked base" (the base clock: NVML's TDP limit, `nvidia-smi -lgc tdp,tdp`), "locked 1500 MHz".
std::string clocks_policy(std::optional<int> sm_mhz);

class ClockLock {
public:
  // Locks the clocks of the GPUs (every GPU when gpus.all) through NVML (the library
  // nvml::library_path() names), else nvidia-smi. Throws ej::Error saying why not (it needs root).
  static std::unique_ptr<ClockLock> lock(const GpuSet& gpus, std::optional<int> sm_mhz);

  virtual ~ClockLock() = default; // resets the clocks it locked
  ClockLock(const ClockLock&) = delete;
  ClockLock& operator=(const ClockLock&) = delete;

  // What was locked: "GPU 0, GPU 1 at 1500 MHz".
  virtual std::string describe() const = 0;

protected:
  ClockLock() = default;
};

} // namespace ej::run
