// A write-ahead log that is not the journal's own (issue 26, item 8): SQLite replays any valid WAL
// beside a database file, so ej checks a -wal against the file before SQLite opens it.
#include "support/ej_repo.h"
#include "support/sanitized.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <sys/mount.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <thread>

using namespace ej::test;
using nlohmann::json;

namespace {

// A connection that keeps the journal open, as another ej would: the ej that closes last no longer
// checkpoints, so what it wrote stays in the -wal.
class HeldJournalConnection {
public:
  explicit HeldJournalConnection(const std::filesystem::path& file)
  {
    REQUIRE(sqlite3_open(file.c_str(), &m_db) == SQLITE_OK);
    sqlite3_busy_timeout(m_db, 10000);
    REQUIRE(sqlite3_exec(m_db, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr) == SQLITE_OK);
  }
  ~HeldJournalConnection() { sqlite3_close(m_db); }
  // Closing last no longer checkpoints: what the log holds stays there, as after a crash.
  void keep_log_at_close() { sqlite3_db_config(m_db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr); }
  HeldJournalConnection(const HeldJournalConnection&) = delete;
  HeldJournalConnection& operator=(const HeldJournalConnection&) = delete;

private:
  sqlite3* m_db = nullptr;
};

std::vector<std::filesystem::path> wal_kept_aside(const EjRepo& repo)
{
  std::vector<std::filesystem::path> found;
  for (const auto& entry : std::filesystem::directory_iterator(repo.ej_dir())) {
    if (entry.path().filename().string().starts_with("journal.db-wal.foreign-")) {
      found.push_back(entry.path());
    }
  }
  return found;
}

std::vector<std::string> attempt_titles(const EjRepo& repo)
{
  std::vector<std::string> out;
  for (const auto& attempt : json::parse(repo.ok({"log", "--json"}))) {
    out.push_back(attempt["title"]);
  }
  return out;
}

} // namespace

TEST_CASE("another journal's -wal copied beside the journal is kept aside, never replayed")
{
  EjRepo victim;
  victim.ok({"plan", "new", "p", "--title", "Plan"});
  victim.ok({"try", "the victim's own attempt", "--plan", "p"});
  REQUIRE(std::filesystem::file_size(victim.ej_dir() / "journal.db-wal") == 0); // all in the file

  EjRepo other;
  {
    const HeldJournalConnection open(other.db_path());
    other.ok({"plan", "new", "p", "--title", "Other plan"});
    other.ok({"try", "another journal's attempt", "--plan", "p"});
    other.ok({"try", "another journal's second attempt", "--plan", "p"});
    REQUIRE(std::filesystem::file_size(other.ej_dir() / "journal.db-wal") > 0);
    std::filesystem::copy_file(other.ej_dir() / "journal.db-wal", victim.ej_dir() / "journal.db-wal",
                               std::filesystem::copy_options::overwrite_existing);
  }
  const auto journal_before = read_text(victim.db_path());

  const auto refused = victim.ej({"log", "--json"});
  INFO(refused.out << refused.err);
  CHECK(refused.exit_code == 1);
  CHECK_THAT(refused.err, Catch::Contains("was not written to") && Catch::Contains("moved the log aside") &&
                              Catch::Contains("run the command again"));
  CHECK(read_text(victim.db_path()) == journal_before); // not a byte of the journal changed
  CHECK(wal_kept_aside(victim).size() == 1);

  CHECK(attempt_titles(victim) == std::vector<std::string>{"the victim's own attempt"});
  CHECK_THAT(victim.ok({"try", "after the foreign log", "--plan", "p"}), Catch::Contains("#2"));
  CHECK_THAT(victim.ok({"fsck", "--full"}), Catch::Contains("is ok"));
}

TEST_CASE(
    "the first command after a foreign -wal appeared, a write or fsck --repair, refuses it the same way")
{
  for (const auto& command :
       std::vector<std::vector<std::string>>{{"try", "x", "--plan", "p"}, {"fsck", "--repair"}}) {
    EjRepo victim;
    victim.ok({"plan", "new", "p", "--title", "Plan"});
    victim.ok({"try", "the victim's own attempt", "--plan", "p"});
    EjRepo other;
    {
      const HeldJournalConnection open(other.db_path());
      other.ok({"plan", "new", "q", "--title", "Other plan"});
      std::filesystem::copy_file(other.ej_dir() / "journal.db-wal", victim.ej_dir() / "journal.db-wal",
                                 std::filesystem::copy_options::overwrite_existing);
    }
    const auto refused = victim.ej(command);
    INFO(command.front() << ": " << refused.out << refused.err);
    CHECK(refused.exit_code == 1);
    CHECK_THAT(refused.err, Catch::Contains("was not written to"));
    CHECK(wal_kept_aside(victim).size() == 1);
    CHECK(attempt_titles(victim) == std::vector<std::string>{"the victim's own attempt"});
    CHECK_THAT(victim.ok({"fsck", "--full"}), Catch::Contains("is ok"));
  }
}

TEST_CASE("an older copy of the journal file put back beside the newer file's -wal is not replayed onto it")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"try", "first", "--plan", "p"});
  const auto old_copy = read_text(repo.db_path());
  for (int i = 0; i < 5; ++i) {
    repo.ok({"note", "1", "checkpointed note " + std::to_string(i)});
  }
  {
    HeldJournalConnection open(repo.db_path());
    repo.ok({"try", "only in the log", "--plan", "p"});
    REQUIRE(std::filesystem::file_size(repo.ej_dir() / "journal.db-wal") > 0);
    open.keep_log_at_close(); // as if the machine went down: the log stays as it is
  }
  write_text(repo.db_path(), old_copy); // a backup tool restores the file, not its log
  const auto refused = repo.ej({"log", "--json"});
  INFO(refused.out << refused.err);
  CHECK(refused.exit_code == 1);
  CHECK_THAT(refused.err,
             Catch::Contains("was not written to") && Catch::Contains("put the file it belongs to back"));
  CHECK(wal_kept_aside(repo).size() == 1);
  // The high-water mark then sees the journal went backwards, as for any older copy.
  const auto write = repo.ej({"try", "x", "--plan", "p"});
  CHECK_THAT(write.err, Catch::Contains("went backwards"));
  CHECK(attempt_titles(repo) == std::vector<std::string>{"first"});
}

TEST_CASE("the -wal of a SQLite file that is not a journal is kept aside")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"try", "mine", "--plan", "p"});
  TempDir elsewhere;
  const auto photos = elsewhere.path() / "photos.db";
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(photos.c_str(), &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(
              db,
              "PRAGMA journal_mode=WAL; CREATE TABLE photos(name TEXT); INSERT INTO photos VALUES ('cat')",
              nullptr, nullptr, nullptr) == SQLITE_OK);
  std::filesystem::copy_file(elsewhere.path() / "photos.db-wal", repo.ej_dir() / "journal.db-wal",
                             std::filesystem::copy_options::overwrite_existing);
  sqlite3_close(db);
  const auto refused = repo.ej({"log"});
  CHECK(refused.exit_code == 1);
  CHECK_THAT(refused.err, Catch::Contains("none written by ej to this journal"));
  CHECK(attempt_titles(repo) == std::vector<std::string>{"mine"});
}

TEST_CASE("many ej writing and reading at once, their log kept unreplayed, never take it for another file's")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"try", "attempt", "--plan", "p"});
  // Kept open throughout: the log is never emptied at close, so every ej below reads a log that
  // other processes are writing, checkpointing (every 1000 pages) and restarting.
  const HeldJournalConnection open(repo.db_path());
  constexpr int k_writers = 6;
  constexpr int k_notes_each = full_or_sanitized(30, 8);
  // What is tested is that no ej takes the log for another file's; a writer that SQLite's busy
  // handler lets wait longer than the default 10 s on a loaded machine is another matter.
  const std::map<std::string, std::string> patient{{"EJ_BUSY_TIMEOUT_MS", "300000"}};
  std::atomic<int> failures{0};
  std::atomic<bool> writing{true};
  std::vector<std::string> errors(k_writers + 2);
  std::vector<std::thread> threads;
  for (int w = 0; w < k_writers; ++w) {
    threads.emplace_back([&, w] {
      for (int i = 0; i < k_notes_each; ++i) {
        const auto text =
            "writer " + std::to_string(w) + " note " + std::to_string(i) + std::string(3000, 'x');
        const auto result = run_ej(repo.path(), {"note", "1", text}, patient);
        if (result.exit_code != 0) {
          ++failures;
          errors[static_cast<std::size_t>(w)] = result.err;
        }
      }
    });
  }
  for (int r = 0; r < 2; ++r) {
    threads.emplace_back([&, r] {
      while (writing) {
        const auto result = run_ej(repo.path(), {"show", "1"}, patient);
        if (result.exit_code != 0) {
          ++failures;
          errors[static_cast<std::size_t>(k_writers + r)] = result.err;
        }
      }
    });
  }
  for (int w = 0; w < k_writers; ++w) {
    threads[static_cast<std::size_t>(w)].join();
  }
  writing = false;
  for (std::size_t t = k_writers; t < threads.size(); ++t) {
    threads[t].join();
  }
  for (const auto& error : errors) {
    INFO(error);
    CHECK(error.empty());
  }
  CHECK(failures == 0);
  CHECK(wal_kept_aside(repo).empty());
  CHECK(std::filesystem::file_size(repo.ej_dir() / "journal.db-wal") > 0); // every ej above checked one
  const auto shown = repo.ok({"show", "1", "--json"});
  CHECK(json::parse(shown)["notes"].size() == k_writers * k_notes_each);
}

namespace {

// The directory mounted read-only at another place, unmounted at the end of the test.
class ReadOnlyMount {
public:
  explicit ReadOnlyMount(const std::filesystem::path& source)
  {
    if (::mount(source.c_str(), m_point.path().c_str(), nullptr, MS_BIND, nullptr) != 0 ||
        ::mount(nullptr, m_point.path().c_str(), nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY, nullptr) != 0) {
      FAIL("a read-only bind mount is not possible here (it needs root): " << std::strerror(errno));
    }
  }
  ~ReadOnlyMount() { ::umount2(m_point.path().c_str(), MNT_DETACH); }
  ReadOnlyMount(const ReadOnlyMount&) = delete;
  ReadOnlyMount& operator=(const ReadOnlyMount&) = delete;
  const std::filesystem::path& path() const { return m_point.path(); }

private:
  TempDir m_point{"ej-readonly-mount"};
};

} // namespace

TEST_CASE("a journal on a read-only mount without its -shm file is read, and a -wal it cannot read is said")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"try", "first", "--plan", "p"});
  std::filesystem::remove(repo.ej_dir() / "journal.db-shm");
  std::filesystem::remove(repo.ej_dir() / "journal.db-wal");
  {
    const ReadOnlyMount mount(repo.path());
    for (const auto& command :
         std::vector<std::vector<std::string>>{{"log", "--json"}, {"show", "1"}, {"fsck"}}) {
      const auto read = run_ej(mount.path(), command);
      INFO(command.front() << ": " << read.out << read.err);
      CHECK(read.exit_code == 0);
      CHECK(read.err.find("warning") == std::string::npos);
    }
    CHECK(json::parse(run_ej(mount.path(), {"log", "--json"}).out).size() == 1);
    const auto write = run_ej(mount.path(), {"try", "x", "--plan", "p"});
    CHECK(write.exit_code == 1);
    CHECK_THAT(write.err, Catch::Contains("cannot be written") && Catch::Contains("read-only"));
  }
  // A -wal that still holds a commit (copied while in use, or after a crash): SQLite reads it only
  // through a -shm file, which cannot be made there. ej reads the file and says what it leaves out.
  {
    HeldJournalConnection open(repo.db_path());
    repo.ok({"try", "second, only in the log", "--plan", "p"});
    open.keep_log_at_close();
  }
  std::filesystem::remove(repo.ej_dir() / "journal.db-shm");
  REQUIRE(std::filesystem::file_size(repo.ej_dir() / "journal.db-wal") > 0);
  const ReadOnlyMount mount(repo.path());
  const auto read = run_ej(mount.path(), {"log", "--json"});
  INFO(read.err);
  CHECK(read.exit_code == 0);
  CHECK(json::parse(read.out).size() == 1);
  CHECK_THAT(read.err, Catch::Contains("holds 1 transaction(s)") && Catch::Contains("without them") &&
                           Catch::Contains("writable place"));
}
