#pragma once

#include "core/device_state.h"
#include "run/gpu_lock.h"

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

// What the GPUs go through while each repeat runs: a thread of ej reads them at a fixed interval
// (NVML, else a long-lived `nvidia-smi --query-gpu ... -lms`), and each repeat gets a summary per
// GPU. The thread blocks every signal, so Ctrl-C still reaches the run loop as before, and the
// run loop's cost is two mutex hand-overs a repeat.
namespace ej::run {

constexpr int k_default_sample_ms = 50;

// One reading of one GPU; unknown values are nullopt.
struct GpuReading {
  int index = 0;
  std::string uuid;
  std::optional<double> sm_clock_mhz;
  std::optional<double> memory_clock_mhz;
  std::optional<double> power_w;
  std::optional<double> temperature_c;
  std::optional<double> utilization_pct;
  std::optional<unsigned long long> reasons; // the clock-event reason mask
  bool lost = false;                         // the GPU did not answer
};

// Per GPU (by index, ascending): ranges, peak temperature, the reasons seen (names, sorted), how
// many readings.
core::DeviceState summarize_readings(const std::vector<GpuReading>& readings);

// Parses one line of `nvidia-smi --query-gpu=<k_sampler_smi_fields> --format=csv,noheader,nounits`;
// nullopt for a line that is not one.
std::optional<GpuReading> parse_sampler_smi_line(const std::string& line);
extern const char* const k_sampler_smi_fields;

class GpuSampler {
public:
  // A sampler of the GPUs of `gpus` reading every interval_ms, through NVML (the library
  // nvml::library_path() names), else nvidia-smi; nullptr when neither can read a GPU, or when
  // interval_ms is 0 (sampling off). `note` says which source, or why none.
  static std::unique_ptr<GpuSampler> start(const GpuSet& gpus, int interval_ms, std::string& note);

  virtual ~GpuSampler();
  GpuSampler(const GpuSampler&) = delete;
  GpuSampler& operator=(const GpuSampler&) = delete;

  // Just before a repeat starts: the readings from now on are its.
  void start_repeat();
  // Just after it ended: its summary. A repeat too short for a reading gets one taken now.
  core::DeviceState end_repeat();

  const std::string& source() const { return m_source; }

protected:
  explicit GpuSampler(std::string source, int interval_ms);

  // Called by the reading thread; kept only while a repeat runs.
  void deliver(std::vector<GpuReading> readings);
  // One reading of every GPU now (NVML); empty when a source cannot be asked on demand.
  virtual std::vector<GpuReading> read_now() = 0;
  // Starts the thread running `body` with every signal blocked.
  void start_thread(std::function<void()> body);
  // Asks the thread to end and joins it; subclasses call it first in their destructor.
  void stop_thread();

  // The polling loop of on-demand sources: a reading when a repeat starts, then one every interval.
  void poll_loop();

  std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_stopping = false;
  bool m_active = false;
  unsigned m_generation = 0; // counts repeats: a reading taken for an earlier one is dropped
  int m_interval_ms;

private:
  std::string m_source;
  std::vector<GpuReading> m_readings;
  std::thread m_thread;
};

// The sources, for tests and for start(). They throw ej::Error when they cannot read a GPU.
std::unique_ptr<GpuSampler> start_nvml_sampler(const std::string& library, const GpuSet& gpus,
                                               int interval_ms);
std::unique_ptr<GpuSampler> start_smi_sampler(const std::string& program, const GpuSet& gpus,
                                              int interval_ms);

} // namespace ej::run
