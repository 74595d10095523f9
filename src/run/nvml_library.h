#pragma once

#include "run/gpu_lock.h"

#include <memory>
#include <string>
#include <vector>

// NVML opened at run time (dlopen): building ej needs no NVIDIA headers and running it needs no
// driver. The few declarations ej uses are ABI-stable across drivers.
namespace ej::run::nvml {

using Return = int;
constexpr Return k_success = 0;
constexpr Return k_no_permission = 4;
constexpr Return k_gpu_is_lost = 15;
struct DeviceOpaque;
using Device = DeviceOpaque*;
struct Memory {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};
struct Utilization {
  unsigned gpu;
  unsigned memory;
};
constexpr int k_clock_sm = 1;
constexpr int k_clock_mem = 2;
constexpr int k_temperature_gpu = 0;
// nvmlClockLimitId_t: lock at the base (TDP) clock, as `nvidia-smi -lgc base` does.
constexpr unsigned k_clock_limit_tdp = 0xffffff01;

using InitFn = Return (*)();
using CountFn = Return (*)(unsigned*);
using HandleFn = Return (*)(unsigned, Device*);
using HandleByUuidFn = Return (*)(const char*, Device*);
using DeviceStringFn = Return (*)(Device, char*, unsigned);
using SystemStringFn = Return (*)(char*, unsigned);
using IntFn = Return (*)(int*);
using MemoryFn = Return (*)(Device, Memory*);
using ClockFn = Return (*)(Device, int, unsigned*);
using UintFn = Return (*)(Device, unsigned*);
using TemperatureFn = Return (*)(Device, int, unsigned*);
using EnableFn = Return (*)(Device, int*);
using PairFn = Return (*)(Device, int*, int*);
using MigFn = Return (*)(Device, unsigned*, unsigned*);
using ReasonsFn = Return (*)(Device, unsigned long long*);
using UtilizationFn = Return (*)(Device, Utilization*);
using LockClocksFn = Return (*)(Device, unsigned, unsigned);
using ResetClocksFn = Return (*)(Device);
using ErrorStringFn = const char* (*)(Return);

// $EJ_NVML_LIBRARY when set (tests name a scripted stand-in with it), else libnvidia-ml.so.1.
std::string library_path();

// The library loaded and initialised; shut down and unloaded on destruction.
class Library {
public:
  // Throws ej::Error saying why NVML cannot be used.
  explicit Library(const std::string& path);
  ~Library();
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;

  // nullptr when the library lacks the symbol (an older driver).
  template <typename Fn> Fn get(const char* name) const { return reinterpret_cast<Fn>(symbol(name)); }
  std::string error_text(Return status) const;
  // The reasons mask of a device (the clocks-event call, or the older throttle one); false when
  // neither exists or the call fails.
  bool throttle_reasons(Device device, unsigned long long& mask) const;

private:
  void* symbol(const char* name) const;

  std::unique_ptr<void, int (*)(void*)> m_handle;
  InitFn m_shutdown = nullptr;
};

// A GPU of a run, as NVML knows it.
struct Chosen {
  std::string name; // as the run named it ("1", "GPU-..."), or its index for every GPU
  int index = -1;   // the driver's index; -1 when NVML cannot say
  Device device = nullptr;
};

// The GPUs of `gpus` (every GPU when gpus.all); those NVML does not find are put in `missing`.
// CUDA_VISIBLE_DEVICES's indexes are taken as the driver's: the same order unless
// CUDA_DEVICE_ORDER=FASTEST_FIRST reorders CUDA's (name the GPUs by UUID then). A MIG instance's
// clocks are its GPU's: MIG-... entries are missing.
std::vector<Chosen> choose_devices(const Library& nvml, const GpuSet& gpus,
                                   std::vector<std::string>& missing);

} // namespace ej::run::nvml
