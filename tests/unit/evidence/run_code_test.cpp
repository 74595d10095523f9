#include "evidence/run_code.h"

#include <catch2/catch.hpp>

using namespace ej;

namespace {

core::GitContext code(const std::string& commit, const std::string& diff = "")
{
  core::GitContext out;
  out.commit = commit;
  out.branch = "main";
  out.dirty = !diff.empty();
  out.diff_blob = diff;
  return out;
}

core::RunRecord run(int number, core::GitContext git, core::RunStatus status = core::RunStatus::Finished)
{
  core::RunRecord out;
  out.number = number;
  out.git = std::move(git);
  out.status = status;
  return out;
}

} // namespace

TEST_CASE("runs are grouped by the code they measured, the attempt's own first, imported ones left out")
{
  const auto attempt = code("aaa", "patch1");
  // Newest first, as the store lists them.
  const std::vector<core::RunRecord> runs = {
      run(9, code("bbb")),           run(8, code("aaa", "patch2")),
      run(7, code("aaa", "patch1")), run(6, {}, core::RunStatus::Imported),
      run(5, code("aaa", "patch2")), run(4, code("aaa", "patch1"))};
  const auto groups = evidence::code_of_runs(attempt, runs);
  REQUIRE(groups.size() == 3);
  CHECK(groups[0].same_as_attempt);
  CHECK(groups[0].runs == std::vector<int>{4, 7});
  CHECK_FALSE(groups[1].same_as_attempt);
  CHECK(groups[1].runs == std::vector<int>{5, 8});
  CHECK(groups[1].git.diff_blob == "patch2");
  CHECK(groups[2].runs == std::vector<int>{9});
  CHECK_FALSE(groups[2].git.dirty);
  CHECK(evidence::runs_label(groups[1].runs) == "runs #5, #8");
  CHECK(evidence::runs_label(groups[2].runs) == "run #9");
}

TEST_CASE("a clean attempt's runs on the same clean commit measured its code")
{
  const auto groups = evidence::code_of_runs(code("aaa"), {run(2, code("aaa")), run(1, code("aaa"))});
  REQUIRE(groups.size() == 1);
  CHECK(groups[0].same_as_attempt);
  CHECK(evidence::code_of_runs(code("aaa"), {run(1, {}, core::RunStatus::Imported)}).empty());
}
