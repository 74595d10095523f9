#include "evidence/against_reference.h"

#include "core/git_context.h"
#include "support/command.h"
#include "support/temp_dir.h"
#include "unit/evidence/test_journal.h"
#include "util/error.h"

#include <catch2/catch.hpp>

using namespace ej;

namespace {

// A scratch repository with two commits, and a journal whose plan p has benchmark b, attempt 1 made
// on the first commit with its run 1 there, and attempt 2 that recorded no commit.
struct AgainstFixture {
  test::TempDir dir;
  std::filesystem::path repo = dir / "repo";
  measuring::Workspace workspace{repo, repo / ".git" / "ej", repo / ".git"};
  test::TestJournal journal;
  std::string first;
  std::string second;

  AgainstFixture()
  {
    test::make_git_repo(repo);
    first = test::git(repo, {"rev-parse", "HEAD"}).substr(0, 40);
    test::write_text(repo / "kernel.cu", "// faster\n");
    test::git(repo, {"add", "kernel.cu"});
    test::git(repo, {"commit", "-q", "-m", "faster"});
    second = test::git(repo, {"rev-parse", "HEAD"}).substr(0, 40);
    journal.plan("p");
    journal.bench("b");
    attempt(1, first);
    attempt(2, "");
    run(1, 1, first);
  }

  void attempt(int number, const std::string& commit)
  {
    core::GitContext git;
    git.commit = commit;
    journal.journal().write([&](store::Writer& writer) {
      writer.append("attempt.created", {{"attempt", number},
                                        {"plan", "p"},
                                        {"title", "attempt " + std::to_string(number)},
                                        {"hypothesis", ""},
                                        {"command", ""},
                                        {"tags", nlohmann::json::array()},
                                        {"links", nlohmann::json::array()},
                                        {"git", core::to_json(git)}});
    });
  }

  // A finished run of b with one repeat, made on `commit`.
  void run(int number, int attempt, const std::string& commit)
  {
    core::GitContext git;
    git.commit = commit;
    journal.journal().write([&](store::Writer& writer) {
      writer.append("run.started", {{"run", number},
                                    {"bench", "b"},
                                    {"revision", 1},
                                    {"attempt", attempt},
                                    {"label", ""},
                                    {"params", nlohmann::json::object()},
                                    {"git", core::to_json(git)},
                                    {"env_blob", ""},
                                    {"host", "test"},
                                    {"pid", 1},
                                    {"boot_id", ""}});
      writer.append(
          "run.finished",
          {{"run", number}, {"status", "finished"}, {"reason", ""}, {"outputs", nlohmann::json::object()}});
    });
  }

  evidence::CodeSide resolve(const std::string& ref, std::optional<int> attempt = std::nullopt)
  {
    return evidence::resolve_against(journal.journal(), workspace, ref, "b", attempt);
  }
};

} // namespace

TEST_CASE("against baseline is the plan's baseline run of the benchmark, with its code and attempt")
{
  AgainstFixture fixture;
  REQUIRE_THROWS_WITH(
      fixture.resolve("baseline", 2),
      "plan p has no baseline for b; pin one with 'ej plan baseline p RUN', or name a run, an "
      "attempt or a git revision with --against");
  fixture.journal.baseline("p", 1);
  for (const auto attempt : {std::optional<int>(2), std::optional<int>()}) {
    const auto side = fixture.resolve("baseline", attempt);
    CHECK(side.name == "baseline (run #1)");
    CHECK(side.attempt == 1);
    CHECK(side.code.code.commit == fixture.first);
    CHECK(side.code.code.patch.empty());
  }
}

TEST_CASE("against a run is the code that run recorded, and a run the journal lacks is an error")
{
  AgainstFixture fixture;
  const auto side = fixture.resolve("r1");
  CHECK(side.name == "run #1");
  CHECK(side.attempt == 1);
  CHECK(side.code.code.commit == fixture.first);
  REQUIRE_THROWS_WITH(fixture.resolve("r9"), "there is no run #9; see 'ej runs'");
}

TEST_CASE("against an attempt is the code ej try recorded, and one that recorded no commit is an error")
{
  AgainstFixture fixture;
  for (const std::string ref : {"1", "#1"}) {
    const auto side = fixture.resolve(ref);
    CHECK(side.name == "attempt #1");
    CHECK(side.attempt == 1);
    CHECK(side.code.code.commit == fixture.first);
  }
  REQUIRE_THROWS_WITH(fixture.resolve("#2"),
                      "attempt #2 recorded no commit: its code state cannot be restored");
}

TEST_CASE("against a git revision is that commit, clean, of no attempt")
{
  AgainstFixture fixture;
  const auto side = fixture.resolve("HEAD~1");
  CHECK(side.name == "HEAD~1 (" + fixture.first.substr(0, 12) + ")");
  CHECK_FALSE(side.attempt);
  CHECK(side.code.code.commit == fixture.first);
  CHECK(side.code.code.patch.empty());
  CHECK(fixture.resolve("main").code.code.commit == fixture.second);
  // A number no attempt has is read as a revision, here a short commit id.
  CHECK(fixture.resolve(fixture.second.substr(0, 7)).code.code.commit == fixture.second);
}

TEST_CASE("against what names no run, attempt or revision is a usage error saying what it may name")
{
  AgainstFixture fixture;
  REQUIRE_THROWS_AS(fixture.resolve("no-such-branch"), UsageError);
  REQUIRE_THROWS_WITH(
      fixture.resolve("no-such-branch"),
      "--against 'no-such-branch' names no run, attempt or git revision; give 'baseline', a run "
      "(r5), an attempt (#12) or a revision (HEAD~1, a branch, a commit)");
  REQUIRE_THROWS_AS(fixture.resolve("#7"), UsageError); // no attempt #7, and no revision either
}

TEST_CASE("an attempt's candidate is its newest run's code, or nothing when the work tree holds it")
{
  AgainstFixture fixture;
  // The work tree is at the second commit; attempt 1 was measured on the first.
  const auto side = evidence::attempt_candidate(fixture.journal.journal(), fixture.workspace, 1, "b", 0);
  REQUIRE(side);
  CHECK(side->name == "attempt #1 (as run #1)");
  CHECK(side->attempt == 1);
  CHECK(side->code.code.commit == fixture.first);
  fixture.run(2, 1, fixture.second);
  CHECK_FALSE(evidence::attempt_candidate(fixture.journal.journal(), fixture.workspace, 1, "b", 0));
  // An attempt with no run and no commit is measured where the work tree is.
  CHECK_FALSE(evidence::attempt_candidate(fixture.journal.journal(), fixture.workspace, 2, "b", 0));
}
