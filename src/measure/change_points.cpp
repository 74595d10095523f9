#include "measure/change_points.h"

#include "measure/mann_whitney.h"
#include "measure/statistics.h"
#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>
#include <set>
#include <tuple>
#include <utility>

namespace ej::measure {

namespace {

// alpha is spent per this many points.
constexpr double k_points_per_budget = 1000.0;

struct Interval {
  std::size_t begin = 0;
  std::size_t end = 0;
  auto operator<=>(const Interval&) const = default;
};

// The seeded intervals: lengths 2W, W, W/2, ... (at least 2 * min_segment), each layer from the
// first point in steps of half a length, and one more ending at the last point; a series shorter
// than a length gets the whole series once.
std::vector<Interval> seeded_intervals(std::size_t n, std::size_t min_segment, std::size_t window)
{
  std::set<Interval> out;
  const std::size_t shortest = 2 * min_segment;
  for (std::size_t length = std::max(2 * window, shortest); length >= shortest; length /= 2) {
    if (n <= length) {
      out.insert({0, n});
    } else {
      const std::size_t shift = std::max<std::size_t>(length / 2, 1);
      for (std::size_t begin = 0; begin + length <= n; begin += shift) {
        out.insert({begin, begin + length});
      }
      out.insert({n - length, n});
    }
    if (length / 2 < shortest) {
      break;
    }
  }
  return {out.begin(), out.end()};
}

// The best split of one interval.
struct Split {
  Interval interval;
  std::size_t index = 0;
  double z = 0;
  double p_value = 1;
  double level = 0;
};

// Mid-ranks of values[begin, end) (1-based), and the tie term sum(t^3 - t) over groups of t ties.
double mid_ranks(std::span<const double> values, Interval interval, std::vector<double>& ranks,
                 std::vector<std::size_t>& order)
{
  const std::size_t length = interval.end - interval.begin;
  order.resize(length);
  std::iota(order.begin(), order.end(), interval.begin);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return values[a] < values[b] || (values[a] == values[b] && a < b);
  });
  ranks.assign(length, 0.0);
  double tie_term = 0;
  for (std::size_t i = 0; i < length;) {
    std::size_t j = i;
    while (j < length && values[order[j]] == values[order[i]]) {
      ++j;
    }
    const double mid = static_cast<double>(i + j + 1) / 2.0; // ranks i+1 .. j averaged
    for (std::size_t k = i; k < j; ++k) {
      ranks[order[k] - interval.begin] = mid;
    }
    const auto t = static_cast<double>(j - i);
    tie_term += t * t * t - t;
    i = j;
  }
  return tie_term;
}

// The standardized statistic of the points from t on against those before t, for every split t
// with min_segment points a side; the largest |z|, the first of equals.
Split best_split(std::span<const double> values, Interval interval, const ChangePointOptions& options,
                 std::vector<double>& ranks, std::vector<std::size_t>& order)
{
  Split best;
  best.interval = interval;
  const std::size_t length = interval.end - interval.begin;
  const double tie_term = mid_ranks(values, interval, ranks, order);
  const auto total = static_cast<double>(length);
  const double variance_factor = (total + 1) - tie_term / (total * (total - 1));
  if (variance_factor <= 0) {
    return best; // every value tied: no split is better than another
  }
  double rank_sum = 0; // of the points before the split
  for (std::size_t before = 1; before + options.min_segment <= length; ++before) {
    rank_sum += ranks[before - 1];
    if (before < options.min_segment) {
      continue;
    }
    const auto n1 = static_cast<double>(before);
    const double n2 = total - n1;
    const double u_before = rank_sum - n1 * (n1 + 1) / 2;
    const double sigma = std::sqrt(n1 * n2 / 12.0 * variance_factor);
    const double z = (n1 * n2 / 2 - u_before) / sigma;
    if (std::abs(z) > std::abs(best.z)) {
      best.z = z;
      best.index = interval.begin + before;
    }
  }
  best.p_value = scan_p_value(best.z, length, options.min_segment);
  best.level = options.alpha * static_cast<double>(2 * options.window) / k_points_per_budget;
  return best;
}

// The neighbourhood of each change point: its own levels on either side, at most `window` points.
void set_neighbourhoods(std::vector<ChangePoint>& points, std::size_t n, std::size_t window)
{
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::size_t previous = i == 0 ? 0 : points[i - 1].index;
    const std::size_t next = i + 1 == points.size() ? n : points[i + 1].index;
    points[i].before = std::max(previous, points[i].index > window ? points[i].index - window : 0);
    points[i].after = std::min(next, points[i].index + window);
  }
}

// The rank statistic chooses where a step lies by how well the two sides separate, and a clear
// step separates almost as well a point or two off centre as at its place: the change point moves
// to the split that fits its two neighbouring levels best, each point costing its distance to its
// side's median, capped at the step plus three robust standard deviations of the noise (so that an
// outlier, far from both, pulls neither way), keeping min_segment points from its neighbours.
void relocate(std::span<const double> values, std::vector<ChangePoint>& points, std::size_t min_segment)
{
  std::vector<double> side;
  const auto median_of = [&](std::size_t begin, std::size_t end) {
    side.assign(values.begin() + static_cast<std::ptrdiff_t>(begin),
                values.begin() + static_cast<std::ptrdiff_t>(end));
    std::sort(side.begin(), side.end());
    return quantile_sorted(side, 0.5);
  };
  const std::size_t n = values.size();
  for (std::size_t i = 0; i < points.size(); ++i) {
    auto& point = points[i];
    const double low = median_of(point.before, point.index);
    const double high = median_of(point.index, point.after);
    side.clear();
    for (std::size_t k = point.before; k < point.after; ++k) {
      side.push_back(std::abs(values[k] - (k < point.index ? low : high)));
    }
    std::sort(side.begin(), side.end());
    const double cap = std::abs(high - low) + 3 * 1.4826 * quantile_sorted(side, 0.5);
    const std::size_t previous = i == 0 ? 0 : points[i - 1].index;
    const std::size_t next = i + 1 == points.size() ? n : points[i + 1].index;
    const std::size_t first = std::max(point.before + 1, previous + min_segment);
    const std::size_t last = std::min(point.after - 1, next - min_segment);
    if (first > last || cap == 0) {
      continue;
    }
    const auto to_low = [&](std::size_t k) { return std::min(std::abs(values[k] - low), cap); };
    const auto to_high = [&](std::size_t k) { return std::min(std::abs(values[k] - high), cap); };
    // The cost of split t over [before, after): points before t on the low level, from t on the high.
    double cost = 0;
    for (std::size_t k = point.before; k < point.after; ++k) {
      cost += k < first ? to_low(k) : to_high(k);
    }
    double best_cost = cost;
    std::size_t best = first;
    for (std::size_t t = first + 1; t <= last; ++t) {
      cost += to_low(t - 1) - to_high(t - 1);
      if (cost < best_cost || (cost == best_cost && t == point.index)) {
        best_cost = cost;
        best = t;
      }
    }
    point.index = best;
  }
}

} // namespace

double scan_p_value(double z, std::size_t length, std::size_t min_segment)
{
  const double b = std::abs(z);
  if (length < 2 * min_segment || min_segment == 0) {
    return 1.0;
  }
  const double tail = 2 * normal_sf(b);
  const auto splits = static_cast<double>(length - 2 * min_segment + 1);
  const double bonferroni = tail * splits;
  const double s0 = static_cast<double>(min_segment) / static_cast<double>(length);
  const double density = std::exp(-b * b / 2) / std::sqrt(2 * std::numbers::pi);
  const double continuous = tail + b * density * std::log((1 - s0) * (1 - s0) / (s0 * s0));
  return std::min({1.0, bonferroni, continuous});
}

std::vector<ChangePoint> find_change_points(std::span<const double> values, const ChangePointOptions& options)
{
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      throw Error("point {} of the history is not a finite number: change points need finite values", i + 1);
    }
  }
  if (options.min_segment == 0 || options.window < options.min_segment || !(options.alpha > 0)) {
    throw Error("change points need min_segment >= 1, window >= min_segment and alpha > 0");
  }
  const std::size_t n = values.size();
  if (n < 2 * options.min_segment) {
    return {};
  }
  std::set<std::size_t> accepted;
  std::vector<ChangePoint> found;
  std::set<Interval> tested;
  std::vector<double> ranks;
  std::vector<std::size_t> order;
  // Tests the intervals not tested yet and accepts, most significant first, the splits of those
  // no accepted change point lies inside. Returns whether it accepted any.
  const auto select = [&](const std::vector<Interval>& intervals) {
    std::vector<Split> splits;
    for (const auto& interval : intervals) {
      if (interval.end - interval.begin < 2 * options.min_segment || !tested.insert(interval).second) {
        continue;
      }
      auto split = best_split(values, interval, options, ranks, order);
      if (split.index != 0 && split.p_value < split.level) {
        splits.push_back(split);
      }
    }
    // Measured against each interval's own level; then by position, so that the order (and the
    // result) never depends on the sort's stability.
    std::sort(splits.begin(), splits.end(), [](const Split& a, const Split& b) {
      const double ratio_a = a.p_value / a.level;
      const double ratio_b = b.p_value / b.level;
      return std::tie(ratio_a, a.interval, a.index) < std::tie(ratio_b, b.interval, b.index);
    });
    const auto before = found.size();
    for (const auto& split : splits) {
      const auto inside = accepted.upper_bound(split.interval.begin);
      if (inside != accepted.end() && *inside < split.interval.end) {
        continue; // a change point already splits this interval
      }
      accepted.insert(split.index);
      found.push_back(
          {split.index, split.interval.begin, split.interval.end, 0, 0, split.z, split.p_value, split.level});
    }
    return found.size() > before;
  };
  select(seeded_intervals(n, options.min_segment, options.window));
  // The seeds' grid may leave no interval between two steps close together; binary segmentation
  // does not: each segment between change points is tested again from either end, as long as
  // that finds more.
  for (bool more = !found.empty(); more;) {
    std::vector<Interval> anchored;
    std::size_t begin = 0;
    for (auto it = accepted.begin();; ++it) {
      const std::size_t end = it == accepted.end() ? n : *it;
      anchored.push_back({begin, std::min(end, begin + 2 * options.window)});
      anchored.push_back({end > 2 * options.window ? std::max(begin, end - 2 * options.window) : begin, end});
      if (it == accepted.end()) {
        break;
      }
      begin = end;
    }
    more = select(anchored);
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
  set_neighbourhoods(found, n, options.window);
  relocate(values, found, options.min_segment);
  set_neighbourhoods(found, n, options.window);
  return found;
}

} // namespace ej::measure
