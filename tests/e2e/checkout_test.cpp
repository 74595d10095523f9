// ej checkout restores the exact code an attempt or run recorded: the same tree, byte for byte.
#include "support/ej_repo.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace ej::test;

namespace {

// The git tree hash of a directory's files, as `git add -A && git write-tree` gives it.
std::string tree_hash(const std::filesystem::path& work_tree, const std::filesystem::path& scratch)
{
  const auto git_dir = scratch / ("index-" + std::to_string(std::hash<std::string>{}(work_tree.string())));
  git(scratch, {"init", "-q", "--bare", git_dir.string()});
  const std::vector<std::string> prefix = {"--git-dir=" + git_dir.string(), "--work-tree=" + work_tree.string()};
  auto add = prefix;
  add.insert(add.end(), {"add", "-A", "."});
  git(scratch, add);
  auto write = prefix;
  write.push_back("write-tree");
  return git(scratch, write);
}

} // namespace

TEST_CASE("ej checkout restores a dirty attempt's exact tree, untouched work tree aside")
{
  EjRepo repo;
  write_text(repo.path() / "kernel.cu", "__global__ void k() {}\n");
  write_text(repo.path() / "gone.txt", "to be deleted\n");
  git(repo.path(), {"add", "."});
  git(repo.path(), {"commit", "-q", "-m", "kernel"});
  write_text(repo.path() / "kernel.cu", "__global__ void k() { /* unrolled x4 */ }\n");
  std::filesystem::remove(repo.path() / "gone.txt");
  write_text(repo.path() / "new_tuning.h", "#define TILE 64\n");
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"try", "unroll by 4", "--plan", "p"});

  TempDir scratch("ej-checkout");
  const auto measured = tree_hash(repo.path(), scratch.path());
  const auto restored_dir = scratch / "restored";
  const auto out = repo.ok({"checkout", "1", restored_dir.string()});
  CHECK_THAT(out, Catch::Contains("restored attempt #1"));
  CHECK(read_text(restored_dir / "kernel.cu") == "__global__ void k() { /* unrolled x4 */ }\n");
  CHECK(read_text(restored_dir / "new_tuning.h") == "#define TILE 64\n");
  CHECK_FALSE(std::filesystem::exists(restored_dir / "gone.txt"));
  CHECK(tree_hash(restored_dir, scratch.path()) == measured);
  // The user's work tree still has its change; the index is as it was.
  CHECK(read_text(repo.path() / "kernel.cu") == "__global__ void k() { /* unrolled x4 */ }\n");
  CHECK_THAT(git(repo.path(), {"status", "--porcelain"}), Catch::Contains("?? new_tuning.h"));

  const auto again = repo.ej({"checkout", "1", restored_dir.string()});
  CHECK(again.exit_code == 1);
  CHECK_THAT(again.err, Catch::Contains("not empty"));
  CHECK(repo.ej({"checkout", "9", (scratch / "x").string()}).exit_code == 1);
}

TEST_CASE("a code state whose commit is gone is refused with the reason")
{
  EjRepo repo;
  git(repo.path(), {"checkout", "-q", "-b", "side"});
  write_text(repo.path() / "a.txt", "side\n");
  git(repo.path(), {"add", "a.txt"});
  git(repo.path(), {"commit", "-q", "-m", "side"});
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"try", "on a branch that goes away", "--plan", "p"});
  git(repo.path(), {"checkout", "-q", "main"});
  git(repo.path(), {"branch", "-q", "-D", "side"});
  git(repo.path(), {"reflog", "expire", "--expire=now", "--all"});
  git(repo.path(), {"gc", "-q", "--prune=now"});
  TempDir scratch("ej-checkout");
  const auto result = repo.ej({"checkout", "1", (scratch / "out").string()});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("not in this repository"));
}

TEST_CASE("ej rerun runs a dirty run again on its exact code, in a worktree it removes, and compares")
{
  EjRepo repo;
  write_text(repo.path() / "bench.sh", "echo \"time_ms: $(cat value.txt)\"\n");
  write_text(repo.path() / "value.txt", "10\n");
  git(repo.path(), {"add", "."});
  git(repo.path(), {"commit", "-q", "-m", "bench"});
  repo.ok({"bench", "add", "b", "--metric", "time_ms=kv:time_ms", "--unit", "time_ms=ms", "--repeat", "3", "--", "sh",
           "bench.sh"});
  write_text(repo.path() / "value.txt", "7\n"); // uncommitted: only the stored diff carries it
  repo.ok({"run", "b", "--quiet"});
  write_text(repo.path() / "value.txt", "99\n"); // the work tree moves on
  const auto result = repo.ej({"rerun", "r1"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("run #1") && Catch::Contains("run #2"));
  const auto shown = repo.ok({"show", "run", "2", "--json"});
  CHECK_THAT(shown, Catch::Contains("rerun of run #1"));
  CHECK_THAT(repo.ok({"show", "run", "2"}), Catch::Contains("median:      7.000 ms")); // the stored diff's 7, not 99
  const auto original = nlohmann::json::parse(repo.ok({"show", "run", "1", "--json"}));
  const auto again = nlohmann::json::parse(shown);
  CHECK(again["git"]["commit"] == original["git"]["commit"]);
  CHECK(again["git"]["diff_blob"] == original["git"]["diff_blob"]); // the same code state, byte for byte
  CHECK(read_text(repo.path() / "value.txt") == "99\n");
  const auto leftovers = repo.ej_dir() / "rerun";
  CHECK((!std::filesystem::exists(leftovers) || std::filesystem::is_empty(leftovers)));
  CHECK(git(repo.path(), {"worktree", "list"}).find("rerun") == std::string::npos);
}
