#include "evidence/bisect_search.h"
#include "util/error.h"

#include <catch2/catch.hpp>

#include <set>
#include <vector>

using namespace ej;
using evidence::BisectSearch;
using evidence::CommitClass;

namespace {

// A line whose commits from `first_bad` on are bad; those in `broken` do not build.
struct Line {
  std::size_t first_bad = 0;
  std::set<std::size_t> broken;
  std::set<std::size_t> unclear;
  std::vector<std::size_t> asked;

  CommitClass operator()(std::size_t index)
  {
    asked.push_back(index);
    if (broken.count(index) != 0) {
      return CommitClass::Skipped;
    }
    if (unclear.count(index) != 0) {
      return CommitClass::Inconclusive;
    }
    return index >= first_bad ? CommitClass::Bad : CommitClass::Good;
  }
};

} // namespace

TEST_CASE("bisection names the first bad commit of every line of 2 to 40 commits in log2 probes")
{
  for (std::size_t count = 2; count <= 40; ++count) {
    for (std::size_t first_bad = 1; first_bad < count; ++first_bad) {
      Line line{first_bad, {}, {}, {}};
      const auto search = evidence::bisect(count, std::ref(line));
      INFO("count " << count << ", first bad " << first_bad);
      REQUIRE(search.found());
      CHECK(search.first_bad() == first_bad);
      CHECK(search.last_good() == first_bad - 1);
      CHECK(search.candidates() == std::vector<std::size_t>{first_bad});
      // Never more probes than halving the commits between the two ends takes.
      std::size_t bound = 0;
      for (std::size_t left = count - 2; left > 0; left /= 2) {
        ++bound;
      }
      CHECK(line.asked.size() <= bound);
      CHECK(std::set<std::size_t>(line.asked.begin(), line.asked.end()).size() == line.asked.size());
    }
  }
}

TEST_CASE("bisection of adjacent good and bad commits measures nothing")
{
  Line line{1, {}, {}, {}};
  const auto search = evidence::bisect(2, std::ref(line));
  CHECK(line.asked.empty());
  CHECK(search.found());
  CHECK(search.first_bad() == 1);
  CHECK(search.steps_left() == 0);
}

TEST_CASE("the first probe is the middle commit, and the probes are the same every time")
{
  BisectSearch search(9); // 0 good, 8 bad: 1..7 between
  CHECK(search.next() == 4u);
  CHECK(search.steps_left() == 3);
  search.record(4, CommitClass::Good);
  CHECK(search.next() == 6u);
  search.record(6, CommitClass::Bad);
  CHECK(search.next() == 5u);
  CHECK(search.untested() == 1);
  search.record(5, CommitClass::Bad);
  CHECK_FALSE(search.next());
  CHECK(search.found());
  CHECK(search.first_bad() == 5u);
  REQUIRE(search.probes().size() == 3);
  CHECK(search.probes()[1].index == 6u);
  CHECK(search.probes()[1].verdict == CommitClass::Bad);
}

TEST_CASE("a commit that does not build is skipped and its neighbour measured instead")
{
  Line line{6, {4}, {}, {}};
  const auto search = evidence::bisect(9, std::ref(line));
  REQUIRE(search.found());
  CHECK(search.first_bad() == 6u);
  CHECK(line.asked == std::vector<std::size_t>{4, 3, 5, 6}); // 3 is as near the middle as 5, and older
  CHECK(search.skipped(4));
  CHECK_FALSE(search.skipped(5));
}

TEST_CASE("when only skipped commits stand before the first bad one, the answer is the range")
{
  // 3 does not build and 4 stays inconclusive; 5 is bad and 2 good: the step is one of 3, 4, 5.
  Line line{4, {3}, {4}, {}};
  const auto search = evidence::bisect(9, std::ref(line));
  CHECK_FALSE(search.found());
  CHECK(search.last_good() == 2u);
  CHECK(search.first_bad() == 5u);
  CHECK(search.candidates() == std::vector<std::size_t>{3, 4, 5});
  CHECK(search.untested() == 0);
  CHECK(search.skipped(3));
  CHECK(search.skipped(4));
}

TEST_CASE("a skipped commit outside the final range does not make the answer ambiguous")
{
  Line line{2, {5}, {}, {}};
  const auto search = evidence::bisect(9, std::ref(line));
  REQUIRE(search.found());
  CHECK(search.first_bad() == 2u);
}

TEST_CASE("every commit between skipped leaves the whole range, BAD included")
{
  Line line{3, {1, 2}, {}, {}};
  const auto search = evidence::bisect(4, std::ref(line));
  CHECK_FALSE(search.found());
  CHECK(search.candidates() == std::vector<std::size_t>{1, 2, 3});
  CHECK(line.asked == std::vector<std::size_t>{1, 2}); // BAD itself is never asked
}

TEST_CASE("a bisection refuses fewer than two commits and a verdict outside what is left")
{
  CHECK_THROWS_AS(BisectSearch(1), Error);
  BisectSearch search(5);
  search.record(2, CommitClass::Good);
  CHECK_THROWS_AS(search.record(1, CommitClass::Bad), Error);
  CHECK_THROWS_AS(search.record(4, CommitClass::Bad), Error);
  CHECK(evidence::to_string(CommitClass::Skipped) == "skipped");
}
