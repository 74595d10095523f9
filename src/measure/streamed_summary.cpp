#include "measure/streamed_summary.h"

#include "util/error.h"

#include <algorithm>
#include <cmath>

namespace ej::measure {
namespace {

// The values quantile_sorted() reads for p of n sorted values, picked as they pass, and its result.
class Quantile {
public:
  Quantile(std::size_t n, double p)
      : m_h(static_cast<double>(n - 1) * p), m_lower(static_cast<std::size_t>(std::floor(m_h))),
        m_last(m_lower + 1 >= n), m_n(n)
  {
  }
  void see(std::size_t index, double x)
  {
    if (m_last ? index + 1 == m_n : index == m_lower) {
      m_a = x;
    } else if (!m_last && index == m_lower + 1) {
      m_b = x;
    }
  }
  double value() const { return m_last ? m_a : m_a + (m_h - static_cast<double>(m_lower)) * (m_b - m_a); }

private:
  double m_h;
  std::size_t m_lower;
  bool m_last;
  std::size_t m_n;
  double m_a = 0;
  double m_b = 0;
};

// The series changed between two passes (a journal written meanwhile): said, never summarized wrong.
void require_same_count(std::size_t seen, std::size_t n)
{
  if (seen != n) {
    throw Error("the samples being summarized changed while they were read ({} then {}): summarize again", n,
                seen);
  }
}

} // namespace

Summary summarize_streamed(const SampleVisitor& visit, Direction direction)
{
  // The passes of summarize() and the same arithmetic in the same order: the result is identical.
  Summary s;
  double mean = 0;
  double m2 = 0;
  double first = 0;
  std::size_t bad_index = 0;
  double bad_value = 0;
  visit(SampleOrder::Recorded, 0, [&](double x) {
    if (!std::isfinite(x) && bad_index == 0) {
      bad_index = s.n + 1;
      bad_value = x;
    }
    if (s.n == 0) {
      first = x;
    }
    const double delta = x - mean;
    mean += delta / static_cast<double>(s.n + 1);
    m2 += delta * (x - mean);
    ++s.n;
  });
  if (s.n == 0) {
    throw Error("no samples for the metric: run the benchmark (at least once) before summarizing it");
  }
  if (bad_index != 0) {
    throw Error("sample {} of the metric is {}, not a finite number: check the metric extractor", bad_index,
                bad_value);
  }
  set_spread(s, mean, m2);

  Quantile q1(s.n, 0.25);
  Quantile median(s.n, 0.5);
  Quantile q3(s.n, 0.75);
  std::size_t seen = 0;
  visit(SampleOrder::Ascending, 0, [&](double x) {
    if (seen == 0) {
      s.min = x;
    }
    s.max = x;
    q1.see(seen, x);
    median.see(seen, x);
    q3.see(seen, x);
    ++seen;
  });
  require_same_count(seen, s.n);
  s.median = median.value();
  s.q1 = q1.value();
  s.q3 = q3.value();

  Quantile mad(s.n, 0.5);
  seen = 0;
  visit(SampleOrder::ByDistance, s.median, [&](double deviation) { mad.see(seen++, deviation); });
  require_same_count(seen, s.n);
  s.mad = mad.value();

  // robust_scale(): the mean absolute deviation stands in for a MAD of 0.
  double scale = 1.4826 * s.mad;
  if (s.mad <= 0) {
    double total = 0;
    visit(SampleOrder::Recorded, 0, [&](double x) { total += std::abs(x - s.median); });
    scale = 1.253314 * total / static_cast<double>(s.n);
  }
  // The outliers, and the worst sample after the first for first_is_slow().
  double next_worst = 0;
  seen = 0;
  visit(SampleOrder::Recorded, 0, [&](double x) {
    if (scale > 0 && std::abs(x - s.median) / scale > k_outlier_z) {
      s.outlier_indices.push_back(seen);
    }
    if (seen == 1) {
      next_worst = badness(x, s.median, direction);
    } else if (seen > 1) {
      next_worst = std::max(next_worst, badness(x, s.median, direction));
    }
    ++seen;
  });
  require_same_count(seen, s.n);
  const double first_badness = badness(first, s.median, direction);
  if (first_badness <= 0) {
    s.slow_first = false;
  } else if (!s.outlier_indices.empty() && s.outlier_indices.front() == 0) {
    s.slow_first = true;
  } else if (s.n < 5) {
    s.slow_first = false;
  } else {
    s.slow_first = first_badness > next_worst && first_badness >= 2 * std::max(next_worst, 0.0);
  }
  return s;
}

} // namespace ej::measure
