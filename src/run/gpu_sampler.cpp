#include "run/gpu_sampler.h"

#include "run/nvml.h"
#include "run/nvml_library.h"
#include "util/error.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <map>
#include <pthread.h>
#include <set>

namespace ej::run {

namespace {

std::optional<core::Range> range_of(std::vector<double> values)
{
  if (values.empty()) {
    return std::nullopt;
  }
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  const double median = n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  return core::Range{values.front(), median, values.back()};
}

std::optional<double> max_of(const std::vector<double>& values)
{
  if (values.empty()) {
    return std::nullopt;
  }
  return *std::max_element(values.begin(), values.end());
}

// "[N/A]", "[Not Supported]" and empty fields are unknown.
std::optional<double> smi_number(std::string_view field)
{
  field = util::trim(field);
  if (field.empty() || field.front() == '[' || field == "N/A") {
    return std::nullopt;
  }
  const std::string text(field);
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  return end != text.c_str() ? std::optional<double>(value) : std::nullopt;
}

} // namespace

core::DeviceState summarize_readings(const std::vector<GpuReading>& readings)
{
  struct Columns {
    std::string uuid;
    int samples = 0;
    std::vector<double> sm, memory, power, temperature, utilization;
    std::set<std::string> reasons;
    bool lost = false;
  };
  std::map<int, Columns> by_gpu;
  for (const auto& reading : readings) {
    auto& c = by_gpu[reading.index];
    if (c.uuid.empty()) {
      c.uuid = reading.uuid;
    }
    if (reading.lost) {
      c.lost = true;
      continue; // a lost GPU's reading holds nothing
    }
    ++c.samples;
    const auto add = [](std::vector<double>& to, const std::optional<double>& value) {
      if (value) {
        to.push_back(*value);
      }
    };
    add(c.sm, reading.sm_clock_mhz);
    add(c.memory, reading.memory_clock_mhz);
    add(c.power, reading.power_w);
    add(c.temperature, reading.temperature_c);
    add(c.utilization, reading.utilization_pct);
    if (reading.reasons) {
      for (const auto& name : throttle_reason_names(*reading.reasons)) {
        c.reasons.insert(name.get<std::string>());
      }
    }
  }
  core::DeviceState out;
  for (auto& [index, c] : by_gpu) {
    core::GpuRepeatState gpu;
    gpu.index = index;
    gpu.uuid = c.uuid;
    gpu.samples = c.samples;
    gpu.sm_clock_mhz = range_of(std::move(c.sm));
    gpu.memory_clock_mhz = range_of(std::move(c.memory));
    gpu.power_w = range_of(std::move(c.power));
    gpu.temperature_max_c = max_of(c.temperature);
    gpu.utilization_max_pct = max_of(c.utilization);
    gpu.reasons.assign(c.reasons.begin(), c.reasons.end());
    gpu.lost = c.lost;
    out.push_back(std::move(gpu));
  }
  return out;
}

const char* const k_sampler_smi_fields = "index,uuid,clocks.sm,clocks.mem,power.draw,temperature.gpu,"
                                         "utilization.gpu,clocks_throttle_reasons.active";

std::optional<GpuReading> parse_sampler_smi_line(const std::string& line)
{
  const auto fields = util::split(line, ',');
  if (fields.size() < 8) {
    return std::nullopt;
  }
  const auto index = smi_number(fields[0]);
  if (!index) {
    return std::nullopt;
  }
  GpuReading reading;
  reading.index = static_cast<int>(*index);
  reading.uuid = std::string(util::trim(fields[1]));
  reading.sm_clock_mhz = smi_number(fields[2]);
  reading.memory_clock_mhz = smi_number(fields[3]);
  reading.power_w = smi_number(fields[4]);
  reading.temperature_c = smi_number(fields[5]);
  reading.utilization_pct = smi_number(fields[6]);
  const auto mask = util::trim(fields[7]);
  if (mask.starts_with("0x")) {
    reading.reasons = std::strtoull(std::string(mask).c_str(), nullptr, 16);
  }
  // "GPU is lost" / "Unknown Error" in every field: the GPU fell off the bus.
  reading.lost = !reading.sm_clock_mhz && !reading.memory_clock_mhz && !reading.temperature_c &&
                 util::to_lower(line).find("lost") != std::string::npos;
  return reading;
}

GpuSampler::GpuSampler(std::string source, int interval_ms)
    : m_interval_ms(interval_ms), m_source(std::move(source))
{
}

GpuSampler::~GpuSampler()
{
  stop_thread(); // normally done by the subclass already
}

void GpuSampler::start_thread(std::function<void()> body)
{
  sigset_t all;
  sigset_t previous;
  ::sigfillset(&all);
  ::pthread_sigmask(SIG_BLOCK, &all, &previous); // inherited by the thread
  m_thread = std::thread(std::move(body));
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

void GpuSampler::stop_thread()
{
  {
    const std::lock_guard lock(m_mutex);
    m_stopping = true;
  }
  m_wake.notify_all();
  if (m_thread.joinable()) {
    m_thread.join();
  }
}

void GpuSampler::start_repeat()
{
  {
    const std::lock_guard lock(m_mutex);
    m_readings.clear();
    m_active = true;
    ++m_generation;
  }
  m_wake.notify_all();
}

core::DeviceState GpuSampler::end_repeat()
{
  std::vector<GpuReading> readings;
  {
    const std::lock_guard lock(m_mutex);
    m_active = false;
    readings.swap(m_readings);
  }
  if (readings.empty()) {
    readings = read_now();
  }
  return summarize_readings(readings);
}

void GpuSampler::deliver(std::vector<GpuReading> readings)
{
  const std::lock_guard lock(m_mutex);
  if (m_active) {
    m_readings.insert(m_readings.end(), std::make_move_iterator(readings.begin()),
                      std::make_move_iterator(readings.end()));
  }
}

void GpuSampler::poll_loop()
{
  std::unique_lock lock(m_mutex);
  while (!m_stopping) {
    m_wake.wait(lock, [&] { return m_stopping || m_active; });
    const unsigned generation = m_generation;
    while (!m_stopping && m_active && m_generation == generation) {
      lock.unlock();
      auto readings = read_now(); // outside the lock: the run loop never waits for the driver
      lock.lock();
      if (m_active && m_generation == generation) {
        m_readings.insert(m_readings.end(), std::make_move_iterator(readings.begin()),
                          std::make_move_iterator(readings.end()));
      }
      m_wake.wait_for(lock, std::chrono::milliseconds(m_interval_ms),
                      [&] { return m_stopping || !m_active || m_generation != generation; });
    }
  }
}

std::unique_ptr<GpuSampler> GpuSampler::start(const GpuSet& gpus, int interval_ms, std::string& note)
{
  if (interval_ms <= 0) {
    note = "GPU sampling is off";
    return nullptr;
  }
  if (!gpus.all && gpus.devices.empty()) {
    note = "the run uses no GPU";
    return nullptr;
  }
  std::string nvml_error;
  try {
    auto sampler = start_nvml_sampler(nvml::library_path(), gpus, interval_ms);
    note = "NVML";
    return sampler;
  } catch (const Error& error) {
    nvml_error = error.what();
  }
  try {
    auto sampler = start_smi_sampler("nvidia-smi", gpus, interval_ms);
    note = "nvidia-smi";
    return sampler;
  } catch (const Error& error) {
    note = fmt::format("no GPU (NVML: {}; {})", nvml_error, error.what());
  }
  return nullptr;
}

} // namespace ej::run
