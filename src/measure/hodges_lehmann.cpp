#include "measure/hodges_lehmann.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>

namespace ej::measure {
namespace {

// Maps doubles to integers in the same order (negative values reversed), so that a bisection can
// halve the representable doubles between two values.
std::int64_t ordered_bits(double value)
{
  const auto bits = std::bit_cast<std::int64_t>(value);
  return bits >= 0 ? bits : std::numeric_limits<std::int64_t>::min() - bits;
}

double from_ordered_bits(std::int64_t key)
{
  return std::bit_cast<double>(key >= 0 ? key : std::numeric_limits<std::int64_t>::min() - key);
}

// The representable double halfway between lo and hi. Their keys can be further apart than
// INT64_MAX (e.g. -1e308 .. 1e308), never than UINT64_MAX.
double bits_midpoint(double lo, double hi)
{
  const std::int64_t low = ordered_bits(lo);
  const auto distance = static_cast<std::uint64_t>(ordered_bits(hi)) - static_cast<std::uint64_t>(low);
  return from_ordered_bits(low + static_cast<std::int64_t>(distance / 2));
}

struct Scan {
  std::size_t count = 0;                                   // differences <= t
  double below = -std::numeric_limits<double>::infinity(); // the largest difference <= t
  double above = std::numeric_limits<double>::infinity();  // the smallest difference > t
};

// One pass over the differences x[i] - y[j] relative to t. For a given x[i] the y[j] that give a
// difference <= t are a suffix of the ascending y; rounding is monotone, so walking x downwards
// that suffix only grows, and its first element gives the row's largest difference <= t.
Scan scan(std::span<const double> x, std::span<const double> y, double t)
{
  Scan s;
  std::size_t j = y.size(); // y[j..] are the y with x[i] - y <= t
  for (auto xi = x.rbegin(); xi != x.rend(); ++xi) {
    while (j > 0 && *xi - y[j - 1] <= t) {
      --j;
    }
    s.count += y.size() - j;
    if (j < y.size()) {
      s.below = std::max(s.below, *xi - y[j]);
    }
    if (j > 0) {
      s.above = std::min(s.above, *xi - y[j - 1]);
    }
  }
  return s;
}

} // namespace

double kth_pairwise_difference(std::span<const double> sorted_x, std::span<const double> sorted_y,
                               std::size_t k)
{
  // Invariant: the answer lies in [lo, hi], both of them differences. Each scan moves one bound
  // past t onto the nearest difference, so the loop ends on the answer itself.
  double lo = sorted_x.front() - sorted_y.back();
  double hi = sorted_x.back() - sorted_y.front();
  for (int step = 0; lo < hi; ++step) {
    // Halving the values needs ~log2(pairs) steps on ordinary data; halving the representable
    // doubles needs at most 64 on any data (values spread over many magnitudes).
    double t = step < 64 ? lo / 2 + hi / 2 : bits_midpoint(lo, hi);
    if (!(t < hi) || t < lo) {
      t = lo;
    }
    const Scan s = scan(sorted_x, sorted_y, t);
    if (s.count >= k) {
      hi = s.below;
    } else {
      lo = s.above;
    }
  }
  return lo + 0.0; // + 0.0 turns a -0 into 0
}

Shift hodges_lehmann(std::span<const double> sorted_x, std::span<const double> sorted_y,
                     std::size_t interval_rank)
{
  const std::size_t pairs = sorted_x.size() * sorted_y.size();
  Shift shift;
  const double middle = kth_pairwise_difference(sorted_x, sorted_y, (pairs + 1) / 2);
  shift.estimate = middle;
  if (pairs % 2 == 0) {
    // The next order statistic is the same value when it is repeated, else the next difference.
    const Scan s = scan(sorted_x, sorted_y, middle);
    const double next = s.count > pairs / 2 ? middle : s.above;
    shift.estimate = middle + (next - middle) / 2;
  }
  shift.low = kth_pairwise_difference(sorted_x, sorted_y, interval_rank);
  shift.high = kth_pairwise_difference(sorted_x, sorted_y, pairs + 1 - interval_rank);
  return shift;
}

} // namespace ej::measure
