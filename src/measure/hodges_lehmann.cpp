#include "measure/hodges_lehmann.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

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

// A sorted sample as its distinct values and how often each occurs. Benchmark output printed
// with 2 or 3 decimals repeats values a lot: 10,000 timings may hold 100 distinct ones, and every
// scan then walks the 100.
struct Runs {
  std::span<const double> values;  // the distinct values: the sample itself when nothing repeats
  std::vector<std::size_t> counts; // how often each occurs; empty when every value occurs once
  std::vector<double> distinct;

  explicit Runs(std::span<const double> sorted)
  {
    const auto repeats = std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end();
    if (!repeats) {
      values = sorted; // no copy, no counts: continuous data costs what it did
      return;
    }
    for (const double v : sorted) {
      if (!distinct.empty() && distinct.back() == v) {
        ++counts.back();
      } else {
        distinct.push_back(v);
        counts.push_back(1);
      }
    }
    values = distinct;
  }
  Runs(const Runs&) = delete;
  Runs& operator=(const Runs&) = delete;

  std::size_t count(std::size_t i) const { return counts.empty() ? 1 : counts[i]; }
};

// One pass over the differences x[i] - y[j] relative to t. For a given x[i] the y[j] that give a
// difference <= t are a suffix of the ascending y; rounding is monotone, so walking x downwards
// that suffix only grows, and its first element gives the row's largest difference <= t.
template <bool Weighted> Scan scan_runs(const Runs& x, const Runs& y, double t)
{
  Scan s;
  const double* xv = x.values.data();
  const double* yv = y.values.data();
  const std::size_t ny = y.values.size();
  std::size_t j = ny;        // y[j..] are the y with x[i] - y <= t
  std::size_t in_suffix = 0; // how many samples y[j..] stand for
  for (std::size_t i = x.values.size(); i-- > 0;) {
    const double xi = xv[i];
    while (j > 0 && xi - yv[j - 1] <= t) {
      --j;
      in_suffix += Weighted ? y.count(j) : 1;
    }
    s.count += (Weighted ? x.count(i) : 1) * in_suffix;
    if (j < ny) {
      s.below = std::max(s.below, xi - yv[j]);
    }
    if (j > 0) {
      s.above = std::min(s.above, xi - yv[j - 1]);
    }
  }
  return s;
}

Scan scan(const Runs& x, const Runs& y, double t)
{
  // Continuous data (no repeats) takes the loop without counts.
  return x.counts.empty() && y.counts.empty() ? scan_runs<false>(x, y, t) : scan_runs<true>(x, y, t);
}

// The k-th smallest of a multiset of values lying in [lo, hi], both of them members, given
// scan_at(t): how many members are <= t and the members nearest t on either side.
// Invariant: the answer lies in [lo, hi]. Each scan moves one bound past t onto the nearest
// member, so the loop ends on the answer itself.
template <typename ScanAt> double kth_member(double lo, double hi, std::size_t k, ScanAt scan_at)
{
  for (int step = 0; lo < hi; ++step) {
    // Halving the values needs ~log2(pairs) steps on ordinary data; halving the representable
    // doubles needs at most 64 on any data (values spread over many magnitudes).
    double t = step < 64 ? lo / 2 + hi / 2 : bits_midpoint(lo, hi);
    if (!(t < hi) || t < lo) {
      t = lo;
    }
    const Scan s = scan_at(t);
    if (s.count >= k) {
      hi = s.below;
    } else {
      lo = s.above;
    }
  }
  return lo + 0.0; // + 0.0 turns a -0 into 0
}

double kth_difference(const Runs& x, const Runs& y, std::size_t k)
{
  return kth_member(x.values.front() - y.values.back(), x.values.back() - y.values.front(), k,
                    [&](double t) { return scan(x, y, t); });
}

// The k-th smallest of the sums x[i] + x[j], i <= j (twice the Walsh averages). The differences
// x[i] - (-x[j]) over all i, j hold each such sum twice for i < j and once for i == j, so adding the
// diagonal once more and halving the count counts the sums with i <= j; the nearest members are
// the same values either way.
double kth_walsh_sum(std::span<const double> sorted, const Runs& x, const Runs& negated, std::size_t k)
{
  return kth_member(2 * sorted.front(), 2 * sorted.back(), k, [&](double t) {
    Scan s = scan(x, negated, t);
    const auto diagonal = static_cast<std::size_t>(
        std::partition_point(sorted.begin(), sorted.end(), [t](double v) { return v + v <= t; }) -
        sorted.begin());
    s.count = (s.count + diagonal) / 2;
    return s;
  });
}

// -x in ascending order, so that x[i] - (-x[j]) are the sums x[i] + x[j].
std::vector<double> negated_reversed(std::span<const double> sorted)
{
  std::vector<double> negated(sorted.rbegin(), sorted.rend());
  for (double& v : negated) {
    v = -v;
  }
  return negated;
}

// Up to this many pairs the differences are formed and the four order statistics selected among
// them: a comparison of a few runs (50 samples against 5) took four bisections of 60 scans each,
// several times the selection.
constexpr std::size_t k_formed_pairs = 4096;

// hodges_lehmann on the differences themselves: the same members, computed the same way, so the
// same order statistics (+ 0.0 as kth_member's). nullopt when a difference overflows: the
// bisection has its own way with infinities.
std::optional<Shift> formed_hodges_lehmann(std::span<const double> sorted_x, std::span<const double> sorted_y,
                                           std::size_t interval_rank)
{
  if (!std::isfinite(sorted_x.back() - sorted_y.front()) ||
      !std::isfinite(sorted_x.front() - sorted_y.back())) {
    return std::nullopt; // (rounding is monotone: the extremes bound every difference)
  }
  std::vector<double> d;
  d.reserve(sorted_x.size() * sorted_y.size());
  for (const double xi : sorted_x) {
    for (const double yj : sorted_y) {
      d.push_back(xi - yj);
    }
  }
  // The middle first; then the next one up, the k-th from below and the k-th from above, each in
  // its side of it (interval_rank <= the middle's rank, as shift_interval_rank gives it).
  const std::size_t pairs = d.size();
  const std::size_t middle_at = (pairs + 1) / 2 - 1;
  const std::size_t low_at = interval_rank - 1;
  const std::size_t high_at = pairs - interval_rank;
  if (low_at > middle_at || high_at < middle_at) {
    return std::nullopt;
  }
  const auto middle_it = d.begin() + static_cast<std::ptrdiff_t>(middle_at);
  std::nth_element(d.begin(), middle_it, d.end());
  Shift shift;
  const double middle = *middle_it + 0.0;
  shift.estimate = middle;
  if (pairs % 2 == 0) {
    const double next = *std::min_element(middle_it + 1, d.end()); // the next order statistic
    shift.estimate = middle + (next - middle) / 2;
  }
  std::nth_element(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(low_at), middle_it);
  std::nth_element(middle_it, d.begin() + static_cast<std::ptrdiff_t>(high_at), d.end());
  shift.low = d[low_at] + 0.0;
  shift.high = d[high_at] + 0.0;
  return shift;
}

} // namespace

double kth_pairwise_difference(std::span<const double> sorted_x, std::span<const double> sorted_y,
                               std::size_t k)
{
  return kth_difference(Runs(sorted_x), Runs(sorted_y), k);
}

Shift hodges_lehmann(std::span<const double> sorted_x, std::span<const double> sorted_y,
                     std::size_t interval_rank)
{
  const std::size_t pairs = sorted_x.size() * sorted_y.size();
  if (pairs <= k_formed_pairs && interval_rank >= 1 && interval_rank <= pairs) {
    if (const auto shift = formed_hodges_lehmann(sorted_x, sorted_y, interval_rank)) {
      return *shift;
    }
  }
  const Runs x(sorted_x);
  const Runs y(sorted_y);
  Shift shift;
  const double middle = kth_difference(x, y, (pairs + 1) / 2);
  shift.estimate = middle;
  if (pairs % 2 == 0) {
    // The next order statistic is the same value when it is repeated, else the next difference.
    const Scan s = scan(x, y, middle);
    const double next = s.count > pairs / 2 ? middle : s.above;
    shift.estimate = middle + (next - middle) / 2;
  }
  shift.low = kth_difference(x, y, interval_rank);
  shift.high = kth_difference(x, y, pairs + 1 - interval_rank);
  return shift;
}

double kth_walsh_average(std::span<const double> sorted, std::size_t k)
{
  const std::vector<double> negated = negated_reversed(sorted);
  return kth_walsh_sum(sorted, Runs(sorted), Runs(negated), k) / 2;
}

Location hodges_lehmann_location(std::span<const double> sorted, std::size_t interval_rank)
{
  const std::vector<double> negated = negated_reversed(sorted);
  const Runs x(sorted);
  const Runs minus_x(negated);
  const std::size_t n = sorted.size();
  const std::size_t averages = n * (n + 1) / 2;
  const auto kth = [&](std::size_t k) { return kth_walsh_sum(sorted, x, minus_x, k) / 2; };
  Location location;
  location.estimate = kth((averages + 1) / 2);
  if (averages % 2 == 0) {
    location.estimate = location.estimate / 2 + kth(averages / 2 + 1) / 2;
  }
  if (interval_rank == 0) {
    location.low = -std::numeric_limits<double>::infinity();
    location.high = std::numeric_limits<double>::infinity();
  } else {
    location.low = kth(interval_rank);
    location.high = kth(averages + 1 - interval_rank);
  }
  return location;
}

} // namespace ej::measure
