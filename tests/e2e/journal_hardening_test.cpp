// The journal against the faults issue 15 names: foreign and empty files, damage SQLite does not
// see at open, an older copy put back, a read-only or full file system, a network file system.
#include "support/ej_repo.h"
#include "support/runs.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sqlite3.h>
#include <sys/mount.h>

#include <cerrno>
#include <cstring>
#include <fstream>

using namespace ej::test;
using nlohmann::json;

namespace {

void sql(const std::filesystem::path& file, const std::string& statement)
{
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(file.c_str(), &db) == SQLITE_OK);
  char* message = nullptr;
  const int rc = sqlite3_exec(db, statement.c_str(), nullptr, nullptr, &message);
  INFO((message != nullptr ? message : ""));
  sqlite3_free(message);
  sqlite3_close(db);
  REQUIRE(rc == SQLITE_OK);
}

std::string journal_mode(const std::filesystem::path& file)
{
  const auto bytes = read_text(file);
  REQUIRE(bytes.size() >= 20);
  // Header bytes 18 and 19 are 2 in WAL mode, 1 in rollback mode.
  return bytes[18] == 2 ? "wal" : "rollback";
}

void prepare(const EjRepo& repo)
{
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"try", "first", "--plan", "p"});
}

} // namespace

TEST_CASE("a foreign SQLite file at the journal's path is refused without a byte of it changing")
{
  EjRepo repo;
  for (const auto& file : std::filesystem::directory_iterator(repo.ej_dir())) {
    std::filesystem::remove(file.path());
  }
  sql(repo.db_path(),
      "CREATE TABLE photos(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO photos VALUES (1, 'cat')");
  const auto before = read_text(repo.db_path());
  REQUIRE(journal_mode(repo.db_path()) == "rollback");
  for (const auto& args :
       std::vector<std::vector<std::string>>{{"log"}, {"init"}, {"try", "x", "--plan", "p"}}) {
    const auto result = repo.ej(args);
    INFO(args.front() << ": " << result.err);
    CHECK(result.exit_code == 1);
    CHECK_THAT(result.err,
               Catch::Contains("not an ej journal") && Catch::Contains("did not change the file"));
  }
  CHECK(read_text(repo.db_path()) == before);
  CHECK_FALSE(std::filesystem::exists(repo.ej_dir() / "journal.db-wal"));
}

TEST_CASE("an empty journal file is not silently made a new journal: only ej init creates one")
{
  EjRepo repo;
  prepare(repo);
  for (const auto& file : std::filesystem::directory_iterator(repo.ej_dir())) {
    std::filesystem::remove(file.path());
  }
  write_text(repo.db_path(), "");
  const auto log = repo.ej({"log"});
  CHECK(log.exit_code == 1);
  CHECK_THAT(log.err, Catch::Contains("empty file (0 bytes)") && Catch::Contains("ej init"));
  CHECK(std::filesystem::file_size(repo.db_path()) == 0);
  repo.ok({"init"});
  CHECK(repo.ok({"plan", "list"}).find("no plans") != std::string::npos);
}

TEST_CASE(
    "damage SQLite does not see at open stops writes once seen, and fsck --repair rebuilds from the events")
{
  EjRepo repo;
  prepare(repo);
  for (int i = 0; i < 30; ++i) {
    repo.ok({"note", "1", "note number " + std::to_string(i) + " " + std::string(200, 'n')});
  }
  repo.ok({"fsck"}); // checkpoints nothing, but proves it sound
  sql(repo.db_path(), "PRAGMA wal_checkpoint(TRUNCATE)");
  // Flip bytes inside a page of the notes table, where opening the file does not look.
  std::int64_t page = 0;
  {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(repo.db_path().c_str(), &db) == SQLITE_OK);
    sqlite3_stmt* statement = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, "SELECT rootpage FROM sqlite_master WHERE name = 'notes'", -1, &statement,
                               nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(statement) == SQLITE_ROW);
    page = sqlite3_column_int64(statement, 0);
    sqlite3_finalize(statement);
    sqlite3_close(db);
  }
  REQUIRE(page > 1);
  {
    std::fstream file(repo.db_path(), std::ios::in | std::ios::out | std::ios::binary);
    file.seekp((page - 1) * 4096);
    file.write("\x0d\xff\xff\xff\xff", 5); // a leaf page header made nonsense
  }
  const auto fsck = repo.ej({"fsck", "--full"});
  CHECK(fsck.exit_code == 1);
  CHECK_THAT(fsck.out, Catch::Contains("ej fsck --repair"));
  CHECK_THAT(fsck.out, !Catch::Contains("backup")); // there are none to name
  // From now on, nothing is written to it.
  const auto write = repo.ej({"try", "after the damage", "--plan", "p"});
  CHECK(write.exit_code == 1);
  CHECK_THAT(write.err, Catch::Contains("found damaged") && Catch::Contains("ej fsck --repair"));

  const auto repaired = repo.ej({"fsck", "--repair"});
  INFO(repaired.err);
  REQUIRE(repaired.exit_code == 0);
  CHECK_THAT(repaired.out, Catch::Contains("rebuilt") && Catch::Contains("the damaged file is kept"));
  repo.ok({"fsck", "--full"});
  CHECK_THAT(repo.ok({"show", "1"}), Catch::Contains("note number 29"));
  repo.ok({"try", "after the repair", "--plan", "p"});
  bool kept = false;
  for (const auto& file : std::filesystem::directory_iterator(repo.ej_dir())) {
    kept = kept || file.path().filename().string().starts_with("journal.db.damaged-");
  }
  CHECK(kept);
}

TEST_CASE("an older copy of the journal put back is refused for writing until accepted")
{
  EjRepo repo;
  prepare(repo);
  sql(repo.db_path(), "PRAGMA wal_checkpoint(TRUNCATE)");
  const auto old_copy = read_text(repo.db_path());
  repo.ok({"try", "second", "--plan", "p"});
  repo.ok({"try", "third", "--plan", "p"});
  sql(repo.db_path(), "PRAGMA wal_checkpoint(TRUNCATE)");
  std::filesystem::remove(repo.ej_dir() / "journal.db-wal");
  std::filesystem::remove(repo.ej_dir() / "journal.db-shm");
  write_text(repo.db_path(), old_copy); // a backup tool restored yesterday's file
  const auto write = repo.ej({"try", "would reuse #2", "--plan", "p"});
  CHECK(write.exit_code == 1);
  CHECK_THAT(write.err, Catch::Contains("went backwards") && Catch::Contains("ej fsck --accept"));
  CHECK(json::parse(repo.ok({"log", "--json"})).size() == 1); // still readable
  repo.ok({"fsck", "--accept"});
  CHECK_THAT(repo.ok({"try", "now accepted", "--plan", "p"}), Catch::Contains("#2"));
}

TEST_CASE("a journal on a read-only file is read, and writes say why they cannot be")
{
  EjRepo repo;
  prepare(repo);
  sql(repo.db_path(), "PRAGMA wal_checkpoint(TRUNCATE)");
  const auto chattr = run_command({"chattr", "+i", repo.db_path().string()});
  if (chattr.exit_code != 0) {
    FAIL("chattr +i is not possible here (it needs root and ext4-like file systems): " << chattr.err);
  }
  const auto log = repo.ej({"log", "--json"});
  const auto write = repo.ej({"try", "x", "--plan", "p"});
  run_command({"chattr", "-i", repo.db_path().string()});
  INFO(log.err);
  CHECK(log.exit_code == 0);
  CHECK(json::parse(log.out).size() == 1);
  CHECK(write.exit_code == 1);
  CHECK_THAT(write.err, Catch::Contains("cannot be written") && Catch::Contains("read-only"));
}

TEST_CASE("a full disk is called a full disk, and the journal stays readable")
{
  TempDir mount_point;
  if (::mount("tmpfs", mount_point.path().c_str(), "tmpfs", 0, "size=4m") != 0) {
    FAIL("mounting a small tmpfs is not possible here (it needs root): " << std::strerror(errno));
  }
  struct Unmount {
    std::filesystem::path path;
    ~Unmount() { ::umount2(path.c_str(), MNT_DETACH); }
  } unmount{mount_point.path()};
  const auto repo_dir = mount_point.path() / "repo";
  std::filesystem::create_directories(repo_dir);
  make_git_repo(repo_dir);
  REQUIRE(run_ej(repo_dir, {"init"}).exit_code == 0);
  REQUIRE(run_ej(repo_dir, {"plan", "new", "p", "--title", "Plan"}).exit_code == 0);
  REQUIRE(run_ej(repo_dir, {"try", "first", "--plan", "p"}).exit_code == 0);
  // Fill the disk.
  {
    std::ofstream filler(mount_point.path() / "filler", std::ios::binary);
    const std::string block(64 * 1024, 'x');
    while (filler.write(block.data(), static_cast<std::streamsize>(block.size()))) {
    }
  }
  const auto note = run_ej(repo_dir, {"note", "1", std::string(100000, 'y')});
  CHECK(note.exit_code == 1);
  CHECK_THAT(note.err, Catch::Contains("is full") && !Catch::Contains("--repair"));
  const auto log = run_ej(repo_dir, {"log", "--json"});
  INFO(log.err);
  CHECK(log.exit_code == 0);
  const auto fsck = run_ej(repo_dir, {"fsck"});
  CHECK_THAT(fsck.out + fsck.err, !Catch::Contains("--repair"));
}

TEST_CASE("on a network file system the journal uses the rollback journal, and says so once")
{
  EjRepo repo(false);
  const auto first = repo.ej({"init"}, {{"EJ_ASSUME_NETWORK_FS", "NFS"}});
  REQUIRE(first.exit_code == 0);
  CHECK_THAT(first.err, Catch::Contains("network file system (NFS)") && Catch::Contains("rollback journal"));
  const auto second = repo.ej({"plan", "new", "p", "--title", "Plan"}, {{"EJ_ASSUME_NETWORK_FS", "NFS"}});
  REQUIRE(second.exit_code == 0);
  CHECK(second.err.empty());
  CHECK(journal_mode(repo.db_path()) == "rollback");
  CHECK_FALSE(std::filesystem::exists(repo.ej_dir() / "journal.db-wal"));
}

TEST_CASE("concurrent renders of several documents never lose each other's region hashes")
{
  EjRepo repo;
  for (const auto* plan : {"a", "b", "c", "d"}) {
    repo.ok({"plan", "new", plan, "--title", std::string("Plan ") + plan});
    repo.ok({"try", std::string("first of ") + plan, "--plan", plan});
  }
  CommandOptions options;
  options.cwd = repo.path();
  // What is tested is that no render loses another's hashes; a render that SQLite's busy handler
  // lets wait longer than the default 10 s on a loaded machine is another matter.
  options.env = {{"EJ_BUSY_TIMEOUT_MS", "300000"}};
  for (int round = 0; round < 5; ++round) {
    std::vector<int> renders;
    for (const auto* plan : {"a", "b", "c", "d"}) {
      renders.push_back(start_command({EJ_BINARY, "plan", "render", plan}, options));
    }
    for (const int pid : renders) {
      CHECK(wait_command(pid) == 0);
    }
  }
  // Every document's hashes are there: rendering again sees no hand edit.
  for (const auto* plan : {"a", "b", "c", "d"}) {
    const auto again = repo.ej({"plan", "render", plan});
    INFO(plan << ": " << again.err);
    CHECK(again.exit_code == 0);
    CHECK_THAT(again.err, !Catch::Contains("edited"));
  }
}

TEST_CASE("region hashes an older ej kept in documents.json move into the journal")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"plan", "render", "p"});
  // As an older ej kept them: take them out of the journal into the file.
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(repo.db_path().c_str(), &db) == SQLITE_OK);
  json regions = json::object();
  {
    sqlite3_stmt* statement = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, "SELECT region, hash FROM document_regions WHERE doc = 'journal/p.md'", -1,
                               &statement, nullptr) == SQLITE_OK);
    while (sqlite3_step(statement) == SQLITE_ROW) {
      regions[reinterpret_cast<const char*>(sqlite3_column_text(statement, 0))] =
          reinterpret_cast<const char*>(sqlite3_column_text(statement, 1));
    }
    sqlite3_finalize(statement);
  }
  REQUIRE(sqlite3_exec(db, "DELETE FROM document_regions", nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
  REQUIRE_FALSE(regions.empty());
  write_text(repo.ej_dir() / "documents.json", json{{"journal/p.md", regions}}.dump());
  repo.ok({"try", "second", "--plan", "p"});
  const auto again = repo.ej({"plan", "render", "p"});
  INFO(again.err);
  CHECK(again.exit_code == 0); // no region counted as edited by hand
  CHECK_FALSE(std::filesystem::exists(repo.ej_dir() / "documents.json"));
}

TEST_CASE(
    "a disk that fills during a run: repeats wait in memory and are written when space returns, or ej says "
    "exactly what was kept")
{
  TempDir mount_point;
  if (::mount("tmpfs", mount_point.path().c_str(), "tmpfs", 0, "size=3m") != 0) {
    FAIL("mounting a small tmpfs is not possible here (it needs root): " << std::strerror(errno));
  }
  struct Unmount {
    std::filesystem::path path;
    ~Unmount() { ::umount2(path.c_str(), MNT_DETACH); }
  } unmount{mount_point.path()};
  const auto repo_dir = mount_point.path() / "repo";
  std::filesystem::create_directories(repo_dir);
  make_git_repo(repo_dir);
  REQUIRE(run_ej(repo_dir, {"init"}).exit_code == 0);
  const auto filler = (mount_point.path() / "filler").string();
  // Repeat 20 fills the disk; repeat 60 frees it (when FREE is set).
  write_text(repo_dir / "bench.sh", "n=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo $n > count\n"
                                    "[ $n -eq 20 ] && { dd if=/dev/zero of=" +
                                        filler +
                                        " bs=64k 2>/dev/null; true; }\n"
                                        "[ $n -eq 60 ] && [ -n \"$FREE\" ] && rm -f " +
                                        filler +
                                        "\n"
                                        "sleep 0.05; echo v=$n\n");
  git(repo_dir, {"add", "bench.sh"});
  git(repo_dir, {"commit", "-q", "-m", "bench"});
  REQUIRE(run_ej(repo_dir, {"bench", "add", "b", "--repeat", "80", "--metric", "v=regex:v=([0-9]+)", "--",
                            "sh", "bench.sh"})
              .exit_code == 0);
  std::filesystem::remove(repo_dir / "count");
  const auto freed = run_ej(repo_dir, {"run", "b", "--quiet", "--env", "FREE=1"});
  INFO(freed.err);
  CHECK(freed.exit_code == 0);
  CHECK_THAT(freed.err, Catch::Contains("cannot be written to the journal yet"));
  const auto run = json::parse(run_ej(repo_dir, {"show", "run", "1", "--json"}).out);
  CHECK(run["status"] == "finished");
  CHECK(samples_of(run, "v").size() == 80);

  // Never freed: the end says what is in the journal and what is not.
  std::filesystem::remove(repo_dir / "count");
  std::filesystem::remove(filler);
  const auto full = run_ej(repo_dir, {"run", "b", "--quiet"});
  std::filesystem::remove(filler);
  INFO(full.err);
  CHECK(full.exit_code == 1);
  CHECK_THAT(full.err, Catch::Contains("is full") &&
                           Catch::Contains("repeat(s) of run #2 are in the journal; the ") &&
                           Catch::Contains("measured after them could not be written"));
}
