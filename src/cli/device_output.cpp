#include "cli/device_output.h"

#include "cli/output.h"
#include "evidence/run_json.h"
#include "run/environment.h"
#include "store/events.h"
#include "store/run_queries.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <map>

namespace ej::cli {

namespace {

std::string range_text(const std::optional<core::Range>& range, const char* unit)
{
  if (!range) {
    return "-";
  }
  if (range->min == range->max) {
    return fmt::format("{:.0f}{}", range->median, unit);
  }
  return fmt::format("{:.0f}/{:.0f}/{:.0f}{}", range->min, range->median, range->max, unit);
}

// "GPU 0  SM 1410/1980/1980 MHz  mem 3201 MHz  power 350/412/420 W  61 C  util 100%  12 samples"
std::string gpu_text(const core::GpuRepeatState& gpu)
{
  std::string text = fmt::format("GPU {}  ", gpu.index);
  if (gpu.lost) {
    text += "LOST  ";
  }
  text += fmt::format("SM {}  mem {}  power {}", range_text(gpu.sm_clock_mhz, " MHz"),
                      range_text(gpu.memory_clock_mhz, " MHz"), range_text(gpu.power_w, " W"));
  if (gpu.temperature_max_c) {
    text += fmt::format("  {:.0f} C", *gpu.temperature_max_c);
  }
  if (gpu.utilization_max_pct) {
    text += fmt::format("  util {:.0f}%", *gpu.utilization_max_pct);
  }
  if (!gpu.reasons.empty()) {
    text += "  " + util::join(gpu.reasons, ",");
  }
  return text + fmt::format("  {} sample{}", gpu.samples, gpu.samples == 1 ? "" : "s");
}

} // namespace

void print_device_state(evidence::Reader& reader, const core::RunRecord& run)
{
  for (const auto& warning : evidence::gpu_warnings_of(reader, run)) {
    fmt::print("  {} {}\n", paint("warning:", Colour::Yellow), warning);
  }
  const auto repeats = store::run_repeats(reader.journal().db(), run.number);
  const auto& report = reader.throttled(run);
  const auto throttled = evidence::throttled_by_index(report);
  bool heading = false;
  for (const auto& repeat : repeats) {
    if (repeat.device.empty()) {
      continue;
    }
    if (!heading) {
      fmt::print(
          "  device state per repeat (SM and memory clock, power: min/median/max; peak temperature):\n");
      heading = true;
    }
    const auto found = throttled.find(repeat.index);
    const auto label = fmt::format("#{}{}", repeat.index + 1, repeat.warmup ? " warmup" : "");
    for (std::size_t g = 0; g < repeat.device.size(); ++g) {
      fmt::print("    {:<10} {}{}\n", g == 0 ? label : "", gpu_text(repeat.device[g]),
                 g == 0 && found != throttled.end() ? "  " + paint("THROTTLED", Colour::Yellow) : "");
    }
  }
  if (report.repeats_with_state > 0) {
    fmt::print("  throttled: {}\n", report.throttled.empty()
                                        ? fmt::format("none of {} repeats", report.repeats_with_state)
                                        : report.summary());
  }
}

} // namespace ej::cli
