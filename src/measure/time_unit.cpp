#include "measure/time_unit.h"

#include "util/error.h"

#include <array>
#include <utility>

namespace ej::measure {

namespace {

// Powers of ten rather than factors so that conversions multiply or divide by exact numbers.
std::optional<int> exponent_of(std::string_view unit)
{
  static constexpr std::array<std::pair<std::string_view, int>, 5> k_units{{
      {"ns", -9},
      {"us", -6},
      {"\xC2\xB5s", -6}, // µs
      {"ms", -3},
      {"s", 0},
  }};
  for (const auto& [name, exponent] : k_units) {
    if (name == unit) {
      return exponent;
    }
  }
  return std::nullopt;
}

double power_of_ten(int exponent)
{
  double result = 1.0;
  for (int i = 0; i < exponent; ++i) {
    result *= 10.0;
  }
  return result;
}

} // namespace

std::optional<double> seconds_per_time_unit(std::string_view unit)
{
  const auto exponent = exponent_of(unit);
  if (!exponent) {
    return std::nullopt;
  }
  return 1.0 / power_of_ten(-*exponent);
}

double convert_time(double value, std::string_view from_unit, std::string_view to_unit)
{
  const auto from = exponent_of(from_unit);
  const auto to = exponent_of(to_unit);
  if (!from || !to) {
    throw Error("cannot convert a time from '{}' to '{}': use one of ns, us, ms, s", from_unit, to_unit);
  }
  if (*from >= *to) {
    return value * power_of_ten(*from - *to);
  }
  return value / power_of_ten(*to - *from);
}

} // namespace ej::measure
