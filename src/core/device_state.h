#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ej::core {

struct Range {
  double min = 0;
  double median = 0;
  double max = 0;

  bool operator==(const Range&) const = default;
};

// What one GPU went through during one repeat, summarised from the readings ej took of it at a
// fixed interval (every reading is not kept: a long run would store thousands).
struct GpuRepeatState {
  int index = 0; // as the driver numbers the GPUs
  std::string uuid;
  int samples = 0; // readings taken during the repeat
  std::optional<Range> sm_clock_mhz;
  std::optional<Range> memory_clock_mhz;
  std::optional<Range> power_w;
  std::optional<double> temperature_max_c;
  std::optional<double> utilization_max_pct;
  std::vector<std::string> reasons; // the clock-event (throttle) reasons seen, sorted
  bool lost = false;                // the GPU stopped answering during the repeat

  bool operator==(const GpuRepeatState&) const = default;
};

using DeviceState = std::vector<GpuRepeatState>; // one per GPU the run uses; empty: no GPU read

} // namespace ej::core
