#include "run/nvml_library.h"

#include "util/error.h"

#include <fmt/format.h>

#include <cstdlib>
#include <dlfcn.h>

namespace ej::run::nvml {

std::string library_path()
{
  const char* path = std::getenv("EJ_NVML_LIBRARY");
  return path != nullptr && *path != '\0' ? std::string(path) : std::string("libnvidia-ml.so.1");
}

Library::Library(const std::string& path) : m_handle(::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL), ::dlclose)
{
  if (!m_handle) {
    const char* reason = ::dlerror();
    throw Error("cannot load {}: {}", path, reason != nullptr ? reason : "unknown reason");
  }
  const auto init = get<InitFn>("nvmlInit_v2");
  if (init == nullptr) {
    throw Error("{} has no nvmlInit_v2: the NVIDIA driver is too old", path);
  }
  if (const Return status = init(); status != k_success) {
    throw Error("nvmlInit failed: {}", error_text(status));
  }
  m_shutdown = get<InitFn>("nvmlShutdown");
}

Library::~Library()
{
  if (m_shutdown != nullptr) {
    m_shutdown();
  }
}

void* Library::symbol(const char* name) const
{
  return ::dlsym(m_handle.get(), name);
}

std::string Library::error_text(Return status) const
{
  const auto text = get<ErrorStringFn>("nvmlErrorString");
  return text != nullptr ? text(status) : fmt::format("NVML error {}", status);
}

bool Library::throttle_reasons(Device device, unsigned long long& mask) const
{
  for (const char* name :
       {"nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons"}) {
    if (const auto fn = get<ReasonsFn>(name)) {
      return fn(device, &mask) == k_success;
    }
  }
  return false;
}

std::vector<Chosen> choose_devices(const Library& nvml, const GpuSet& gpus, std::vector<std::string>& missing)
{
  const auto count_fn = nvml.get<CountFn>("nvmlDeviceGetCount_v2");
  const auto by_index = nvml.get<HandleFn>("nvmlDeviceGetHandleByIndex_v2");
  const auto by_uuid = nvml.get<HandleByUuidFn>("nvmlDeviceGetHandleByUUID");
  const auto index_of = nvml.get<UintFn>("nvmlDeviceGetIndex");
  unsigned count = 0;
  if (count_fn == nullptr || by_index == nullptr || count_fn(&count) != k_success) {
    throw Error("NVML cannot count the GPUs");
  }
  std::vector<Chosen> out;
  if (gpus.all) {
    for (unsigned i = 0; i < count; ++i) {
      Device device = nullptr;
      if (by_index(i, &device) == k_success) {
        out.push_back({std::to_string(i), static_cast<int>(i), device});
      }
    }
    return out;
  }
  for (const auto& entry : gpus.devices) {
    Device device = nullptr;
    unsigned index = 0;
    if (entry.starts_with("GPU-")) {
      if (by_uuid != nullptr && by_uuid(entry.c_str(), &device) == k_success) {
        const bool known = index_of != nullptr && index_of(device, &index) == k_success;
        out.push_back({entry, known ? static_cast<int>(index) : -1, device});
        continue;
      }
    } else if (!entry.starts_with("MIG-")) {
      index = static_cast<unsigned>(std::strtoul(entry.c_str(), nullptr, 10));
      if (by_index(index, &device) == k_success) {
        out.push_back({entry, static_cast<int>(index), device});
        continue;
      }
    }
    missing.push_back(entry);
  }
  return out;
}

} // namespace ej::run::nvml
