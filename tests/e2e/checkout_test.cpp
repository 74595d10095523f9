// ej checkout restores the exact code an attempt or run recorded: the same tree, byte for byte.
#include "support/ej_repo.h"
#include "support/runs.h"
#include "util/base64.h"
#include "util/hash.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <csignal>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <thread>

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

// A repository whose only commit holds `sl`, a symbolic link to `outside` (a directory beside it).
void commit_with_outside_link(const std::filesystem::path& repo, const std::filesystem::path& outside)
{
  std::filesystem::create_directories(outside);
  write_text(repo / "a.txt", "a\n");
  std::filesystem::create_symlink(outside, repo / "sl");
  git(repo, {"add", "."});
  git(repo, {"commit", "-q", "-m", "a link to elsewhere"});
}

// The export of `from` with the stored diff of its last attempt replaced by `patch`: what a
// replica that wants to write elsewhere could publish.
std::string export_with_diff(const EjRepo& from, const std::string& patch)
{
  const auto hash = ej::util::sha256_hex(patch);
  std::istringstream lines(from.ok({"export"}));
  std::string out;
  for (std::string line; std::getline(lines, line);) {
    auto entry = nlohmann::json::parse(line);
    if (entry.contains("blob")) {
      continue;
    }
    if (entry["type"] == "attempt.created") {
      entry["payload"]["git"]["diff_blob"] = hash;
    }
    out += entry.dump() + "\n";
  }
  return out + nlohmann::json{{"blob", hash}, {"base64", ej::util::base64_encode(patch)}}.dump() + "\n";
}

} // namespace

TEST_CASE(
    "ej checkout of an imported code state refuses a path through a link that leads outside, and writes "
    "nothing there")
{
  TempDir scratch("ej-checkout");
  const auto outside = scratch / "outside";
  EjRepo attacker;
  commit_with_outside_link(attacker.path(), outside);
  attacker.ok({"plan", "new", "p", "--title", "Plan"});
  write_text(attacker.path() / "b.txt", "b\n");
  attacker.ok({"try", "innocent", "--plan", "p"});
  const std::string patch =
      "diff --git a/sl/evil.txt b/sl/evil.txt\nnew file mode 100644\nindex 0000000..53c74cd\n"
      "--- /dev/null\n+++ b/sl/evil.txt\n@@ -0,0 +1 @@\n+evil\n";
  write_text(scratch / "crafted.jsonl", export_with_diff(attacker, patch));

  // The victim: a clone of the same commit, importing what the other replica published.
  const auto victim = scratch / "victim";
  git(scratch.path(), {"clone", "-q", attacker.path().string(), victim.string()});
  REQUIRE(run_ej(victim, {"init"}).exit_code == 0);
  const auto imported = run_ej(victim, {"import", (scratch / "crafted.jsonl").string()});
  INFO(imported.err);
  REQUIRE(imported.exit_code == 0);
  const auto checkout = run_ej(victim, {"checkout", "1", (scratch / "restored").string()});
  CHECK(checkout.exit_code == 1);
  CHECK_THAT(checkout.err,
             Catch::Contains("refused to restore sl/evil.txt: sl is a symbolic link in commit"));
  CHECK(std::filesystem::is_empty(outside));
}

TEST_CASE("ej checkout restores a link of the commit and a diff beside it, all inside the directory")
{
  TempDir scratch("ej-checkout");
  EjRepo repo;
  commit_with_outside_link(repo.path(), scratch / "outside");
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  // The link replaced by a directory: the diff deletes the link and adds a file where it was.
  std::filesystem::remove(repo.path() / "sl");
  write_text(repo.path() / "sl" / "inside.txt", "inside\n");
  write_text(repo.path() / "a.txt", "a2\n");
  repo.ok({"try", "a directory where the link was", "--plan", "p"});
  const auto restored = scratch / "restored";
  const auto out = repo.ok({"checkout", "1", restored.string()});
  CHECK_THAT(out, Catch::Contains("restored attempt #1"));
  CHECK(read_text(restored / "a.txt") == "a2\n");
  CHECK_FALSE(std::filesystem::is_symlink(restored / "sl"));
  CHECK(read_text(restored / "sl" / "inside.txt") == "inside\n");
  CHECK(std::filesystem::is_empty(scratch / "outside"));
}

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
  // It takes the time it prints (a longer one than its repeat would make the run invalid).
  write_text(repo.path() / "bench.sh",
             "v=$(cat value.txt); sleep 0.$(printf %03d \"$v\"); echo \"time_ms: $v\"\n");
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

TEST_CASE("ej rerun and ej checkout restore paths with blanks, untracked, tracked and binary, byte for byte")
{
  EjRepo repo;
  write_text(repo.path() / "x y", "tracked\n");
  write_text(repo.path() / "del me", "to be deleted\n");
  write_text(repo.path() / "committed.bin", std::string("\x89PNG\0\0", 6));
  git(repo.path(), {"add", "."});
  git(repo.path(), {"commit", "-q", "-m", "blanks"});
  // The program reads every file, so that a rerun missing one fails.
  repo.ok({"bench", "add", "b", "--metric", "v=kv:v", "--repeat", "1", "--shell",
           "cat 'u v' 'x y' 'b in' >/dev/null && test ! -e 'del me' && cat 'o d/r'"});
  std::filesystem::create_directories(repo.path() / "o d");
  write_text(repo.path() / "o d" / "r", "v: 7\n");
  write_text(repo.path() / "u v", "untracked\n");
  write_text(repo.path() / "x y", "tracked, changed\n");
  write_text(repo.path() / "b in", std::string("\0binary\0\x01", 10));
  std::filesystem::remove(repo.path() / "del me");
  repo.ok({"run", "b", "--quiet"});
  TempDir scratch("ej-checkout");
  const auto measured = tree_hash(repo.path(), scratch.path());
  write_text(repo.path() / "o d" / "r", "v: 99\n"); // the work tree moves on

  const auto restored_dir = scratch / "restored";
  const auto checkout = repo.ej({"checkout", "r1", restored_dir.string()});
  INFO(checkout.err);
  REQUIRE(checkout.exit_code == 0);
  CHECK(read_text(restored_dir / "o d" / "r") == "v: 7\n");
  CHECK(read_text(restored_dir / "b in") == std::string("\0binary\0\x01", 10));
  CHECK(read_text(restored_dir / "committed.bin") == std::string("\x89PNG\0\0", 6));
  CHECK_FALSE(std::filesystem::exists(restored_dir / "del me"));
  CHECK(tree_hash(restored_dir, scratch.path()) == measured);

  const auto rerun = repo.ej({"rerun", "r1"});
  INFO(rerun.err);
  REQUIRE(rerun.exit_code == 0);
  CHECK_THAT(repo.ok({"show", "run", "2"}), Catch::Contains("median:      7.000")); // the stored 7, not 99
}

TEST_CASE("ej checkout restores an untracked path with blanks from a journal that stored it unquoted")
{
  EjRepo from;
  from.ok({"plan", "new", "p", "--title", "Plan"});
  write_text(from.path() / "o d" / "r", "x\n");
  from.ok({"try", "blanks", "--plan", "p"});
  // As ej wrote it before it quoted such headers (and as libgit2 prints them).
  const std::string patch = "diff --git a/o d/r b/o d/r\nnew file mode 100644\nindex 0000000..587be6b\n"
                            "--- /dev/null\n+++ b/o d/r\n@@ -0,0 +1 @@\n+x\n";
  TempDir scratch("ej-checkout");
  write_text(scratch / "old.jsonl", export_with_diff(from, patch));
  const auto clone = scratch / "clone";
  git(scratch.path(), {"clone", "-q", from.path().string(), clone.string()});
  REQUIRE(run_ej(clone, {"init"}).exit_code == 0);
  const auto imported = run_ej(clone, {"import", (scratch / "old.jsonl").string()});
  INFO(imported.err);
  REQUIRE(imported.exit_code == 0);
  const auto checkout = run_ej(clone, {"checkout", "1", (scratch / "restored").string()});
  INFO(checkout.err);
  REQUIRE(checkout.exit_code == 0);
  CHECK(read_text(scratch / "restored" / "o d" / "r") == "x\n");
}

TEST_CASE(
    "an untracked file too large to store makes checkout and rerun refuse unless --allow-incomplete, and "
    "such a rerun says its code differs")
{
  EjRepo repo;
  write_text(repo.path() / "bench.sh",
             "sleep 0.01; if [ -e big.bin ]; then echo 'time_ms: 5'; else echo 'time_ms: 9'; fi\n");
  git(repo.path(), {"add", "bench.sh"});
  git(repo.path(), {"commit", "-q", "-m", "bench"});
  repo.ok({"bench", "add", "b", "--metric", "time_ms=kv:time_ms", "--unit", "time_ms=ms", "--repeat", "3",
           "--", "sh", "bench.sh"});
  const std::string big(2 * 1024 * 1024 + 7, 'x'); // over the 1 MiB a diff keeps
  write_text(repo.path() / "big.bin", big);
  const auto run = repo.ej({"run", "b", "--quiet"});
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.err, Catch::Contains("big.bin (2.0 MiB)") && Catch::Contains("--allow-incomplete"));
  std::filesystem::rename(repo.path() / "big.bin", repo.path() / "big.bin.away");

  TempDir scratch("ej-checkout");
  const auto checkout = repo.ej({"checkout", "r1", (scratch / "a").string()});
  CHECK(checkout.exit_code == 1);
  CHECK_THAT(checkout.err, Catch::Contains("run #1 is incomplete") && Catch::Contains("big.bin"));
  CHECK_FALSE(std::filesystem::exists(scratch / "a"));
  const auto refused = repo.ej({"rerun", "r1"});
  CHECK(refused.exit_code == 1);
  CHECK_THAT(refused.err, Catch::Contains("incomplete") && Catch::Contains("--allow-incomplete"));
  CHECK_THAT(repo.ok({"runs"}), !Catch::Contains("#2"));

  const auto allowed = repo.ej({"rerun", "r1", "--allow-incomplete"});
  INFO(allowed.err);
  REQUIRE(allowed.exit_code == 0);
  CHECK_THAT(allowed.out, Catch::Contains("the code differs") && Catch::Contains("big.bin"));
  CHECK(samples_of(show_run(repo, 2), "time_ms") == std::vector<double>{9, 9, 9}); // without big.bin

  // The same bytes back in the work tree: the state is whole again, taken from there.
  std::filesystem::rename(repo.path() / "big.bin.away", repo.path() / "big.bin");
  const auto whole = repo.ej({"rerun", "r1"});
  INFO(whole.err);
  REQUIRE(whole.exit_code == 0);
  CHECK_THAT(whole.err, Catch::Contains("restored from there"));
  CHECK_THAT(whole.out, !Catch::Contains("the code differs"));
  CHECK(samples_of(show_run(repo, 3), "time_ms") == std::vector<double>{5, 5, 5});
  write_text(repo.path() / "big.bin", big + "changed");
  CHECK(repo.ej({"checkout", "r1", (scratch / "b").string()}).exit_code == 1); // other bytes: not the file
}

TEST_CASE(
    "ej try --keep-untracked-up-to stores a large untracked file whole, and checkout restores it byte for "
    "byte")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  std::string weights(3 * 1024 * 1024, '\0');
  for (std::size_t i = 0; i < weights.size(); ++i) {
    weights[i] = static_cast<char>((i * 7919) % 251);
  }
  write_text(repo.path() / "model" / "weights.bin", weights);
  CHECK(repo.ej({"try", "a", "--plan", "p", "--keep-untracked-up-to", "2M"}).exit_code ==
        0); // too large still
  const auto kept = repo.ej({"try", "b", "--plan", "p", "--keep-untracked-up-to", "4M"});
  REQUIRE(kept.exit_code == 0);
  CHECK_THAT(kept.err, !Catch::Contains("too large"));
  CHECK(repo.ej({"try", "c", "--plan", "p", "--keep-untracked-up-to", "lots"}).exit_code == 2);
  std::filesystem::remove_all(repo.path() / "model");

  TempDir scratch("ej-checkout");
  CHECK(repo.ej({"checkout", "1", (scratch / "a").string()}).exit_code == 1);
  const auto out = repo.ok({"checkout", "2", (scratch / "b").string()});
  CHECK(read_text(scratch / "b" / "model" / "weights.bin") == weights);
  const auto exported = repo.ok({"export"});
  CHECK_THAT(exported, Catch::Contains("\"large_untracked\"") && Catch::Contains("\"content_blob\""));
}

TEST_CASE("ej rerun of a run in a shared journal, before its number is claimed, finishes and compares")
{
  TempDir dir("ej-rerun");
  const auto remote = dir / "remote.git";
  git(dir.path(), {"init", "-q", "--bare", "-b", "main", remote.string()});
  const auto repo = dir / "clone";
  make_git_repo(repo);
  write_text(repo / "bench.sh", "sleep 0.005; echo 'time_ms: 4'\n");
  git(repo, {"add", "bench.sh"});
  git(repo, {"commit", "-q", "-m", "bench"});
  git(repo, {"remote", "add", "origin", "file://" + remote.string()});
  git(repo, {"push", "-q", "-u", "origin", "main"});
  REQUIRE(run_ej(repo, {"init"}).exit_code == 0);
  REQUIRE(run_ej(repo, {"bench", "add", "b", "--metric", "time_ms=kv:time_ms", "--repeat", "3", "--", "sh",
                        "bench.sh"})
              .exit_code == 0);
  REQUIRE(run_ej(repo, {"run", "b", "--quiet"}).exit_code == 0);
  REQUIRE(run_ej(repo, {"sync"}).exit_code == 0); // shared from now on: new runs wait for their numbers
  const auto run = run_ej(repo, {"run", "b", "--quiet"});
  REQUIRE(run.exit_code == 0);
  const auto at = run.err.find("run @");
  REQUIRE(at != std::string::npos);
  const auto name = run.err.substr(at + 4, 7);
  const auto rerun = run_ej(repo, {"rerun", name});
  INFO(rerun.err);
  CHECK(rerun.exit_code == 0);
  CHECK_THAT(rerun.out, Catch::Contains("run " + name + " (reference) vs run @"));
}

TEST_CASE("ej rerun gives the original's --env overrides again, a secret's value from its own environment")
{
  EjRepo repo;
  repo.ok({"bench", "add", "b", "--metric", "v=kv:v", "--repeat", "2", "--shell",
           "echo \"v: $FACTOR\"; [ \"$API_TOKEN\" = tok-123456 ]"});
  repo.ok({"run", "b", "--quiet", "--env", "FACTOR=7", "--env", "API_TOKEN=tok-123456"});
  CHECK(show_run(repo, 1).dump().find("tok-123456") == std::string::npos);
  CHECK_THAT(repo.ok({"export"}),
             Catch::Contains("[\"FACTOR\",\"7\"]") && Catch::Contains("[\"API_TOKEN\",\"<redacted>\"]"));
  const auto refused = repo.ej({"rerun", "r1"});
  CHECK(refused.exit_code == 1);
  CHECK_THAT(refused.err, Catch::Contains("export API_TOKEN"));
  const auto rerun = repo.ej({"rerun", "r1"}, {{"API_TOKEN", "tok-123456"}});
  INFO(rerun.err);
  REQUIRE(rerun.exit_code == 0);
  CHECK(samples_of(show_run(repo, 2), "v") == std::vector<double>{7, 7});
}

TEST_CASE(
    "a killed ej rerun leaves a worktree that the next ej removes, and an interrupted one removes its own")
{
  EjRepo repo;
  const auto started = repo.path().parent_path() / (repo.path().filename().string() + "-started");
  write_text(repo.path() / "bench.sh", "echo x >> '" + started.string() + "'; while [ ! -e '" +
                                           started.string() + "-go' ]; do sleep 0.02; done\n");
  git(repo.path(), {"add", "bench.sh"});
  git(repo.path(), {"commit", "-q", "-m", "bench"});
  repo.ok({"bench", "add", "b", "--repeat", "1", "--", "sh", "bench.sh"});
  write_text(started.string() + "-go", "");
  repo.ok({"run", "b", "--quiet"});
  std::filesystem::remove(started.string() + "-go");
  std::filesystem::remove(started);
  const auto worktrees = [&] {
    return git(repo.path(), {"worktree", "list"}).find("rerun") != std::string::npos;
  };

  for (const int signal : {SIGKILL, SIGTERM}) {
    INFO("signal " << signal);
    const int rerun = start_command({EJ_BINARY, "rerun", "r1"}, {repo.path(), {}, {}});
    REQUIRE(wait_for_file(started, 20));
    CHECK(worktrees());
    ::kill(rerun, signal);
    const int code = wait_command(rerun);
    CHECK(code == 128 + signal);
    if (signal == SIGTERM) {
      CHECK_FALSE(worktrees()); // its own
    } else {
      CHECK(worktrees());
      repo.ok({"runs"}); // the next ej, whatever it does
      CHECK_FALSE(worktrees());
    }
    const auto leftovers = repo.ej_dir() / "rerun";
    CHECK((!std::filesystem::exists(leftovers) || std::filesystem::is_empty(leftovers)));
    std::filesystem::remove(started);
  }
}
