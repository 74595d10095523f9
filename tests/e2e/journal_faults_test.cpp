#include "support/ej_repo.h"
#include "support/sanitized.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <chrono>
#include <csignal>
#include <map>
#include <random>
#include <thread>

using namespace ej::test;
using nlohmann::json;

namespace {

std::int64_t count_rows(const std::filesystem::path& db_path, const std::string& sql)
{
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_busy_timeout(db, 5000);
  sqlite3_stmt* statement = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(statement) == SQLITE_ROW);
  const auto value = sqlite3_column_int64(statement, 0);
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return value;
}

void prepare_plan(const EjRepo& repo)
{
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"try", "attempt", "--plan", "p"});
}

} // namespace

TEST_CASE("a locked journal makes a writer wait, then fail clearly with nothing half-written")
{
  EjRepo repo;
  prepare_plan(repo);
  const auto events_before = count_rows(repo.db_path(), "SELECT count(*) FROM events");

  sqlite3* holder = nullptr;
  REQUIRE(sqlite3_open(repo.db_path().c_str(), &holder) == SQLITE_OK);
  REQUIRE(sqlite3_exec(holder, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK);
  const auto started = std::chrono::steady_clock::now();
  const auto result = repo.ej({"note", "1", "while locked"}, {{"EJ_BUSY_TIMEOUT_MS", "400"}});
  const auto waited = std::chrono::steady_clock::now() - started;
  sqlite3_exec(holder, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(holder);

  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("locked by another process") && Catch::Contains("try again"));
  CHECK(waited >= std::chrono::milliseconds(350));
  CHECK(count_rows(repo.db_path(), "SELECT count(*) FROM events") == events_before);
  CHECK(repo.ok({"note", "1", "after the lock"}) == "#1: note added\n");
}

TEST_CASE("eight processes adding notes at once record every note")
{
  EjRepo repo;
  prepare_plan(repo);
  constexpr int k_writers = 8;
  constexpr int k_notes_each = full_or_sanitized(25, 8);
  // What is tested is that no note is lost; a writer that SQLite's busy handler lets wait longer
  // than the default 10 s on a loaded machine is another matter (the lock test above covers it).
  const std::map<std::string, std::string> patient{{"EJ_BUSY_TIMEOUT_MS", "300000"}};
  std::vector<std::thread> writers;
  std::vector<int> failures(k_writers, 0);
  for (int w = 0; w < k_writers; ++w) {
    writers.emplace_back([&, w] {
      for (int i = 0; i < k_notes_each; ++i) {
        const auto result =
            run_ej(repo.path(), {"note", "1", "writer " + std::to_string(w) + " note " + std::to_string(i)},
                   patient);
        if (result.exit_code != 0) {
          ++failures[static_cast<std::size_t>(w)];
        }
      }
    });
  }
  for (auto& writer : writers) {
    writer.join();
  }
  for (int w = 0; w < k_writers; ++w) {
    CHECK(failures[static_cast<std::size_t>(w)] == 0);
  }
  CHECK(count_rows(repo.db_path(), "SELECT count(*) FROM notes") == k_writers * k_notes_each);
  CHECK_THAT(repo.ok({"fsck"}), Catch::Contains("is ok"));
}

TEST_CASE("writers killed with SIGKILL mid-work never leave a half-applied event")
{
  EjRepo repo;
  prepare_plan(repo);
  std::mt19937 random(12345);
  std::uniform_int_distribution<int> delay_us(0, 6000);
  for (int round = 0; round < 40; ++round) {
    const auto pid =
        start_command({EJ_BINARY, round % 2 == 0 ? "try" : "note", round % 2 == 0 ? "killed attempt" : "1",
                       round % 2 == 0 ? "--plan=p" : "killed note"},
                      {repo.path(), {}, {}});
    std::this_thread::sleep_for(std::chrono::microseconds(delay_us(random)));
    ::kill(pid, SIGKILL);
    wait_command(pid);
  }
  const auto fsck = repo.ej({"fsck", "--full"});
  INFO(fsck.out << fsck.err);
  CHECK(fsck.exit_code == 0);
  const auto events = count_rows(repo.db_path(), "SELECT count(*) FROM events");
  const auto derived =
      count_rows(repo.db_path(), "SELECT (SELECT count(*) FROM plans) + (SELECT count(*) FROM attempts) + "
                                 "(SELECT count(*) FROM notes)");
  CHECK(events == derived);
}

TEST_CASE(
    "a corrupt or foreign journal file gives a clear error naming it and ej fsck, and is not overwritten")
{
  EjRepo repo;
  const std::string garbage = "this is not a database\n" + std::string(8000, 'z');
  for (const auto& file : std::filesystem::directory_iterator(repo.ej_dir())) {
    std::filesystem::remove(file.path());
  }
  write_text(repo.db_path(), garbage);
  for (const auto& args : std::vector<std::vector<std::string>>{{"log"}, {"init"}, {"note", "1", "x"}}) {
    const auto result = repo.ej(args);
    INFO(args.front() << ": " << result.err);
    CHECK(result.exit_code == 1);
    CHECK_THAT(result.err, Catch::Contains("journal.db") && Catch::Contains("ej fsck"));
  }
  const auto fsck = repo.ej({"fsck"});
  CHECK(fsck.exit_code == 1);
  CHECK_THAT(fsck.out, Catch::Contains("problem"));
  CHECK(read_text(repo.db_path()) == garbage);
}

TEST_CASE("a journal from a newer ej is read but never written")
{
  EjRepo repo;
  prepare_plan(repo);
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(repo.db_path().c_str(), &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, "PRAGMA user_version = 999", nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
  CHECK(json::parse(repo.ok({"log", "--json"})).size() == 1);
  const auto write = repo.ej({"note", "1", "refused"});
  CHECK(write.exit_code == 1);
  CHECK_THAT(write.err, Catch::Contains("newer ej") && Catch::Contains("upgrade ej"));
  CHECK(count_rows(repo.db_path(), "SELECT count(*) FROM notes") == 0);
}
