#pragma once

#include <string>
#include <string_view>

// How the values of one series are written in a run's summary: a time in the unit that reads
// best (0.0991295 s is "99.13 ms"), 4 significant digits of its typical value, and the same
// decimals for every value written with it, so that mean, σ, min and max line up.
namespace ej::evidence {

class MeasuredFormat {
public:
  // typical: the value that sets the digits (the mean), in `unit` as recorded.
  MeasuredFormat(double typical, std::string_view unit);

  // "99.13 ms"; the value in the recorded unit.
  std::string operator()(double value) const;
  // "99.13", without the unit.
  std::string number(double value) const;
  const std::string& unit() const { return m_unit; }

private:
  std::string m_unit;  // the unit written: the recorded one, or the time unit chosen
  double m_factor = 1; // recorded value * m_factor = the value written
  int m_decimals = 0;
};

} // namespace ej::evidence
