#pragma once

#include <cstddef>
#include <span>
#include <vector>

// Where the level of a series stepped: the change points of a benchmark's history, one value per
// commit in commit order. Knows nothing of commits; the caller maps indices back to them.
//
// The method is seeded binary segmentation (Kovacs, Li, Buhlmann and Munk, "Seeded binary
// segmentation", Biometrika 2023) with a rank statistic in place of the CUSUM of means:
// - Deterministic seeds. Layers of intervals of length 2W, W, W/2, ... down to 2 * min_segment,
//   each layer starting at the first point and shifted by half a length (so it covers the series
//   twice), plus one interval per layer ending at the last point. No random intervals or
//   permutations: the same series gives the same change points, and points appended later do not
//   move the intervals of the points before them.
// - In each interval, the split with the largest standardized Mann-Whitney statistic between the
//   points before and after it (mid-ranks, tie-corrected variance), with min_segment points a
//   side. Ranks make it robust: a single outlier moves the statistic no more than any other point
//   on its side of the median, however far it lies.
// - Its p-value corrected for having chosen the best split of the interval (see scan_p_value),
//   and accepted when below alpha * 2W / 1000. The longest intervals (2W points, two of them over
//   every 2W points) spend 2 * alpha false change points per 1,000 points; the shorter ones are
//   more numerous but seldom reach that level (few ranks cannot be far apart: 8 against 8 points
//   never do), and tests/perf/change_point_bench.cpp measures the whole at under 0.03 false change
//   points per 1,000 points of flat noise. The level does not depend on the length of the
//   history: a step is as easy to find among 10,000 commits as among 30.
// - Greedy selection: the most significant interval first; an interval that holds an accepted
//   change point inside it is passed over. Short intervals find the steps that long ones mask (a
//   regression fixed 30 commits later), as in the seeded method.
// Intervals are never longer than 2W, so a slow drift (W points seeing a fraction of it) is not
// cut into steps, and a step is judged on at most W points a side.
namespace ej::measure {

struct ChangePointOptions {
  // The fewest points a side of a change point. Ranks already bound what one point can do; this
  // keeps two or three stray points from becoming a segment of their own (apache/otava#150).
  std::size_t min_segment = 5;
  // The false change points the longest intervals may spend, per 1,000 points.
  double alpha = 0.01;
  // W: the most points a side a change point is judged on, and half the longest interval.
  std::size_t window = 64;
};

struct ChangePoint {
  std::size_t index = 0; // the first point of the new level: the step lies between index - 1 and index
  // The interval it was found in, [begin, end), with begin + min_segment <= index <= end - min_segment.
  std::size_t begin = 0;
  std::size_t end = 0;
  // Its neighbourhood once every change point is known: the points of its own level on each side,
  // at most `window` of them, [before, index) and [index, after): what a step's size is measured on.
  std::size_t before = 0;
  std::size_t after = 0;
  double z =
      0; // standardized Mann-Whitney statistic of the points after against before: > 0 when they are higher
  double p_value = 1; // scan_p_value of z in its interval
  double level = 0;   // alpha * 2 * window / 1000: what p_value was below
};

// The change points of the values in order (ascending index). Values must be finite (ej::Error
// otherwise); fewer than 2 * min_segment values have none. Costs O(n log W) for n values.
std::vector<ChangePoint> find_change_points(std::span<const double> values,
                                            const ChangePointOptions& options = {});

// The chance that, with no change anywhere in an interval of `length` points, the best of its
// splits with at least min_segment points a side has a standardized statistic of |z| or more:
// the continuous approximation for the maximum of a standardized Brownian bridge (James, James
// and Siegmund 1987) 2 * (1 - Phi(z)) + z * phi(z) * log(s1 (1 - s0) / (s0 (1 - s1))) with
// s0 = min_segment / length and s1 = 1 - s0, capped by Bonferroni's bound (the number of splits
// times the two-sided normal tail) which is tighter for short intervals. Both overestimate the
// discrete scan's chance, so the test errs towards finding nothing.
double scan_p_value(double z, std::size_t length, std::size_t min_segment);

} // namespace ej::measure
