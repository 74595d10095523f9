#include "measure/hodges_lehmann.h"

#include <bit>
#include <cstdint>
#include <limits>

namespace ej::measure {
namespace {

// Maps doubles to integers in the same order (negative values reversed), so that bisection can run
// over representable values and end on an exact one.
std::int64_t ordered_bits(double value)
{
  const auto bits = std::bit_cast<std::int64_t>(value);
  return bits >= 0 ? bits : std::numeric_limits<std::int64_t>::min() - bits;
}

double from_ordered_bits(std::int64_t key)
{
  return std::bit_cast<double>(key >= 0 ? key : std::numeric_limits<std::int64_t>::min() - key);
}

// How many x[i] - y[j] are <= t. For a given x[i] the y[j] that qualify are a suffix of the
// ascending y; rounding is monotone, so walking x downwards that suffix only grows.
std::size_t count_at_most(std::span<const double> x, std::span<const double> y, double t)
{
  std::size_t count = 0;
  std::size_t j = y.size(); // y[j..] are the y with x[i] - y <= t
  for (auto xi = x.rbegin(); xi != x.rend(); ++xi) {
    while (j > 0 && *xi - y[j - 1] <= t) {
      --j;
    }
    count += y.size() - j;
  }
  return count;
}

} // namespace

double kth_pairwise_difference(std::span<const double> sorted_x, std::span<const double> sorted_y,
                               std::size_t k)
{
  // Invariant: count(lo) < k <= count(hi); the answer is the smallest t with count(t) >= k.
  std::int64_t lo = ordered_bits(sorted_x.front() - sorted_y.back());
  std::int64_t hi = ordered_bits(sorted_x.back() - sorted_y.front());
  if (count_at_most(sorted_x, sorted_y, from_ordered_bits(lo)) >= k) {
    return from_ordered_bits(lo) + 0.0; // + 0.0 turns a -0 into 0
  }
  // The distance between the keys can exceed INT64_MAX (e.g. -1e308 .. 1e308), never UINT64_MAX.
  const auto distance = [&] { return static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo); };
  while (distance() > 1) {
    const std::int64_t mid = lo + static_cast<std::int64_t>(distance() / 2);
    if (count_at_most(sorted_x, sorted_y, from_ordered_bits(mid)) >= k) {
      hi = mid;
    } else {
      lo = mid;
    }
  }
  return from_ordered_bits(hi) + 0.0;
}

Shift hodges_lehmann(std::span<const double> sorted_x, std::span<const double> sorted_y,
                     std::size_t interval_rank)
{
  const std::size_t pairs = sorted_x.size() * sorted_y.size();
  Shift shift;
  const double middle = kth_pairwise_difference(sorted_x, sorted_y, (pairs + 1) / 2);
  if (pairs % 2 == 1) {
    shift.estimate = middle;
  } else {
    const double next = kth_pairwise_difference(sorted_x, sorted_y, pairs / 2 + 1);
    shift.estimate = middle + (next - middle) / 2;
  }
  shift.low = kth_pairwise_difference(sorted_x, sorted_y, interval_rank);
  shift.high = kth_pairwise_difference(sorted_x, sorted_y, pairs + 1 - interval_rank);
  return shift;
}

} // namespace ej::measure
