#pragma once

#include "core/device_state.h"

#include <set>
#include <string>
#include <vector>

// Which repeats ran on a throttled GPU: one with a thermal, power or hardware slowdown reason
// active, one whose GPU was lost, or one whose median SM clock fell more than a threshold below
// the median of its combination's repeats (the clock the run mostly ran at).
namespace ej::measure {

constexpr double k_default_clock_drop_pct = 10;

// The clock-event reasons that mean the GPU was slowed down (idle, application clocks and sync
// boost do not).
bool is_slowdown_reason(const std::string& reason);

struct MeasuredRepeat {
  int index = 0;
  std::string params; // the combination: clocks are compared within one
  core::DeviceState device;
};

struct ThrottledRepeat {
  int index = 0;
  std::vector<std::string> why; // "GPU 0 hw_thermal_slowdown", "GPU 1 SM clock 1200 MHz, 25% below 1600"
};

struct ThrottleReport {
  int repeats_with_state = 0; // measured repeats whose GPUs were read
  std::vector<ThrottledRepeat> throttled;

  std::set<int> indexes() const;
  // "2 of 10 repeats throttled (GPU 0 hw_thermal_slowdown; ...)"; empty when none was.
  std::string summary() const;
};

ThrottleReport find_throttled(const std::vector<MeasuredRepeat>& repeats,
                              double clock_drop_pct = k_default_clock_drop_pct);

} // namespace ej::measure
