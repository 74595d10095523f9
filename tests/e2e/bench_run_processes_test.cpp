// What a run leaves running: leftovers that ignore SIGTERM, and another ej that must not take a
// live run for abandoned.
#include "support/ej_repo.h"
#include "support/runs.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sqlite3.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <thread>

using namespace ej::test;
using nlohmann::json;

namespace {

// The pids a benchmark wrote, one a line, once there are at least `count` of them.
std::vector<int> read_pids(const std::filesystem::path& path, std::size_t count)
{
  std::vector<int> pids;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    pids.clear();
    std::ifstream in(path);
    for (int pid = 0; in >> pid;) {
      pids.push_back(pid);
    }
    if (pids.size() >= count) {
      return pids;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  FAIL("the benchmark did not write " << count << " pids to " << path);
  return pids;
}

std::int64_t count_events(const EjRepo& repo, const std::string& type)
{
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(repo.db_path().c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* select = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, "SELECT count(*) FROM events WHERE type = ?", -1, &select, nullptr) ==
          SQLITE_OK);
  sqlite3_bind_text(select, 1, type.c_str(), -1, SQLITE_TRANSIENT);
  std::int64_t count = -1;
  if (sqlite3_step(select) == SQLITE_ROW) {
    count = sqlite3_column_int64(select, 0);
  }
  sqlite3_finalize(select);
  sqlite3_close(db);
  return count;
}

std::string status_of_run(const EjRepo& repo, int number)
{
  const auto runs = json::parse(repo.ok({"runs", "--json"}));
  for (const auto& run : runs) {
    if (run["number"] == number) {
      return run["status"];
    }
  }
  return "";
}

} // namespace

TEST_CASE("leftovers that ignore SIGTERM are killed after the grace period, not piled up across repeats")
{
  EjRepo repo;
  // Each repeat leaves a process that ignores SIGTERM and holds none of the benchmark's pipes; the
  // next repeat notes any earlier one still alive.
  repo.ok({"bench", "add", "leaky", "--repeat", "2", "--shell",
           "for p in $(cat pids.txt 2>/dev/null); do s=$(sed -n 's/^State:[[:space:]]*\\(.\\).*/\\1/p' "
           "/proc/$p/status "
           "2>/dev/null); [ -n \"$s\" ] && [ \"$s\" != Z ] && echo $p >> alive.txt; done; "
           "(trap '' TERM; exec sleep 60) > /dev/null 2>&1 & echo $! >> pids.txt"});
  const auto result = repo.ej({"run", "leaky", "--quiet"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  const auto pids = read_pids(repo.path() / "pids.txt", 2);
  CHECK_FALSE(std::filesystem::exists(repo.path() / "alive.txt"));
  for (const int pid : pids) {
    INFO("leftover " << pid);
    CHECK_FALSE(process_alive(pid));
    ::kill(pid, SIGKILL);
  }
  CHECK(show_run(repo, 1)["status"] == "finished");
}

TEST_CASE("a live run of an ej installed as ej-1.2 is not taken for abandoned by another ej, and ends once")
{
  EjRepo repo;
  TempDir bin("ej-copy");
  const auto copy = bin.path() / "ej-1.2";
  std::filesystem::copy_file(EJ_BINARY, copy);
  std::filesystem::permissions(copy, std::filesystem::perms::owner_all);
  repo.ok({"bench", "add", "long", "--repeat", "10", "--shell", "echo x >> count.txt; sleep 0.1"});
  const auto ej = start_command({copy.string(), "run", "long", "--quiet"}, {repo.path(), {}, {}});
  REQUIRE(wait_for_file(repo.path() / "count.txt", 20));
  repo.ok({"log"});
  repo.ok({"fsck"});
  CHECK(status_of_run(repo, 1) == "started");
  CHECK(wait_command(ej) == 0);
  CHECK(status_of_run(repo, 1) == "finished");
  CHECK(count_events(repo, "run.finished") == 1);
}
