#pragma once

#include <optional>
#include <string_view>

namespace ej::measure {

// Seconds in one ns, us (or µs), ms or s; nullopt for anything else.
std::optional<double> seconds_per_time_unit(std::string_view unit);

// value expressed in from_unit, converted to to_unit; both must be time units.
double convert_time(double value, std::string_view from_unit, std::string_view to_unit);

} // namespace ej::measure
