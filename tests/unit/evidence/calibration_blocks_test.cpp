// A calibration's paired noise is per repeat; a session whose sides are medians of B repeats is
// sized at the noise of such a median, never less than it has under normal noise.
#include "evidence/calibration.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

using ej::evidence::Calibration;

TEST_CASE("a session in blocks is sized at the noise of a median of its block, never below it")
{
  Calibration c;
  c.paired_noise = 0.02;
  CHECK(c.paired_noise_in_blocks(1) == Approx(0.02));
  CHECK(c.paired_noise_in_blocks(0) == Approx(0.02)); // no block is one repeat
  // Two repeats: their median is their mean.
  CHECK(c.paired_noise_in_blocks(2) == Approx(0.02 / std::sqrt(2.0)));
  // Three: sqrt(pi / 6) = 0.7236 of one repeat, above the exact spread of a median of three normal
  // values, sqrt(0.4487) = 0.6699 (the variance as tabulated; 0.4496 in 200,000 simulated medians
  // with Python's random.gauss), so the rounds sized are enough.
  CHECK(c.paired_noise_in_blocks(3) == Approx(0.02 * std::sqrt(std::numbers::pi / 6)));
  CHECK(c.paired_noise_in_blocks(3) > 0.02 * std::sqrt(0.4487));
  // Five: sqrt(pi / 10) = 0.5605 against the exact 0.5355 (variance 0.2868; simulated 0.2879).
  CHECK(c.paired_noise_in_blocks(5) > 0.02 * std::sqrt(0.2868));
  // More repeats a side, less noise a round.
  CHECK(c.paired_noise_in_blocks(8) < c.paired_noise_in_blocks(5));
}
