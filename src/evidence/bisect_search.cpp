#include "evidence/bisect_search.h"

#include "util/error.h"

namespace ej::evidence {

std::string_view to_string(CommitClass value)
{
  switch (value) {
  case CommitClass::Good:
    return "good";
  case CommitClass::Bad:
    return "bad";
  case CommitClass::Skipped:
    return "skipped";
  case CommitClass::Inconclusive:
    return "inconclusive";
  }
  return "inconclusive";
}

BisectSearch::BisectSearch(std::size_t count) : m_bad(count - 1), m_skipped(count, false)
{
  if (count < 2) {
    throw Error("a bisection needs a good and a bad commit, not {} commit{}", count, count == 1 ? "" : "s");
  }
}

std::optional<std::size_t> BisectSearch::next() const
{
  // The testable commit nearest the middle; of two as near, the older: the same answer every time.
  const std::size_t middle = m_good + (m_bad - m_good) / 2;
  const auto distance = [middle](std::size_t i) { return i > middle ? i - middle : middle - i; };
  std::optional<std::size_t> best;
  for (std::size_t i = m_good + 1; i < m_bad; ++i) {
    if (!m_skipped[i] && (!best || distance(i) < distance(*best))) {
      best = i;
    }
  }
  return best;
}

void BisectSearch::record(std::size_t index, CommitClass verdict)
{
  if (index <= m_good || index >= m_bad) {
    throw Error("commit {} of the bisection lies outside what is left of it, ({}, {})", index, m_good, m_bad);
  }
  m_probes.push_back({index, verdict});
  switch (verdict) {
  case CommitClass::Good:
    m_good = index;
    break;
  case CommitClass::Bad:
    m_bad = index;
    break;
  case CommitClass::Skipped:
  case CommitClass::Inconclusive:
    m_skipped[index] = true;
    break;
  }
}

std::vector<std::size_t> BisectSearch::candidates() const
{
  std::vector<std::size_t> out;
  for (std::size_t i = m_good + 1; i <= m_bad; ++i) {
    out.push_back(i);
  }
  return out;
}

std::size_t BisectSearch::untested() const
{
  std::size_t count = 0;
  for (std::size_t i = m_good + 1; i < m_bad; ++i) {
    count += m_skipped[i] ? 0 : 1;
  }
  return count;
}

std::size_t BisectSearch::steps_left() const
{
  // Each probe halves the untested commits: ceil(log2(untested + 1)).
  std::size_t steps = 0;
  for (std::size_t left = untested(); left > 0; left /= 2) {
    ++steps;
  }
  return steps;
}

bool BisectSearch::skipped(std::size_t index) const
{
  return index < m_skipped.size() && m_skipped[index];
}

BisectSearch bisect(std::size_t count, const std::function<CommitClass(std::size_t)>& classify)
{
  BisectSearch search(count);
  while (const auto index = search.next()) {
    search.record(*index, classify(*index));
  }
  return search;
}

} // namespace ej::evidence
