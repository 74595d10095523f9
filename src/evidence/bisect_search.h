#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

// The search of ej bisect, as `git bisect` does it, over a line of commits given by their index:
// 0 is GOOD, the last is BAD, and the first commit on the bad side lies in between or is BAD. Each
// probe takes the testable commit nearest the middle of what is left; a commit that cannot be
// judged (its build failed, its verdict stayed inconclusive) is skipped as `git bisect skip`
// does, and when only skipped commits stand between the last good and the first bad one, the
// answer is the range, not a guess. Pure: the caller measures.
namespace ej::evidence {

enum class CommitClass {
  Good,        // decisively on GOOD's side of the step
  Bad,         // decisively on BAD's side
  Skipped,     // it could not be built, or its run failed: as `git bisect skip`
  Inconclusive // skipped: measured to the most rounds allowed without a decision
};

// "good", "bad", "skipped", "inconclusive"
std::string_view to_string(CommitClass value);

struct BisectProbe {
  std::size_t index = 0;
  CommitClass verdict = CommitClass::Good;
};

class BisectSearch {
public:
  // A line of `count` commits (at least 2): index 0 good, index count - 1 bad.
  explicit BisectSearch(std::size_t count);

  // The commit to measure next; nullopt once the search is over.
  std::optional<std::size_t> next() const;
  // What the commit `next()` gave turned out to be.
  void record(std::size_t index, CommitClass verdict);

  std::size_t last_good() const { return m_good; }
  std::size_t first_bad() const { return m_bad; }
  // Found: the first bad commit's parent is good.
  bool found() const { return m_bad == m_good + 1; }
  // The commits the first bad one may be, in line order: (last_good, first_bad].
  std::vector<std::size_t> candidates() const;
  // Commits of (last_good, first_bad) still to be measured.
  std::size_t untested() const;
  // About how many more probes the search takes if no commit is skipped.
  std::size_t steps_left() const;
  const std::vector<BisectProbe>& probes() const { return m_probes; }
  bool skipped(std::size_t index) const;

private:
  std::size_t m_good = 0;
  std::size_t m_bad = 0;
  std::vector<bool> m_skipped; // by index
  std::vector<BisectProbe> m_probes;
};

// The whole search with `classify` measuring each commit it asks for, in the order it asks.
BisectSearch bisect(std::size_t count, const std::function<CommitClass(std::size_t)>& classify);

} // namespace ej::evidence
