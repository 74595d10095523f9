#include "measure/throttle.h"
#include "measure/statistics.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace ej::measure {

bool is_slowdown_reason(const std::string& reason)
{
  return reason == "sw_power_cap" || reason == "hw_slowdown" || reason == "sw_thermal_slowdown" ||
         reason == "hw_thermal_slowdown" || reason == "hw_power_brake_slowdown";
}

std::set<int> ThrottleReport::indexes() const
{
  std::set<int> out;
  for (const auto& repeat : throttled) {
    out.insert(repeat.index);
  }
  return out;
}

std::string ThrottleReport::summary() const
{
  if (throttled.empty()) {
    return {};
  }
  // The distinct causes, in the order first seen: what to look at, not every repeat's.
  std::vector<std::string> causes;
  for (const auto& repeat : throttled) {
    for (const auto& why : repeat.why) {
      const auto cause = why.find(" SM clock ") != std::string::npos
                             ? why.substr(0, why.find(" SM clock ")) + " SM clock drop"
                             : why;
      if (std::find(causes.begin(), causes.end(), cause) == causes.end()) {
        causes.push_back(cause);
      }
    }
  }
  return fmt::format("{} of {} repeats throttled ({})", throttled.size(), repeats_with_state,
                     fmt::join(causes, "; "));
}

ThrottleReport find_throttled(const std::vector<MeasuredRepeat>& repeats, double clock_drop_pct)
{
  // The clock each GPU mostly ran at, per combination: the median of the repeats' medians.
  std::map<std::pair<std::string, int>, std::vector<double>> clocks;
  for (const auto& repeat : repeats) {
    for (const auto& gpu : repeat.device) {
      if (gpu.sm_clock_mhz) {
        clocks[{repeat.params, gpu.index}].push_back(gpu.sm_clock_mhz->median);
      }
    }
  }
  std::map<std::pair<std::string, int>, double> typical;
  for (auto& [key, values] : clocks) {
    typical[key] = median(values);
  }

  ThrottleReport report;
  for (const auto& repeat : repeats) {
    if (repeat.device.empty()) {
      continue;
    }
    ++report.repeats_with_state;
    ThrottledRepeat flagged{repeat.index, {}};
    for (const auto& gpu : repeat.device) {
      if (gpu.lost) {
        flagged.why.push_back(fmt::format("GPU {} lost", gpu.index));
      }
      for (const auto& reason : gpu.reasons) {
        if (is_slowdown_reason(reason)) {
          flagged.why.push_back(fmt::format("GPU {} {}", gpu.index, reason));
        }
      }
      if (gpu.sm_clock_mhz) {
        const double run_median = typical[{repeat.params, gpu.index}];
        const double clock = gpu.sm_clock_mhz->median;
        if (run_median > 0 && clock < run_median * (1 - clock_drop_pct / 100)) {
          flagged.why.push_back(fmt::format("GPU {} SM clock {:.0f} MHz, {:.0f}% below {:.0f}", gpu.index,
                                            clock, (1 - clock / run_median) * 100, run_median));
        }
      }
    }
    if (!flagged.why.empty()) {
      report.throttled.push_back(std::move(flagged));
    }
  }
  return report;
}

} // namespace ej::measure
