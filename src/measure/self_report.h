#pragma once

#include "measure/value_list.h"

#include <optional>
#include <string>

// Figures a benchmark reports about itself, held against what ej measured of the same repeat.
namespace ej::measure {

// A time the benchmark printed (a value whose unit is a time) that is longer than the wall time of
// the repeat that printed it, which ej measures from spawn to reaping, cannot be true: the first
// such value in words ("time_ms = 900 ms, longer than the 0.12 s the repeat took"); nullopt when
// every value fits. Skipped cases say nothing; an aggregate (a mean of its own iterations) fits
// within the repeat like any value.
std::optional<std::string> impossible_time(const std::string& metric, const ValueList& values, double wall_s);

} // namespace ej::measure
