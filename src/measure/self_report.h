#pragma once

#include "measure/value_list.h"

#include <optional>
#include <string>

// Figures a benchmark reports about itself, held against what ej measured of the same repeat.
namespace ej::measure {

// How far past the wall time a printed time may be before it is impossible. Both clocks count
// forward from moments inside the repeat, so only the printing can push a true time past it: 1 ms
// covers a time printed in whole milliseconds (or read from a millisecond clock), 5% one printed to
// two significant digits ("1.2 s" for 1.15 s). A made-up time is off by far more.
inline constexpr double k_time_slack_s = 0.001;
inline constexpr double k_time_slack_share = 0.05;

// A time the benchmark printed (a value whose unit is a time; without one, whose metric's name
// spells a time, as time_ms does) that is longer than the wall time of the repeat that printed it,
// which ej measures from spawn to reaping, beyond the slack above, cannot be true: the first such
// value in words ("time_ms = 900 ms, longer than the 0.12 s the repeat took"); nullopt when every
// value fits. Skipped cases say nothing; an aggregate (a mean of its own iterations) fits within
// the repeat like any value.
std::optional<std::string> impossible_time(const std::string& metric, const ValueList& values, double wall_s);

} // namespace ej::measure
