// One journal for a team, through a real bare git remote: replicas, numbers, concurrent changes,
// races, killed syncs, events from a newer ej, documents byte for byte, export and import.
#include "support/ej_repo.h"
#include "support/skip.h"
#include "support/sshd_server.h"
#include "support/team.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <chrono>
#include <csignal>
#include <random>
#include <regex>
#include <set>
#include <thread>

using namespace ej::test;
using nlohmann::json;

namespace {

void exec_sql(const std::filesystem::path& db, const std::string& sql)
{
  sqlite3* handle = nullptr;
  REQUIRE(sqlite3_open(db.c_str(), &handle) == SQLITE_OK);
  char* message = nullptr;
  const int rc = sqlite3_exec(handle, sql.c_str(), nullptr, nullptr, &message);
  INFO((message != nullptr ? message : ""));
  sqlite3_free(message);
  sqlite3_close(handle);
  REQUIRE(rc == SQLITE_OK);
}

// Attempts #1 and #2 of plan p, numbered by the remote (a clone with a remote numbers nothing itself).
void plan_with_attempts(const Team& team)
{
  team.ok(0, {"plan", "new", "p", "--title", "Faster verify"});
  team.ok(0, {"try", "NCCL_ALGO=Tree", "--plan", "p", "--hypothesis", "tree wins on 8 GPUs"});
  team.ok(0, {"try", "fused allreduce", "--plan", "p"});
  team.ok(0, {"sync"});
  team.ok(0, {"status", "1", "rejected", "--reason", "no gain on PCIe"});
}

} // namespace

TEST_CASE("a clone gets the whole team journal with ej init and ej sync, numbers and documents alike")
{
  Team team;
  plan_with_attempts(team);
  CHECK_THAT(team.ok(0, {"sync"}), Catch::Contains("sent") && Catch::Contains("origin"));

  team.add_clone(1);
  const auto init = team.ok(1, {"init"});
  CHECK_THAT(init, Catch::Contains("origin has a shared journal") && Catch::Contains("ej sync"));
  team.ok(1, {"sync"});
  const auto log1 = json::parse(team.ok(1, {"log", "--json"}));
  REQUIRE(log1.size() == 2);
  CHECK(team.ok(1, {"show", "1", "--json"}).find("no gain on PCIe") != std::string::npos);

  // Before the next sync an attempt has a provisional number, shown as @xxxxxx.
  const auto provisional = team.ok(1, {"try", "CUDA graphs bs=16", "--plan", "p"});
  REQUIRE(provisional.size() == 8);
  CHECK(provisional[0] == '@');
  const std::string short_id = provisional.substr(0, 7);
  team.ok(1, {"note", short_id, "from the second machine"});
  // The document shows it by that name too, never by the number behind it.
  team.ok(1, {"status", short_id, "blocked", "--reason", "waits for #1"});
  team.ok(1, {"plan", "render", "p"});
  const auto before = read_text(team.clone_path(1) / "journal" / "p.md");
  CHECK_THAT(before, Catch::Contains("### " + short_id + " CUDA graphs bs=16") &&
                         Catch::Contains("| " + short_id + " | CUDA graphs bs=16 |") &&
                         Catch::Contains(" " + short_id + " CUDA graphs bs=16: blocked"));
  // A provisional number's digits appear nowhere; section hashes and commits are hex that may
  // hold ten digits in a row by chance, so they are left out of the search.
  const auto prose = std::regex_replace(before, std::regex("hash=[0-9a-f]+|`[0-9a-f]+`"), "");
  CHECK_FALSE(std::regex_search(prose, std::regex("[0-9]{10}")));
  const auto synced = team.ok(1, {"sync"});
  CHECK_THAT(synced, Catch::Contains("attempt " + short_id + " is now #3"));
  // The provisional form keeps naming it.
  CHECK(json::parse(team.ok(1, {"show", short_id, "--json"}))["number"] == 3);

  team.ok(0, {"sync"});
  CHECK(json::parse(team.ok(0, {"show", "3", "--json"}))["title"] == "CUDA graphs bs=16");
  CHECK(team.ok(0, {"log", "--json"}) == team.ok(1, {"log", "--json"}));
  CHECK(team.ok(0, {"why", "PCIe"}) == team.ok(1, {"why", "PCIe"}));
  team.ok(0, {"plan", "render", "p"});
  team.ok(1, {"plan", "render", "p"});
  CHECK(read_text(team.clone_path(0) / "journal" / "p.md") ==
        read_text(team.clone_path(1) / "journal" / "p.md"));

  // Nothing new: nothing moves.
  CHECK_THAT(team.ok(1, {"sync"}), Catch::Contains("sent 0 event(s), received 0"));
  CHECK_THAT(team.ok(1, {"sync", "--dry-run"}), Catch::Contains("would send 0"));
}

TEST_CASE("concurrent status changes of one attempt converge, both kept in its history")
{
  Team team;
  plan_with_attempts(team);
  team.ok(0, {"sync"});
  team.add_clone(1);
  team.ok(1, {"init"});
  team.ok(1, {"sync"});

  team.ok(0, {"status", "2", "adopted", "--reason", "2.4x on H200"});
  team.ok(1, {"status", "2", "blocked", "--reason", "needs NCCL 2.21"});
  team.ok(0, {"sync"});
  team.ok(1, {"sync"});
  team.ok(0, {"sync"});
  const auto a = json::parse(team.ok(0, {"show", "2", "--json"}));
  const auto b = json::parse(team.ok(1, {"show", "2", "--json"}));
  CHECK(a == b);
  // Clone 1 wrote after seeing clone 0's earlier events only through the same Lamport clock: the
  // order is (clock, replica), the same on both; both changes are in the history.
  const auto history = a["status_history"].dump();
  CHECK_THAT(history, Catch::Contains("2.4x on H200") && Catch::Contains("needs NCCL 2.21"));
}

TEST_CASE("three replicas syncing at once never give one number twice")
{
  Team team;
  plan_with_attempts(team);
  team.ok(0, {"sync"});
  for (int i = 1; i <= 2; ++i) {
    team.add_clone(i);
    team.ok(i, {"init"});
    team.ok(i, {"sync"});
  }
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i <= 2; ++i) {
      team.ok(i, {"try", "option " + std::to_string(round) + "." + std::to_string(i), "--plan", "p"});
    }
    std::vector<int> pids;
    for (int i = 0; i <= 2; ++i) {
      pids.push_back(start_command({EJ_BINARY, "sync"}, {team.clone_path(i), {}, ""}));
    }
    for (const int pid : pids) {
      CHECK(wait_command(pid) == 0);
    }
  }
  for (int i = 0; i <= 2; ++i) {
    team.ok(i, {"sync"});
  }
  for (int i = 0; i <= 2; ++i) {
    team.ok(i, {"sync"});
  }
  const auto log = json::parse(team.ok(0, {"log", "--json"}));
  CHECK(log.size() == 11);
  std::set<int> numbers;
  for (const auto& attempt : log) {
    numbers.insert(attempt["number"].get<int>());
  }
  CHECK(numbers.size() == 11);
  CHECK(*numbers.rbegin() == 11);
  CHECK(team.ok(0, {"log", "--json"}) == team.ok(1, {"log", "--json"}));
  CHECK(team.ok(1, {"log", "--json"}) == team.ok(2, {"log", "--json"}));
}

TEST_CASE("a sync killed at random points is completed by the next one")
{
  Team team;
  plan_with_attempts(team);
  team.ok(0, {"sync"});
  team.add_clone(1);
  team.ok(1, {"init"});
  team.ok(1, {"sync"});
  std::mt19937 random(20261201);
  for (int round = 0; round < 6; ++round) {
    team.ok(0, {"try", "attempt of round " + std::to_string(round), "--plan", "p"});
    team.ok(1, {"try", "other attempt of round " + std::to_string(round), "--plan", "p"});
    const int pid = start_command({EJ_BINARY, "sync"}, {team.clone_path(round % 2), {}, ""});
    std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution<int>(0, 60)(random)));
    ::kill(pid, SIGKILL);
    wait_command(pid);
    CHECK(team.ej(round % 2, {"fsck"}).exit_code == 0);
  }
  for (int pass = 0; pass < 2; ++pass) {
    team.ok(0, {"sync"});
    team.ok(1, {"sync"});
  }
  const auto log = json::parse(team.ok(0, {"log", "--json"}));
  CHECK(log.size() == 14);
  CHECK(team.ok(0, {"log", "--json"}) == team.ok(1, {"log", "--json"}));
  for (const auto& attempt : log) {
    CHECK(attempt["number"].is_number()); // every attempt has its number
  }
}

TEST_CASE("an event of a type from a newer ej is kept, synced and ignored with one warning")
{
  Team team;
  plan_with_attempts(team);
  exec_sql(team.db(0), R"sql(
    INSERT INTO events(id, replica, lamport, type, schema_version, time_ms, payload)
    SELECT '01JZZZZZZZZZZZZZZZZZZZZZZZ', value, 1000, 'gpu.clocks-locked', 7, 1800000000000, '{"sm_mhz": 1980}'
    FROM meta WHERE key = 'replica_id')sql");
  const auto reindexed = team.ej(0, {"reindex"});
  CHECK(reindexed.exit_code == 0);
  CHECK_THAT(reindexed.err, Catch::Contains("'gpu.clocks-locked'") && Catch::Contains("newer ej"));
  CHECK(team.ej(0, {"sync"}).exit_code == 0);

  team.add_clone(1);
  team.ok(1, {"init"});
  const auto received = team.ej(1, {"sync"});
  CHECK(received.exit_code == 0);
  CHECK(received.err.find("gpu.clocks-locked") != std::string::npos);
  const auto log = team.ej(1, {"log"});
  CHECK(log.exit_code == 0);
  CHECK(team.ok(1, {"export"}).find("gpu.clocks-locked") != std::string::npos);
  CHECK(team.ej(1, {"reindex"}).exit_code == 0);
  CHECK(team.ej(1, {"fsck"}).exit_code == 0);
}

TEST_CASE("ej export and ej import round-trip a journal, idempotently")
{
  Team team;
  plan_with_attempts(team);
  team.ok(0, {"note", "2", "measured twice"});
  team.ok(0, {"export", "-o", (team.clone_path(0) / "all.jsonl").string()});
  EjRepo other;
  const auto first = other.ok({"import", (team.clone_path(0) / "all.jsonl").string()});
  CHECK_THAT(first, Catch::Contains("imported 5 new event(s)") || Catch::Contains("new event(s) (0 already"));
  CHECK(other.ok({"log", "--json"}) == team.ok(0, {"log", "--json"}));
  CHECK_THAT(other.ok({"import", (team.clone_path(0) / "all.jsonl").string()}),
             Catch::Contains("imported 0 new event(s)"));
  const auto plan_only = team.ok(0, {"export", "--plan", "p"});
  CHECK(plan_only.find("\"plan.created\"") != std::string::npos);
  const auto bad = other.ej({"import", "/etc/hostname"});
  CHECK(bad.exit_code == 1);
  CHECK_THAT(bad.err, Catch::Contains("no ej events"));
}

TEST_CASE("corrections of the record travel by sync and by export and import, and read the same everywhere")
{
  Team team;
  plan_with_attempts(team); // #1 rejected, #2 proposed
  team.ok(0, {"bench", "add", "b", "--metric", "x=regex:x=([0-9.]+)", "--unit", "x=ms", "--", "true"});
  team.ok(0, {"record", "1", "--bench", "b", "--samples", "x=10,10.1,9.9,10.2,9.8,10.05", "--when",
              "2026-01-10"});
  team.ok(0, {"sync"}); // the run is numbered #1 by the remote
  team.ok(0, {"plan", "baseline", "p", "--run", "1"});
  team.ok(0,
          {"record", "2", "--bench", "b", "--samples", "x=5,5.05,4.95,5.1,4.9,5.02", "--when", "2026-01-11"});
  team.ok(0,
          {"record", "2", "--bench", "b", "--samples", "x=9,9.05,8.95,9.1,8.9,9.02", "--when", "2026-01-12"});
  team.ok(0, {"try", "retry of #1", "--plan", "p"});
  team.ok(0, {"sync"});
  team.add_clone(1);
  team.ok(1, {"init"});
  team.ok(1, {"sync"});

  // Corrections made on both replicas.
  team.ok(0, {"status", "1", "blocked", "--reason", "needs CUDA 13"});
  team.ok(0, {"attempt", "edit", "2", "--blocked-by", "1"});
  team.ok(0, {"run", "withdraw", "2", "--reason", "debug build"});
  team.ok(1, {"attempt", "edit", "3", "--retry-of", "1"});
  team.ok(1, {"status", "3", "adopted", "--reason", "fine on CUDA 13"});
  team.ok(1, {"plan", "baseline", "p", "--reason", "stock stack"});
  team.ok(0, {"sync"});
  team.ok(1, {"sync"});
  team.ok(0, {"sync"});

  for (const int clone : {0, 1}) {
    INFO("clone " << clone);
    CHECK_THAT(team.ok(clone, {"show", "1"}), Catch::Contains("blocked (resolved by #3): needs CUDA 13"));
    CHECK_THAT(team.ok(clone, {"show", "2"}), Catch::Contains("link:       blocked-by #1"));
    CHECK(json::parse(team.ok(clone, {"show", "run", "2", "--json"}))["withdrawn"]["reason"] ==
          "debug build");
    CHECK_THAT(team.ok(clone, {"plan", "baseline", "p"}), Catch::Contains("run #1 pinned: stock stack"));
    CHECK(team.ej(clone, {"fsck"}).exit_code == 0);
  }
  CHECK(team.ok(0, {"log", "--json"}) == team.ok(1, {"log", "--json"}));
  CHECK(team.ok(0, {"runs", "--json"}) == team.ok(1, {"runs", "--json"}));
  const auto document = team.ok(0, {"plan", "render", "p", "--stdout"});
  CHECK(document == team.ok(1, {"plan", "render", "p", "--stdout"}));
  CHECK_THAT(document, Catch::Contains("| resolved\u00a0by\u00a0#3 |") && !Catch::Contains("- run #2 "));

  // The whole journal, and the plan alone, carry them to a journal that never synced.
  for (const std::vector<std::string>& plan :
       {std::vector<std::string>{}, std::vector<std::string>{"--plan", "p"}}) {
    auto args = std::vector<std::string>{"export", "-o", (team.clone_path(0) / "all.jsonl").string()};
    args.insert(args.end(), plan.begin(), plan.end());
    team.ok(0, args);
    EjRepo other;
    other.ok({"import", (team.clone_path(0) / "all.jsonl").string()});
    CHECK(other.ok({"plan", "render", "p", "--stdout"}) == document);
    CHECK(other.ok({"runs", "--json"}) == team.ok(0, {"runs", "--json"}));
    other.ok({"reindex"});
    CHECK(other.ej({"fsck"}).exit_code == 0);
    CHECK(other.ok({"plan", "render", "p", "--stdout"}) == document);
  }
}

TEST_CASE("ej sync without a remote says how to add one")
{
  EjRepo repo;
  const auto result = repo.ej({"sync"});
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("git remote add origin"));
  const auto unknown = repo.ej({"sync", "nope"});
  CHECK(unknown.exit_code == 1);
  CHECK_THAT(unknown.err, Catch::Contains("no remote named 'nope'"));
}

TEST_CASE("two replicas share a journal through an ssh remote, the host key checked")
{
  if (const auto why = SshdServer::unavailable()) {
    EJ_SKIP_WITHOUT_SERVICE(*why);
  }
  SshdServer server;
  Team team;
  plan_with_attempts(team);
  // libgit2 speaks ssh itself: the user's key and known_hosts in ~/.ssh, as for any ssh client.
  TempDir home("ej-home");
  std::filesystem::create_directories(home / ".ssh");
  std::filesystem::copy_file(server.user_key(), home / ".ssh" / "id_ed25519");
  std::filesystem::copy_file(server.user_key().string() + ".pub", home / ".ssh" / "id_ed25519.pub");
  const std::map<std::string, std::string> env = {{"HOME", home.path().string()}, {"SSH_AUTH_SOCK", ""}};
  const auto url =
      "ssh://" + server.user() + "@127.0.0.1:" + std::to_string(server.port()) + team.remote().string();

  // An unknown host key is refused, and nothing moves.
  const auto refused = run_ej(team.clone_path(0), {"sync", url}, env);
  CHECK(refused.exit_code == 1);
  CHECK_THAT(refused.err, Catch::Contains("known_hosts"));

  std::filesystem::copy_file(server.known_hosts(), home / ".ssh" / "known_hosts");
  const auto sent = run_ej(team.clone_path(0), {"sync", url}, env);
  INFO(sent.err);
  REQUIRE(sent.exit_code == 0);
  CHECK_THAT(sent.out, Catch::Contains("sent"));

  team.add_clone(1);
  team.ok(1, {"init"});
  const auto received = run_ej(team.clone_path(1), {"sync", url}, env);
  INFO(received.err);
  REQUIRE(received.exit_code == 0);
  CHECK(team.ok(0, {"log", "--json"}) == team.ok(1, {"log", "--json"}));
}
