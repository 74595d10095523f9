#include "measure/change_points.h"
#include "measure/mann_whitney.h"
#include "util/error.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

using namespace ej::measure;

namespace {

// Synthetic histories: a level per segment, relative Gaussian noise, from a fixed seed (Box-Muller
// over the engine's bits, the same on every platform).
class Noise {
public:
  explicit Noise(std::uint64_t seed) : m_engine(seed) {}
  double normal()
  {
    const double u1 = std::max(static_cast<double>(m_engine() >> 11) * 0x1.0p-53, 1e-300);
    const double u2 = static_cast<double>(m_engine() >> 11) * 0x1.0p-53;
    return std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
  }

private:
  std::mt19937_64 m_engine;
};

struct Segment {
  std::size_t points;
  double level;
};

std::vector<double> history(const std::vector<Segment>& segments, double noise, std::uint64_t seed)
{
  Noise random(seed);
  std::vector<double> values;
  for (const auto& segment : segments) {
    for (std::size_t i = 0; i < segment.points; ++i) {
      values.push_back(segment.level * (1 + noise * random.normal()));
    }
  }
  return values;
}

std::vector<std::size_t> indices(const std::vector<ChangePoint>& points)
{
  std::vector<std::size_t> out;
  for (const auto& point : points) {
    out.push_back(point.index);
  }
  return out;
}

} // namespace

TEST_CASE("A flat history with noise has no change point, whatever the noise and the seed")
{
  for (const double noise : {0.01, 0.05, 0.10}) {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      const auto values = history({{400, 100.0}}, noise, seed);
      INFO("noise " << noise << ", seed " << seed);
      CHECK(find_change_points(values).empty());
    }
  }
}

TEST_CASE("A step of three times the noise is found at its first point, with the direction and the interval "
          "it was found in")
{
  const auto values = history({{60, 100.0}, {60, 106.0}}, 0.02, 7);
  const auto points = find_change_points(values);
  REQUIRE(points.size() == 1);
  CHECK(points[0].index == 60);
  CHECK(points[0].z > 0); // higher after
  CHECK(points[0].p_value < points[0].level);
  CHECK(points[0].begin + 5 <= 60);
  CHECK(points[0].end >= 65);
  CHECK(points[0].before == 0); // its neighbourhood: its own levels, at most the window a side
  CHECK(points[0].after == 120);

  const auto down = find_change_points(history({{60, 100.0}, {60, 94.0}}, 0.02, 8));
  REQUIRE(down.size() == 1);
  CHECK(down[0].index == 60);
  CHECK(down[0].z < 0);
}

TEST_CASE("A single outlier, however far, is no change point and does not move a step")
{
  auto flat = history({{200, 100.0}}, 0.02, 3);
  flat[100] = 1e9;
  CHECK(find_change_points(flat).empty());

  auto stepped = history({{80, 100.0}, {80, 110.0}}, 0.02, 4);
  stepped[78] = 1e9; // just before the step, on the low side
  const auto points = find_change_points(stepped);
  REQUIRE(points.size() == 1);
  CHECK(points[0].index == 80);
}

TEST_CASE("Two or three stray points together are not a segment of their own")
{
  for (const std::size_t stray : {2u, 3u}) {
    auto values = history({{150, 100.0}}, 0.01, 11);
    for (std::size_t i = 0; i < stray; ++i) {
      values[70 + i] *= 1.5;
    }
    INFO(stray << " stray points");
    CHECK(find_change_points(values).empty());
  }
}

TEST_CASE("A regression fixed thirty commits later is found at both ends, which one long interval would mask")
{
  const auto values = history({{300, 100.0}, {30, 108.0}, {300, 100.0}}, 0.02, 5);
  CHECK(indices(find_change_points(values)) == std::vector<std::size_t>{300, 330});
}

TEST_CASE("Steps closer together than the window are each found")
{
  const auto values = history({{100, 100.0}, {32, 110.0}, {40, 121.0}, {100, 133.0}}, 0.01, 9);
  CHECK(indices(find_change_points(values)) == std::vector<std::size_t>{100, 132, 172});
}

TEST_CASE("The newest step is found once eight points follow it, and not from five")
{
  CHECK(indices(find_change_points(history({{200, 100.0}, {8, 110.0}}, 0.02, 12))) ==
        std::vector<std::size_t>{200});
  CHECK(find_change_points(history({{200, 100.0}, {5, 110.0}}, 0.02, 12)).empty());
}

TEST_CASE("A short history of twelve commits a side shows its step")
{
  CHECK(indices(find_change_points(history({{12, 100.0}, {12, 110.0}}, 0.01, 13))) ==
        std::vector<std::size_t>{12});
}

TEST_CASE("A slow drift within the noise is not cut into steps")
{
  Noise random(21);
  std::vector<double> values;
  for (std::size_t i = 0; i < 1000; ++i) {
    // 2% over 1,000 points with 2% noise: a step of 0.13% over the longest interval.
    values.push_back(100.0 * (1 + 0.00002 * static_cast<double>(i)) * (1 + 0.02 * random.normal()));
  }
  CHECK(find_change_points(values).empty());
}

TEST_CASE("The same history gives the same change points, and points added later keep the earlier ones")
{
  const auto values = history({{90, 100.0}, {70, 90.0}, {120, 97.0}, {80, 120.0}}, 0.02, 17);
  const auto first = find_change_points(values);
  CHECK(indices(first) == indices(find_change_points(values)));
  CHECK(indices(first) == std::vector<std::size_t>{90, 160, 280});

  auto longer = values;
  const auto more = history({{150, 120.0}}, 0.02, 18);
  longer.insert(longer.end(), more.begin(), more.end());
  CHECK(indices(find_change_points(longer)) == indices(first));
}

TEST_CASE("Each change point's neighbourhood stops at its neighbours and at the window")
{
  const auto values = history({{200, 100.0}, {30, 110.0}, {200, 100.0}}, 0.01, 23);
  const auto points = find_change_points(values);
  REQUIRE(indices(points) == std::vector<std::size_t>{200, 230});
  CHECK(points[0].before == 200 - 64);
  CHECK(points[0].after == 230);
  CHECK(points[1].before == 200);
  CHECK(points[1].after == 230 + 64);
}

TEST_CASE("Too short a history, or one of equal values, has no change point")
{
  CHECK(find_change_points(std::vector<double>{1, 1, 1, 1, 9, 9, 9, 9, 9}).empty()); // under 2 x 5 points
  CHECK(find_change_points(std::vector<double>(100, 5.0)).empty());
  CHECK(find_change_points(std::vector<double>{}).empty());
}

TEST_CASE("Ties are ranked as mid-ranks: a step between quantized values is found")
{
  std::vector<double> values;
  for (int i = 0; i < 40; ++i) {
    values.push_back(i % 3 == 0 ? 11 : 10); // a timer of coarse resolution
  }
  for (int i = 0; i < 40; ++i) {
    values.push_back(i % 3 == 0 ? 13 : 12);
  }
  CHECK(indices(find_change_points(values)) == std::vector<std::size_t>{40});
}

TEST_CASE("A value that is not finite is refused with a message")
{
  auto values = history({{50, 100.0}}, 0.02, 1);
  values[10] = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_AS(find_change_points(values), ej::Error);
}

TEST_CASE("The scan's p-value is the two-sided normal tail for one split, never above Bonferroni's bound, "
          "and grows with the interval")
{
  // One possible split (10 points, 5 a side): no scan, the plain two-sided p.
  CHECK(scan_p_value(3.0, 10, 5) == Approx(2 * normal_sf(3.0)));
  for (const double z : {3.0, 4.0, 5.0}) {
    for (const std::size_t length : {12u, 30u, 128u}) {
      const double p = scan_p_value(z, length, 5);
      CHECK(p >= 2 * normal_sf(z));
      CHECK(p <= 2 * normal_sf(z) * static_cast<double>(length - 9) + 1e-15);
    }
    CHECK(scan_p_value(z, 128, 5) > scan_p_value(z, 32, 5));
  }
  CHECK(scan_p_value(-4.0, 64, 5) == scan_p_value(4.0, 64, 5));
  CHECK(scan_p_value(0.0, 64, 5) == 1.0);
  // Against the continuous approximation itself, where Bonferroni's bound is looser: 128 points,
  // z = 4.5: 2 * (1 - Phi(4.5)) + 4.5 * phi(4.5) * log((123 / 5)^2).
  CHECK(scan_p_value(4.5, 128, 5) == Approx(6.795e-6 + 4.5 * 1.5984e-5 * 6.4055).epsilon(1e-3));
}
