#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

namespace ej::perf {

// The simulations' generator: a fixed sequence on every platform (std::normal_distribution's is
// not), so a seeded benchmark prints the same figures everywhere.
class SeededRandom {
public:
  explicit SeededRandom(std::uint64_t seed) : m_engine(seed) {}
  double uniform() { return static_cast<double>(m_engine() >> 11) * 0x1.0p-53; }
  double normal()
  {
    const double u1 = std::max(uniform(), 1e-300);
    const double u2 = uniform();
    return std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
  }

private:
  std::mt19937_64 m_engine;
};

} // namespace ej::perf
