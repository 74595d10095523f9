#include "measure/throttle.h"

#include <catch2/catch.hpp>

using namespace ej;

namespace {

measure::MeasuredRepeat repeat(int index, double sm, std::vector<std::string> reasons = {},
                               std::string params = "{}")
{
  core::GpuRepeatState gpu;
  gpu.index = 0;
  gpu.samples = 10;
  gpu.sm_clock_mhz = core::Range{sm, sm, sm};
  gpu.reasons = std::move(reasons);
  return {index, std::move(params), {gpu}};
}

} // namespace

TEST_CASE("a repeat with a thermal, power or hardware slowdown reason is throttled, an idle one is not")
{
  const auto report =
      measure::find_throttled({repeat(0, 1980, {"gpu_idle"}), repeat(1, 1980, {"hw_thermal_slowdown"}),
                               repeat(2, 1980, {"sw_power_cap", "sync_boost"}), repeat(3, 1980)});
  CHECK(report.repeats_with_state == 4);
  CHECK(report.indexes() == std::set<int>{1, 2});
  CHECK(report.throttled[0].why == std::vector<std::string>{"GPU 0 hw_thermal_slowdown"});
  CHECK(report.summary() == "2 of 4 repeats throttled (GPU 0 hw_thermal_slowdown; GPU 0 sw_power_cap)");
}

TEST_CASE("a repeat whose SM clock fell more than the threshold below its combination's median is throttled")
{
  const std::vector<measure::MeasuredRepeat> repeats = {
      repeat(0, 1980), repeat(1, 1970), repeat(2, 1700), repeat(3, 1985), repeat(4, 1850),
      // another combination runs at another clock: compared with its own
      repeat(5, 1400, {}, R"({"size":"big"})"), repeat(6, 1410, {}, R"({"size":"big"})")};
  const auto report = measure::find_throttled(repeats, 10);
  CHECK(report.indexes() == std::set<int>{2});
  CHECK(report.throttled[0].why == std::vector<std::string>{"GPU 0 SM clock 1700 MHz, 14% below 1970"});
  CHECK(report.summary() == "1 of 7 repeats throttled (GPU 0 SM clock drop)");
  CHECK(measure::find_throttled(repeats, 5).indexes() == std::set<int>{2, 4});
}

TEST_CASE("a lost GPU throttles its repeat, and repeats without device state are not counted")
{
  auto lost = repeat(1, 1980);
  lost.device[0].lost = true;
  lost.device[0].sm_clock_mhz.reset();
  measure::MeasuredRepeat unread{2, "{}", {}};
  const auto report = measure::find_throttled({repeat(0, 1980), lost, unread});
  CHECK(report.repeats_with_state == 2);
  CHECK(report.indexes() == std::set<int>{1});
  CHECK(report.throttled[0].why == std::vector<std::string>{"GPU 0 lost"});
  CHECK(measure::find_throttled({}).summary().empty());
}
