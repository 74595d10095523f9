#include "support/ej_repo.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace ej::test;
using nlohmann::json;

TEST_CASE("ej init outside a git repository says so and exits 1")
{
  TempDir dir;
  const auto result = run_ej(dir.path(), {"init"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::StartsWith("ej: error: not inside a git repository"));
  CHECK_FALSE(std::filesystem::exists(dir / ".ej"));
}

TEST_CASE("every command before ej init says to run ej init")
{
  EjRepo repo(false);
  for (const auto& args : std::vector<std::vector<std::string>>{
         {"log"}, {"plan", "list"}, {"try", "x", "--plan", "p"}, {"why", "x"}, {"search", "x"}, {"fsck"}}) {
    const auto result = repo.ej(args);
    INFO(args.front());
    CHECK(result.exit_code == 1);
    CHECK_THAT(result.err, Catch::Contains("run 'ej init'"));
  }
}

TEST_CASE("ej init twice is harmless and leaves nothing in the work tree for git to see")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  const auto again = repo.ok({"init"});
  CHECK_THAT(again, Catch::Contains("already") && Catch::Contains((repo.path() / ".git" / "ej").string()));
  CHECK(repo.ok({"plan", "list", "--json"}).find("\"p\"") != std::string::npos);
  CHECK(std::filesystem::exists(repo.path() / ".git" / "ej" / "journal.db"));
  CHECK_FALSE(std::filesystem::exists(repo.path() / ".ej"));
  CHECK(git(repo.path(), {"status", "--porcelain", "--ignored"}).empty());
}

TEST_CASE("git clean -fdx cannot reach the journal, and a run goes on recording through it")
{
  EjRepo repo;
  write_text(repo.path() / "bench.sh", "echo v=1\n");
  repo.ok({"bench", "add", "b", "--repeat", "2", "--metric", "v=regex:v=([0-9]+)", "--", "sh", "bench.sh"});
  repo.ok({"run", "b", "--quiet"});
  git(repo.path(), {"clean", "-fdx", "-e", "bench.sh"});
  CHECK(std::filesystem::exists(repo.db_path()));
  CHECK_THAT(repo.ok({"runs", "--json"}), Catch::Contains("\"finished\""));
}

TEST_CASE("linked worktrees of one repository share one journal")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  git(repo.path(), {"worktree", "add", "-q", "-b", "other", (repo.path() / "wt").string()});
  const auto from_worktree = run_ej(repo.path() / "wt", {"plan", "list", "--json"});
  INFO(from_worktree.err);
  REQUIRE(from_worktree.exit_code == 0);
  CHECK_THAT(from_worktree.out, Catch::Contains("\"p\""));
  CHECK(run_ej(repo.path() / "wt", {"try", "from the worktree", "--plan", "p"}).exit_code == 0);
  CHECK_THAT(repo.ok({"log"}), Catch::Contains("from the worktree"));
  CHECK_FALSE(std::filesystem::exists(repo.path() / "wt" / ".ej"));
}

TEST_CASE("a journal an older ej kept in .ej/ is moved into the git directory on first open, with a message")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"try", "kept through the move", "--plan", "p"});
  // As an older ej left it.
  std::filesystem::rename(repo.ej_dir(), repo.path() / ".ej");
  const auto moved = repo.ej({"log"});
  INFO(moved.err);
  REQUIRE(moved.exit_code == 0);
  CHECK_THAT(moved.err, Catch::Contains("moved the journal from") && Catch::Contains(".ej") &&
                            Catch::Contains("git clean cannot reach it"));
  CHECK_THAT(moved.out, Catch::Contains("kept through the move"));
  CHECK_FALSE(std::filesystem::exists(repo.path() / ".ej"));
  CHECK(std::filesystem::exists(repo.db_path()));
  // Said once: the next command finds it in place.
  CHECK(repo.ej({"log"}).err.empty());
}

TEST_CASE("ej init works from a subdirectory and puts the journal at the work tree root")
{
  EjRepo repo(false);
  std::filesystem::create_directories(repo.path() / "src" / "deep");
  CHECK(run_ej(repo.path() / "src" / "deep", {"init"}).exit_code == 0);
  CHECK(std::filesystem::exists(repo.db_path()));
}

TEST_CASE("plans are created, listed and shown, bad slugs and duplicates are refused")
{
  EjRepo repo;
  repo.ok({"plan", "new", "eagle-fast-verify", "--title", "EAGLE-3 fast verify", "--goal", "verify under 15 ms",
           "--target", "verify_ms < 15"});
  const auto plans = json::parse(repo.ok({"plan", "list", "--json"}));
  REQUIRE(plans.size() == 1);
  CHECK(plans[0]["slug"] == "eagle-fast-verify");
  CHECK(plans[0]["doc"] == "journal/eagle-fast-verify.md");
  CHECK(plans[0]["target"] == "verify_ms < 15");
  CHECK_THAT(repo.ok({"plan", "show", "eagle-fast-verify"}), Catch::Contains("verify under 15 ms"));

  for (const auto* slug : {"Eagle", "a b", "x-", "x--y", "", "ünï"}) {
    const auto result = repo.ej({"plan", "new", slug, "--title", "t"});
    INFO(slug);
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.err, Catch::Contains("invalid plan slug"));
  }
  const auto duplicate = repo.ej({"plan", "new", "eagle-fast-verify", "--title", "again"});
  CHECK(duplicate.exit_code == 1);
  CHECK_THAT(duplicate.err, Catch::Contains("already exists"));
  CHECK(repo.ej({"plan", "show", "nope"}).exit_code == 1);
}

TEST_CASE("an attempt records its git context, and a dirty one its exact diff")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  CHECK(repo.ok({"try", "clean attempt", "--plan", "p"}) == "#1\n");
  const auto head = git(repo.path(), {"rev-parse", "HEAD"});
  auto clean = json::parse(repo.ok({"show", "1", "--json"}));
  CHECK(clean["git"]["commit"] == head.substr(0, head.size() - 1));
  CHECK(clean["git"]["branch"] == "main");
  CHECK(clean["git"]["dirty"] == false);

  write_text(repo.path() / "README.md", "scratch repository\nchanged line\n");
  write_text(repo.path() / "new_file.cu", "__global__ void k() {}\n");
  CHECK(repo.ok({"try", "dirty attempt", "--plan", "p"}) == "#2\n");
  auto dirty = json::parse(repo.ok({"show", "2", "--json", "--diff"}));
  CHECK(dirty["git"]["dirty"] == true);
  const std::string diff = dirty["diff"];
  CHECK_THAT(diff, Catch::Contains("+changed line"));
  CHECK_THAT(diff, Catch::Contains("new_file.cu"));

  git(repo.path(), {"checkout", "-q", "--detach"});
  write_text(repo.path() / "README.md", "scratch repository\n");
  repo.ok({"try", "detached attempt", "--plan", "p"});
  CHECK(json::parse(repo.ok({"show", "3", "--json"}))["git"]["branch"] == "");
}

TEST_CASE("with GIT_DIR and GIT_WORK_TREE, an attempt records the code of that work tree, as git reads it")
{
  // A work tree with no .git of its own, its repository elsewhere (git --git-dir=... --work-tree=...).
  TempDir dir("ej-git-dir");
  const auto work_tree = dir.path() / "work";
  make_git_repo(work_tree);
  std::filesystem::rename(work_tree / ".git", dir.path() / "code.git");
  const std::map<std::string, std::string> env{{"GIT_DIR", (dir.path() / "code.git").string()},
                                               {"GIT_WORK_TREE", work_tree.string()}};
  const auto head = run_command({"git", "rev-parse", "HEAD"}, {work_tree, env, {}});
  REQUIRE(head.exit_code == 0);
  for (const auto& args :
       {std::vector<std::string>{"init"}, std::vector<std::string>{"plan", "new", "p", "--title", "P"}}) {
    const auto done = run_ej(work_tree, args, env);
    INFO(done.err);
    REQUIRE(done.exit_code == 0);
  }
  write_text(work_tree / "README.md", "scratch repository\nchanged away from its .git\n");
  const auto tried = run_ej(work_tree, {"try", "away from its repository", "--plan", "p"}, env);
  INFO(tried.err);
  REQUIRE(tried.exit_code == 0);
  const auto shown = run_ej(work_tree, {"show", "1", "--json", "--diff"}, env);
  REQUIRE(shown.exit_code == 0);
  const auto attempt = json::parse(shown.out);
  CHECK(attempt["git"]["commit"] == head.out.substr(0, head.out.size() - 1));
  CHECK(attempt["git"]["dirty"] == true);
  CHECK_THAT(attempt["diff"].get<std::string>(), Catch::Contains("+changed away from its .git"));
  CHECK(std::filesystem::exists(dir.path() / "code.git" / "ej"));
}

TEST_CASE("an attempt in a linked worktree records that worktree's branch and changes")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  const auto worktree = repo.path() / "wt";
  git(repo.path(), {"worktree", "add", "-q", "-b", "other", worktree.string()});
  write_text(worktree / "README.md", "scratch repository\nchanged in the worktree\n");
  const auto tried = run_ej(worktree, {"try", "in the worktree", "--plan", "p"});
  INFO(tried.err);
  REQUIRE(tried.exit_code == 0);
  const auto attempt = json::parse(repo.ok({"show", "1", "--json", "--diff"}));
  CHECK(attempt["git"]["branch"] == "other");
  CHECK(attempt["git"]["dirty"] == true);
  CHECK_THAT(attempt["diff"].get<std::string>(), Catch::Contains("+changed in the worktree"));
}

TEST_CASE("status changes need a valid status and, for verdicts, a reason, history is kept")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"try", "NCCL_ALGO=Tree", "--plan", "p", "--tag", "nccl", "--hypothesis", "Tree is faster on PCIe"});

  auto bad_status = repo.ej({"status", "1", "done"});
  CHECK(bad_status.exit_code == 2);
  CHECK_THAT(bad_status.err, Catch::Contains("proposed running adopted rejected"));
  for (const auto* status : {"rejected", "blocked", "inconclusive", "superseded"}) {
    auto missing = repo.ej({"status", "1", status});
    CHECK(missing.exit_code == 2);
    CHECK_THAT(missing.err, Catch::Contains("--reason"));
  }
  CHECK(repo.ej({"status", "99", "running"}).exit_code == 1);
  CHECK(repo.ej({"status", "abc", "running"}).exit_code == 2);

  repo.ok({"status", "1", "running"});
  repo.ok({"status", "1", "rejected", "--reason", "no gain: 30.1 ms vs 29.8 ms"});
  const auto shown = json::parse(repo.ok({"show", "#1", "--json"}));
  CHECK(shown["status"] == "rejected");
  CHECK(shown["reason"] == "no gain: 30.1 ms vs 29.8 ms");
  REQUIRE(shown["status_history"].size() == 2);
  CHECK(shown["status_history"][0]["from"] == "proposed");
  CHECK(shown["status_history"][1]["to"] == "rejected");
  CHECK(shown["status_history"][1]["git"]["commit"].get<std::string>().size() == 40);
}

TEST_CASE("log filters by plan, status, tag, date and count")
{
  EjRepo repo;
  repo.ok({"plan", "new", "a", "--title", "A"});
  repo.ok({"plan", "new", "b", "--title", "B"});
  repo.ok({"try", "one", "--plan", "a", "--tag", "nccl"});
  repo.ok({"try", "two", "--plan", "b"});
  repo.ok({"try", "three", "--plan", "a"}, {{"EJ_NOW", "2020-01-01"}});
  repo.ok({"status", "2", "adopted"});

  const auto count = [&](const std::vector<std::string>& args) {
    auto full = args;
    full.insert(full.begin(), "log");
    full.push_back("--json");
    return json::parse(repo.ok(full)).size();
  };
  CHECK(count({}) == 3);
  CHECK(count({"--plan", "a"}) == 2);
  CHECK(count({"--status", "adopted"}) == 1);
  CHECK(count({"--tag", "nccl"}) == 1);
  CHECK(count({"-n", "1"}) == 1);
  CHECK(count({"--since", "2021-01-01"}) == 2);
  CHECK(json::parse(repo.ok({"log", "--json"}))[0]["number"] == 3);
  CHECK(repo.ej({"log", "--since", "last week"}).exit_code == 2);
  CHECK(repo.ej({"log", "--status", "nope"}).exit_code == 2);
}

TEST_CASE("notes and edits are recorded and shown in the timeline")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"try", "fusion", "--plan", "p", "--tag", "old"});
  repo.ok({"note", "1", "needs SM120 kernels"});
  repo.ok({"attempt", "edit", "1", "--title", "FlashInfer allreduce fusion", "--tag", "fusion", "--untag", "old"});
  const auto shown = json::parse(repo.ok({"show", "1", "--json"}));
  CHECK(shown["title"] == "FlashInfer allreduce fusion");
  CHECK(shown["tags"] == json::array({"fusion"}));
  CHECK(shown["notes"][0]["text"] == "needs SM120 kernels");
  CHECK(repo.ej({"note", "1", ""}).exit_code == 2);
  CHECK(repo.ej({"attempt", "edit", "1"}).exit_code == 2);
  CHECK(repo.ej({"try", "  ", "--plan", "p"}).exit_code == 2);
}

TEST_CASE("text with newlines, pipes, backticks, HTML and unicode is stored faithfully, invalid UTF-8 is refused")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  const std::string title = "a | b `code` <b>html</b> *x* _y_ # not a heading\nsecond line — ünïcödé";
  repo.ok({"try", title, "--plan", "p", "--hypothesis", "line1\nline2\r\n\ttabbed"});
  const auto shown = json::parse(repo.ok({"show", "1", "--json"}));
  CHECK(shown["title"] == title);
  CHECK(shown["hypothesis"] == "line1\nline2\r\n\ttabbed");

  const auto invalid = repo.ej({"try", "bad \xFF\xFE bytes", "--plan", "p"});
  CHECK(invalid.exit_code == 2);
  CHECK_THAT(invalid.err, Catch::Contains("UTF-8"));
  CHECK(json::parse(repo.ok({"log", "--json"})).size() == 1);
}

TEST_CASE("ej why explains status, reasons, blockers, retries and notes")
{
  EjRepo repo;
  repo.ok({"plan", "new", "eagle", "--title", "EAGLE"});
  repo.ok({"try", "CUDA 13 upgrade", "--plan", "eagle", "--tag", "toolkit"});
  repo.ok({"try", "FlashInfer allreduce fusion", "--plan", "eagle", "--blocked-by", "1"});
  repo.ok({"status", "2", "blocked", "--reason", "needs SM120 kernels that only the CUDA 13 build has"});
  repo.ok({"try", "NCCL_ALGO=Tree", "--plan", "eagle", "--tag", "nccl"});
  repo.ok({"status", "3", "rejected", "--reason", "no gain on PCIe"});
  repo.ok({"note", "3", "Ring and Tree within noise"});
  repo.ok({"try", "Fusion after the upgrade", "--plan", "eagle", "--retry-of", "2"});
  repo.ok({"status", "1", "adopted", "--reason", "92.6 tok/s vs 89.5"});

  const auto tree = repo.ok({"why", "NCCL_ALGO=Tree"});
  CHECK_THAT(tree, Catch::Contains("#3 NCCL_ALGO=Tree"));
  CHECK_THAT(tree, Catch::Contains("rejected since"));
  CHECK_THAT(tree, Catch::Contains("no gain on PCIe"));
  CHECK_THAT(tree, Catch::Contains("Ring and Tree within noise"));

  const auto fusion = repo.ok({"why", "2"});
  CHECK_THAT(fusion, Catch::Contains("Blocked by #1 CUDA 13 upgrade"));
  CHECK_THAT(fusion, Catch::Contains("since adopted"));
  CHECK_THAT(fusion, Catch::Contains("Retried by #4"));

  CHECK_THAT(repo.ok({"why", "toolkit"}), Catch::Contains("#1 CUDA 13 upgrade"));
  // Words of a title in order: the title matches come before other text's.
  const auto by_title = json::parse(repo.ok({"why", "Fusion after the UPGRADE", "--json"}));
  REQUIRE_FALSE(by_title.empty());
  CHECK(by_title[0]["number"] == 4);
  const auto missing = repo.ej({"why", "quantum annealing"});
  CHECK(missing.exit_code == 1);
  CHECK_THAT(missing.err, Catch::Contains("no attempt matches"));
  CHECK(json::parse(repo.ok({"why", "fusion", "--json"})).size() == 2);
}

TEST_CASE(
    "ej search lists matches in titles, hypotheses, reasons and notes newest first, query syntax is text")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"try", "smaller cuda-graph-max-bs", "--plan", "p", "--hypothesis", "less padding"});
  repo.ok({"try", "expert parallelism", "--plan", "p"});
  repo.ok({"status", "2", "rejected", "--reason", "allreduce cost dominates with padding"});
  const auto results = json::parse(repo.ok({"search", "padding", "--json"}));
  REQUIRE(results.size() == 2);
  CHECK(results[0]["number"] == 2); // newest first, as git log --grep lists
  CHECK(results[1]["number"] == 1);
  CHECK(json::parse(repo.ok({"search", "parallelism", "--json"})).size() == 1);
  CHECK(json::parse(repo.ok({"search", "-n", "1", "padding", "--json"}))[0]["number"] == 2);
  for (const auto* query : {"\"", "AND OR NOT", "cuda-graph-max-bs", "a:b", "(", "*"}) {
    INFO(query);
    CHECK(repo.ej({"search", query}).exit_code == 0);
  }
  CHECK(json::parse(repo.ok({"search", "cuda-graph-max-bs", "--json"})).size() == 1);
}

TEST_CASE("reindex gives identical answers to log, show and why")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"try", "a", "--plan", "p", "--tag", "t"});
  repo.ok({"try", "b", "--plan", "p", "--supersedes", "1"});
  repo.ok({"status", "1", "superseded", "--reason", "b is better"});
  repo.ok({"note", "2", "note text"});
  const auto log = repo.ok({"log", "--json"});
  const auto show = repo.ok({"show", "1", "--json"});
  const auto why = repo.ok({"why", "b"});
  CHECK_THAT(repo.ok({"reindex"}), Catch::Contains("rebuilt from 5 events"));
  CHECK(repo.ok({"log", "--json"}) == log);
  CHECK(repo.ok({"show", "1", "--json"}) == show);
  CHECK(repo.ok({"why", "b"}) == why);
  CHECK_THAT(repo.ok({"fsck"}), Catch::Contains("is ok"));
}

TEST_CASE("usage errors exit 2 and --help exits 0")
{
  EjRepo repo;
  CHECK(repo.ej({}).exit_code == 2);
  CHECK(repo.ej({"frobnicate"}).exit_code == 2);
  CHECK(repo.ej({"try"}).exit_code == 2);
  const auto help = repo.ej({"--help"});
  CHECK(help.exit_code == 0);
  CHECK_THAT(help.out, Catch::Contains("why"));
  CHECK(repo.ej({"try", "--help"}).exit_code == 0);
}
