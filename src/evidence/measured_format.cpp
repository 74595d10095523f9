#include "evidence/measured_format.h"

#include "measure/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace ej::evidence {

namespace {

constexpr int k_significant = 4;
constexpr int k_max_decimals = 9;

// The decimals that give `significant` digits to `value` (none when it has as many before the point).
int decimals_for(double value, int significant)
{
  const double magnitude = std::fabs(value);
  if (!std::isfinite(magnitude) || magnitude == 0) {
    return 0;
  }
  const int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
  return std::clamp(significant - 1 - exponent, 0, k_max_decimals);
}

} // namespace

MeasuredFormat::MeasuredFormat(double typical, std::string_view unit) : m_unit(unit)
{
  const auto parsed = measure::parse_unit(unit);
  if (parsed && parsed->dimension == measure::Dimension::Time && std::isfinite(typical) && typical != 0) {
    // The largest of these in which the value is at least 1: 0.5 ms is "500.0 us", 90 s stays "90.00 s".
    static constexpr std::array<const char*, 4> k_units = {"s", "ms", "us", "ns"};
    for (const char* candidate : k_units) {
      const auto to = *measure::parse_unit(candidate);
      const double factor = measure::convert(1.0, *parsed, to);
      if (std::fabs(typical * factor) >= 1 || std::string_view(candidate) == "ns") {
        m_unit = candidate;
        m_factor = factor;
        break;
      }
    }
  }
  m_decimals = decimals_for(typical * m_factor, k_significant);
}

std::string MeasuredFormat::number(double value) const
{
  auto text = fmt::format("{:.{}f}", value * m_factor, m_decimals);
  if (text.find_first_not_of("-0.") == std::string::npos && text.front() == '-') {
    text.erase(0, 1); // "-0.00" is "0.00"
  }
  return text;
}

std::string MeasuredFormat::operator()(double value) const
{
  const auto text = number(value);
  return m_unit.empty() ? text : text + " " + m_unit;
}

} // namespace ej::evidence
