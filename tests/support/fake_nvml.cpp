// A stand-in for libnvidia-ml.so.1 that plays a scripted GPU timeline, built by the tests and
// loaded by ej through its own dlopen path (EJ_NVML_LIBRARY names it). Configured by variables:
//   EJ_FAKE_NVML_GPUS    how many GPUs (default 2)
//   EJ_FAKE_NVML_SCRIPT  a timeline: lines "AT_MS GPU|* key=value ...", AT_MS counted from the
//                        first nvmlInit of the process; keys sm, mem (MHz), power (W), temp (C),
//                        util (%), reasons (the clock-event mask, 0x.. or decimal), persistence
//                        (0|1), and "lost" (the GPU stops answering)
//   EJ_FAKE_NVML_STATE   a file of lines "GPU|* key=value ...", read at every reading and applied
//                        after the timeline: a benchmark writes it to change what the GPU does
//   EJ_FAKE_NVML_LOG     a file every clock lock and reset is appended to ("lock 0 1500 1500")
//   EJ_FAKE_NVML_DENY_LOCK  set: locking clocks is refused as for a user who is not root
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Gpu {
  unsigned sm = 1980, mem = 3201, temp = 50, util = 100;
  double power = 350;
  unsigned long long reasons = 0;
  int persistence = 1;
  bool lost = false;
  unsigned locked = 0; // MHz, 0: not locked
};

struct Device {
  unsigned index;
};

constexpr int k_success = 0;
constexpr int k_invalid = 2;
constexpr int k_no_permission = 4;
constexpr int k_gpu_lost = 15;

std::mutex g_mutex;
std::chrono::steady_clock::time_point g_start;
bool g_started = false;
std::vector<Device> g_devices;
std::vector<Gpu> g_gpus;
std::string g_state_text; // of the state file, so an unchanged one is not parsed again

unsigned gpu_count()
{
  const char* text = std::getenv("EJ_FAKE_NVML_GPUS");
  return text != nullptr ? static_cast<unsigned>(std::atoi(text)) : 2U;
}

void apply(Gpu& gpu, const std::string& key, const std::string& value)
{
  if (key == "sm") {
    gpu.sm = static_cast<unsigned>(std::stoul(value));
  } else if (key == "mem") {
    gpu.mem = static_cast<unsigned>(std::stoul(value));
  } else if (key == "power") {
    gpu.power = std::stod(value);
  } else if (key == "temp") {
    gpu.temp = static_cast<unsigned>(std::stoul(value));
  } else if (key == "util") {
    gpu.util = static_cast<unsigned>(std::stoul(value));
  } else if (key == "reasons") {
    gpu.reasons = std::stoull(value, nullptr, 0);
  } else if (key == "persistence") {
    gpu.persistence = std::atoi(value.c_str());
  } else if (key == "lost") {
    gpu.lost = value != "0";
  }
}

// "GPU|* key=value ..." applied to the GPUs it names.
void apply_line(std::istringstream& words)
{
  std::string target;
  words >> target;
  std::string word;
  while (words >> word) {
    const auto equals = word.find('=');
    const std::string key = word.substr(0, equals);
    const std::string value = equals == std::string::npos ? "1" : word.substr(equals + 1);
    for (unsigned i = 0; i < g_gpus.size(); ++i) {
      if (target == "*" || static_cast<unsigned>(std::atoi(target.c_str())) == i) {
        apply(g_gpus[i], key, value);
      }
    }
  }
}

std::string read_file(const char* path)
{
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The GPUs as the timeline and the state file have them now.
void refresh()
{
  std::vector<unsigned> locked;
  for (const auto& gpu : g_gpus) {
    locked.push_back(gpu.locked);
  }
  g_gpus.assign(g_devices.size(), Gpu{});
  for (unsigned i = 0; i < g_gpus.size(); ++i) {
    g_gpus[i].locked = locked.size() > i ? locked[i] : 0;
    if (g_gpus[i].locked > 0) {
      g_gpus[i].sm = g_gpus[i].locked;
    }
  }
  const auto elapsed_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - g_start)
          .count();
  if (const char* script = std::getenv("EJ_FAKE_NVML_SCRIPT")) {
    std::istringstream lines(read_file(script));
    std::string line;
    while (std::getline(lines, line)) {
      std::istringstream words(line);
      long long at = 0;
      if ((words >> at) && at <= elapsed_ms) {
        apply_line(words);
      }
    }
  }
  if (const char* state = std::getenv("EJ_FAKE_NVML_STATE")) {
    std::istringstream lines(read_file(state));
    std::string line;
    while (std::getline(lines, line)) {
      std::istringstream words(line);
      apply_line(words);
    }
  }
}

Gpu* gpu_of(void* device)
{
  const auto* d = static_cast<Device*>(device);
  return d != nullptr && d->index < g_gpus.size() ? &g_gpus[d->index] : nullptr;
}

void log_line(const std::string& line)
{
  if (const char* path = std::getenv("EJ_FAKE_NVML_LOG")) {
    std::ofstream(path, std::ios::app) << line << "\n";
  }
}

int copy(const std::string& text, char* out, unsigned length)
{
  std::snprintf(out, length, "%s", text.c_str());
  return k_success;
}

} // namespace

extern "C" {

int nvmlInit_v2()
{
  const std::lock_guard lock(g_mutex);
  if (!g_started) {
    g_started = true;
    g_start = std::chrono::steady_clock::now();
    g_devices.clear();
    for (unsigned i = 0; i < gpu_count(); ++i) {
      g_devices.push_back({i});
    }
    refresh();
  }
  return k_success;
}
int nvmlShutdown()
{
  return k_success;
}
const char* nvmlErrorString(int status)
{
  return status == k_no_permission ? "Insufficient Permissions"
         : status == k_gpu_lost    ? "GPU is lost"
                                   : "error";
}
int nvmlSystemGetDriverVersion(char* out, unsigned length)
{
  return copy("570.86.15", out, length);
}
int nvmlSystemGetCudaDriverVersion_v2(int* version)
{
  *version = 12080;
  return k_success;
}
int nvmlDeviceGetCount_v2(unsigned* count)
{
  const std::lock_guard lock(g_mutex);
  *count = static_cast<unsigned>(g_devices.size());
  return k_success;
}
int nvmlDeviceGetHandleByIndex_v2(unsigned index, void** device)
{
  const std::lock_guard lock(g_mutex);
  if (index >= g_devices.size()) {
    return k_invalid;
  }
  *device = &g_devices[index];
  return k_success;
}
int nvmlDeviceGetHandleByUUID(const char* uuid, void** device)
{
  const std::lock_guard lock(g_mutex);
  for (auto& d : g_devices) {
    if ("GPU-fake-" + std::to_string(d.index) == uuid) {
      *device = &d;
      return k_success;
    }
  }
  return k_invalid;
}
int nvmlDeviceGetIndex(void* device, unsigned* index)
{
  *index = static_cast<Device*>(device)->index;
  return k_success;
}
int nvmlDeviceGetName(void*, char* out, unsigned length)
{
  return copy("NVIDIA H200", out, length);
}
int nvmlDeviceGetUUID(void* device, char* out, unsigned length)
{
  return copy("GPU-fake-" + std::to_string(static_cast<Device*>(device)->index), out, length);
}
int nvmlDeviceGetMemoryInfo(void*, unsigned long long* memory)
{
  memory[0] = 143771ULL << 20;
  memory[2] = 1ULL << 30;
  memory[1] = memory[0] - memory[2];
  return k_success;
}
// The SM clock is asked first in every reading: the timeline and the state file are read then.
int nvmlDeviceGetClockInfo(void* device, int type, unsigned* mhz)
{
  const std::lock_guard lock(g_mutex);
  if (type == 1) {
    refresh();
  }
  Gpu* gpu = gpu_of(device);
  if (gpu == nullptr || gpu->lost) {
    return k_gpu_lost;
  }
  *mhz = type == 1 ? gpu->sm : gpu->mem;
  return k_success;
}
int nvmlDeviceGetPowerUsage(void* device, unsigned* mw)
{
  const std::lock_guard lock(g_mutex);
  Gpu* gpu = gpu_of(device);
  if (gpu == nullptr || gpu->lost) {
    return k_gpu_lost;
  }
  *mw = static_cast<unsigned>(gpu->power * 1000);
  return k_success;
}
int nvmlDeviceGetEnforcedPowerLimit(void*, unsigned* mw)
{
  *mw = 700000;
  return k_success;
}
int nvmlDeviceGetTemperature(void* device, int, unsigned* celsius)
{
  const std::lock_guard lock(g_mutex);
  Gpu* gpu = gpu_of(device);
  if (gpu == nullptr || gpu->lost) {
    return k_gpu_lost;
  }
  *celsius = gpu->temp;
  return k_success;
}
int nvmlDeviceGetUtilizationRates(void* device, unsigned* rates)
{
  const std::lock_guard lock(g_mutex);
  Gpu* gpu = gpu_of(device);
  if (gpu == nullptr || gpu->lost) {
    return k_gpu_lost;
  }
  rates[0] = gpu->util;
  rates[1] = gpu->util / 2;
  return k_success;
}
int nvmlDeviceGetCurrentClocksEventReasons(void* device, unsigned long long* reasons)
{
  const std::lock_guard lock(g_mutex);
  Gpu* gpu = gpu_of(device);
  if (gpu == nullptr || gpu->lost) {
    return k_gpu_lost;
  }
  *reasons = gpu->reasons;
  return k_success;
}
int nvmlDeviceGetPersistenceMode(void* device, int* mode)
{
  const std::lock_guard lock(g_mutex);
  Gpu* gpu = gpu_of(device);
  *mode = gpu != nullptr ? gpu->persistence : 0;
  return k_success;
}
int nvmlDeviceGetEccMode(void*, int* current, int* pending)
{
  *current = 1;
  *pending = 1;
  return k_success;
}
int nvmlDeviceGetMigMode(void*, unsigned* current, unsigned* pending)
{
  *current = 0;
  *pending = 0;
  return k_success;
}
int nvmlDeviceSetGpuLockedClocks(void* device, unsigned min_mhz, unsigned max_mhz)
{
  const std::lock_guard lock(g_mutex);
  if (std::getenv("EJ_FAKE_NVML_DENY_LOCK") != nullptr) {
    return k_no_permission;
  }
  Gpu* gpu = gpu_of(device);
  if (gpu == nullptr) {
    return k_gpu_lost;
  }
  gpu->locked = min_mhz >= 0xffffff00U ? 1500U : min_mhz; // the base clock of this GPU: 1500 MHz
  log_line("lock " + std::to_string(static_cast<Device*>(device)->index) + " " + std::to_string(min_mhz) +
           " " + std::to_string(max_mhz));
  return k_success;
}
int nvmlDeviceResetGpuLockedClocks(void* device)
{
  const std::lock_guard lock(g_mutex);
  Gpu* gpu = gpu_of(device);
  if (gpu == nullptr) {
    return k_gpu_lost;
  }
  gpu->locked = 0;
  log_line("reset " + std::to_string(static_cast<Device*>(device)->index));
  return k_success;
}

} // extern "C"
