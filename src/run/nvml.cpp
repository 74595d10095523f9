#include "run/nvml.h"

#include "run/nvml_library.h"
#include "run/process.h"
#include "util/error.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <array>
#include <cstdlib>

namespace ej::run {

using nlohmann::json;

namespace {

using nvml::Device;
using nvml::k_success;
using Nvml = nvml::Library;

json enabled(int state)
{
  return state != 0 ? "enabled" : "disabled";
}

// Calls an NVML getter when the symbol exists and succeeds; null otherwise ("unknown").
template <typename Fn, typename Convert, typename... Args>
json ask(const Nvml& nvml, const char* name, Convert convert, Args... args)
{
  const auto fn = nvml.get<Fn>(name);
  if (fn == nullptr) {
    return nullptr;
  }
  return convert(fn, args...);
}

// A mode NVML reports as a pair (current, pending), as ECC's and MIG's: the current one.
template <typename Fn, typename Mode> json current_mode(const Nvml& nvml, const char* name, Device device)
{
  return ask<Fn>(
      nvml, name,
      [](Fn fn, Device dev) {
        Mode current = 0;
        Mode pending = 0;
        return fn(dev, &current, &pending) == k_success ? enabled(static_cast<int>(current)) : json(nullptr);
      },
      device);
}

json device_string(const Nvml& nvml, const char* name, Device device)
{
  return ask<nvml::DeviceStringFn>(
      nvml, name,
      [&](nvml::DeviceStringFn fn, Device d) -> json {
        std::array<char, 256> buffer{};
        if (fn(d, buffer.data(), buffer.size()) != k_success) {
          return nullptr;
        }
        return std::string(buffer.data());
      },
      device);
}

json device_uint(const Nvml& nvml, const char* name, Device device, double scale)
{
  return ask<nvml::UintFn>(
      nvml, name,
      [&](nvml::UintFn fn, Device d) -> json {
        unsigned value = 0;
        if (fn(d, &value) != k_success) {
          return nullptr;
        }
        return static_cast<double>(value) * scale;
      },
      device);
}

json clock(const Nvml& nvml, Device device, int type)
{
  return ask<nvml::ClockFn>(
      nvml, "nvmlDeviceGetClockInfo",
      [&](nvml::ClockFn fn, Device d) -> json {
        unsigned mhz = 0;
        return fn(d, type, &mhz) == k_success ? json(mhz) : json(nullptr);
      },
      device);
}

json throttle_reasons(const Nvml& nvml, Device device)
{
  unsigned long long mask = 0;
  return nvml.throttle_reasons(device, mask) ? throttle_reason_names(mask) : json(nullptr);
}

std::string cuda_version_text(int version)
{
  return fmt::format("{}.{}", version / 1000, (version % 1000) / 10);
}

// "[N/A]", "[Not Supported]" and empty fields mean unknown.
json smi_value(std::string_view field, bool numeric)
{
  field = util::trim(field);
  if (field.empty() || field.front() == '[' || field == "N/A") {
    return nullptr;
  }
  if (numeric) {
    char* end = nullptr;
    const std::string text(field);
    const double value = std::strtod(text.c_str(), &end);
    return end != text.c_str() ? json(value) : json(nullptr);
  }
  return std::string(field);
}

json smi_mode(std::string_view field)
{
  const json value = smi_value(field, false);
  if (value.is_null()) {
    return nullptr;
  }
  return util::to_lower(value.get<std::string>());
}

} // namespace

const char* const k_smi_fields =
    "index,name,uuid,driver_version,memory.total,memory.used,clocks.sm,clocks.mem,"
    "power.draw,power.limit,temperature.gpu,persistence_mode,ecc.mode.current,"
    "mig.mode.current,clocks_throttle_reasons.active";

json throttle_reason_names(unsigned long long mask)
{
  static constexpr std::array<const char*, 9> k_names = {"gpu_idle",
                                                         "applications_clocks_setting",
                                                         "sw_power_cap",
                                                         "hw_slowdown",
                                                         "sync_boost",
                                                         "sw_thermal_slowdown",
                                                         "hw_thermal_slowdown",
                                                         "hw_power_brake_slowdown",
                                                         "display_clock_setting"};
  json names = json::array();
  for (std::size_t bit = 0; bit < 64; ++bit) {
    if ((mask & (1ULL << bit)) != 0) {
      names.push_back(bit < k_names.size() ? std::string(k_names[bit]) : fmt::format("bit_{}", bit));
    }
  }
  return names;
}

GpuReport query_gpus_nvml(const std::string& library)
{
  const Nvml nvml(library);
  GpuReport report;
  json& fp = report.fingerprint;
  fp["source"] = "nvml";
  fp["driver_version"] = nullptr;
  if (const auto fn = nvml.get<nvml::SystemStringFn>("nvmlSystemGetDriverVersion")) {
    std::array<char, 96> buffer{};
    if (fn(buffer.data(), buffer.size()) == k_success) {
      fp["driver_version"] = std::string(buffer.data());
    }
  }
  fp["cuda_driver_version"] = nullptr;
  if (const auto fn = nvml.get<nvml::IntFn>("nvmlSystemGetCudaDriverVersion_v2")) {
    int version = 0;
    if (fn(&version) == k_success) {
      fp["cuda_driver_version"] = cuda_version_text(version);
    }
  }
  fp["devices"] = json::array();
  report.readings = json::array();

  const auto count_fn = nvml.get<nvml::CountFn>("nvmlDeviceGetCount_v2");
  const auto handle_fn = nvml.get<nvml::HandleFn>("nvmlDeviceGetHandleByIndex_v2");
  unsigned count = 0;
  if (count_fn == nullptr || handle_fn == nullptr) {
    throw Error("{} lacks the device functions: the NVIDIA driver is too old", library);
  }
  if (const nvml::Return status = count_fn(&count); status != k_success) {
    throw Error("cannot count GPUs: {}", nvml.error_text(status));
  }
  for (unsigned index = 0; index < count; ++index) {
    Device device = nullptr;
    if (handle_fn(index, &device) != k_success) {
      continue;
    }
    json d;
    d["index"] = index;
    d["name"] = device_string(nvml, "nvmlDeviceGetName", device);
    d["uuid"] = device_string(nvml, "nvmlDeviceGetUUID", device);
    json memory_total = nullptr;
    json memory_used = nullptr;
    if (const auto fn = nvml.get<nvml::MemoryFn>("nvmlDeviceGetMemoryInfo")) {
      nvml::Memory memory{};
      if (fn(device, &memory) == k_success) {
        memory_total = memory.total / (1024 * 1024);
        memory_used = memory.used / (1024 * 1024);
      }
    }
    d["memory_total_mib"] = memory_total;
    d["power_limit_w"] = device_uint(nvml, "nvmlDeviceGetEnforcedPowerLimit", device, 0.001);
    d["persistence_mode"] = ask<nvml::EnableFn>(
        nvml, "nvmlDeviceGetPersistenceMode",
        [](nvml::EnableFn fn, Device dev) {
          int state = 0;
          return fn(dev, &state) == k_success ? enabled(state) : json(nullptr);
        },
        device);
    d["ecc_mode"] = current_mode<nvml::PairFn, int>(nvml, "nvmlDeviceGetEccMode", device);
    d["mig_mode"] = current_mode<nvml::MigFn, unsigned>(nvml, "nvmlDeviceGetMigMode", device);
    fp["devices"].push_back(d);

    json r;
    r["index"] = index;
    r["uuid"] = d["uuid"];
    r["sm_clock_mhz"] = clock(nvml, device, nvml::k_clock_sm);
    r["memory_clock_mhz"] = clock(nvml, device, nvml::k_clock_mem);
    r["power_draw_w"] = device_uint(nvml, "nvmlDeviceGetPowerUsage", device, 0.001);
    r["temperature_c"] = ask<nvml::TemperatureFn>(
        nvml, "nvmlDeviceGetTemperature",
        [](nvml::TemperatureFn fn, Device dev) {
          unsigned celsius = 0;
          return fn(dev, nvml::k_temperature_gpu, &celsius) == k_success ? json(celsius) : json(nullptr);
        },
        device);
    r["memory_used_mib"] = memory_used;
    r["throttle_reasons"] = throttle_reasons(nvml, device);
    report.readings.push_back(r);
  }
  return report;
}

GpuReport parse_nvidia_smi_csv(const std::string& csv)
{
  GpuReport report;
  json& fp = report.fingerprint;
  fp["source"] = "nvidia-smi";
  fp["driver_version"] = nullptr;
  fp["cuda_driver_version"] = nullptr;
  fp["devices"] = json::array();
  report.readings = json::array();
  for (const std::string& line : util::lines(csv)) {
    if (util::trim(line).empty()) {
      continue;
    }
    const std::vector<std::string> f = util::split(line, ',');
    if (f.size() < 15) {
      throw Error("unexpected nvidia-smi output line '{}': expected 15 fields", line);
    }
    const json index = smi_value(f[0], true);
    const json integer_index = index.is_null() ? json(nullptr) : json(static_cast<int>(index.get<double>()));
    if (fp["driver_version"].is_null()) {
      fp["driver_version"] = smi_value(f[3], false);
    }
    json d;
    d["index"] = integer_index;
    d["name"] = smi_value(f[1], false);
    d["uuid"] = smi_value(f[2], false);
    d["memory_total_mib"] = smi_value(f[4], true);
    d["power_limit_w"] = smi_value(f[9], true);
    d["persistence_mode"] = smi_mode(f[11]);
    d["ecc_mode"] = smi_mode(f[12]);
    d["mig_mode"] = smi_mode(f[13]);
    fp["devices"].push_back(d);

    json r;
    r["index"] = integer_index;
    r["uuid"] = d["uuid"];
    r["memory_used_mib"] = smi_value(f[5], true);
    r["sm_clock_mhz"] = smi_value(f[6], true);
    r["memory_clock_mhz"] = smi_value(f[7], true);
    r["power_draw_w"] = smi_value(f[8], true);
    r["temperature_c"] = smi_value(f[10], true);
    const json reasons = smi_value(f[14], false);
    r["throttle_reasons"] =
        reasons.is_null()
            ? json(nullptr)
            : throttle_reason_names(std::strtoull(reasons.get<std::string>().c_str(), nullptr, 16));
    report.readings.push_back(r);
  }
  return report;
}

GpuReport query_gpus_nvidia_smi(const std::string& program)
{
  ProcessSpec spec;
  spec.argv = {program, fmt::format("--query-gpu={}", k_smi_fields), "--format=csv,noheader,nounits"};
  spec.timeout_s = 20;
  const ProcessResult result = run_process(spec);
  if (result.ending == Ending::SpawnFailed) {
    throw Error("{} not found or not executable", program);
  }
  if (!result.succeeded()) {
    throw Error("{} {}: {}", program, describe(result), util::first_line(result.err.text(), 200));
  }
  GpuReport report = parse_nvidia_smi_csv(result.out.text());
  // The CUDA driver version is only in the banner of plain nvidia-smi ("CUDA Version: 12.8").
  spec.argv = {program};
  const ProcessResult banner = run_process(spec);
  add_cuda_version_from_banner(report, banner.out.text());
  return report;
}

void add_cuda_version_from_banner(GpuReport& report, std::string_view banner)
{
  const std::string_view key = "CUDA Version:";
  if (const auto at = banner.find(key); at != std::string_view::npos) {
    const std::string_view rest = util::trim(banner.substr(at + key.size(), 16));
    report.fingerprint["cuda_driver_version"] = std::string(rest.substr(0, rest.find_first_of(" |")));
  }
}

GpuReport no_gpu_report(std::string note)
{
  GpuReport report;
  report.fingerprint = {{"source", "none"},
                        {"driver_version", nullptr},
                        {"cuda_driver_version", nullptr},
                        {"devices", json::array()},
                        {"note", std::move(note)}};
  report.readings = json::array();
  return report;
}

GpuReport query_gpus()
{
  std::string nvml_error;
  try {
    return query_gpus_nvml(nvml::library_path());
  } catch (const Error& error) {
    nvml_error = error.what();
  }
  std::string smi_error;
  try {
    return query_gpus_nvidia_smi();
  } catch (const Error& error) {
    smi_error = error.what();
  }
  return no_gpu_report(fmt::format("no GPU found (NVML: {}; {})", nvml_error, smi_error));
}

} // namespace ej::run
