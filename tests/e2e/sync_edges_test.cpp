// Sharing a journal at its edges, through a real bare git remote: numbers shown before the first
// sync, a journal put back from an older copy, and what other replicas publish that cannot be
// imported (a clock far ahead, nesting a million deep, an event naming an attempt nobody sent).
#include "support/ej_repo.h"
#include "support/team.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <string>

using namespace ej::test;
using nlohmann::json;

namespace {

std::string sql_text(const std::filesystem::path& db, const std::string& sql)
{
  sqlite3* handle = nullptr;
  REQUIRE(sqlite3_open(db.c_str(), &handle) == SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  REQUIRE(sqlite3_prepare_v2(handle, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK);
  std::string out;
  if (sqlite3_step(statement) == SQLITE_ROW && sqlite3_column_text(statement, 0) != nullptr) {
    out = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
  }
  sqlite3_finalize(statement);
  sqlite3_close(handle);
  return out;
}

std::string replica_of(const Team& team, int index)
{
  return sql_text(team.db(index), "SELECT value FROM meta WHERE key = 'replica_id'");
}

std::string first_line(const std::string& text)
{
  return text.substr(0, text.find('\n'));
}

// Plan p with attempts #1 and #2 on clone 0, synced, and clone 1 synced with it.
void numbered_plan(const Team& team)
{
  team.ok(0, {"plan", "new", "p", "--title", "Faster verify"});
  team.ok(0, {"try", "NCCL_ALGO=Tree", "--plan", "p"});
  team.ok(0, {"try", "fused allreduce", "--plan", "p"});
  team.ok(0, {"sync"});
  team.add_clone(1);
  team.ok(1, {"init"});
  team.ok(1, {"sync"});
}

// A batch of events published on the remote as replica `replica` would, by hand: its ref holds one
// commit adding events/000000000001.jsonl.
void publish_by_hand(const Team& team, const std::string& replica, const std::string& jsonl)
{
  const auto dir = team.root() / ("forged-" + replica);
  make_git_repo(dir);
  git(dir, {"checkout", "-q", "--orphan", "batch"});
  git(dir, {"rm", "-rq", "--cached", "."});
  std::filesystem::create_directories(dir / "events");
  write_text(dir / "events" / "000000000001.jsonl", jsonl);
  write_text(dir / "events" / "000000000001.blobs", "");
  git(dir, {"add", "events"});
  git(dir, {"commit", "-q", "-m",
            "ej journal events of replica " + replica + "\n\nej-batch: 000000000001\nej-last-seq: 1\n"});
  git(dir, {"push", "-q", team.remote_url(), "HEAD:refs/ej/replicas/" + replica});
}

std::string envelope(const std::string& id, const std::string& replica, const std::string& lamport,
                     const std::string& type, const std::string& payload)
{
  return R"({"id":")" + id + R"(","replica":")" + replica + R"(","lamport":)" + lamport + R"(,"type":")" +
         type + R"(","schema_version":2,"time_ms":1767225600000,"payload":)" + payload + "}\n";
}

} // namespace

TEST_CASE("a clone with a remote shows provisional names until its first sync, which reports them moved")
{
  Team team;
  numbered_plan(team);
  team.add_clone(2);
  team.ok(2, {"init"});
  // Work recorded before the clone's first sync: the remote has given #1 and #2 to clone 0's.
  team.ok(2, {"plan", "new", "q", "--title", "Second machine"});
  const auto attempt = first_line(team.ok(2, {"try", "CUDA graphs bs=16", "--plan", "q"}));
  REQUIRE(attempt.size() == 7);
  CHECK(attempt[0] == '@');
  team.ok(2, {"bench", "add", "b", "--repeat", "1", "--shell", "true"});
  const auto run = team.ok(2, {"run", "b", "--attempt", attempt, "--quiet"});
  CHECK_THAT(run, Catch::StartsWith("run @"));
  const auto run_name = run.substr(4, 7);
  // Every listing shows the same provisional name, never a raw number.
  const auto log = team.ok(2, {"log", "--all-plans"});
  CHECK_THAT(log, Catch::StartsWith(attempt));
  CHECK_THAT(team.ok(2, {"runs"}), Catch::Contains(run_name));

  const auto synced = team.ok(2, {"sync"});
  CHECK_THAT(synced, Catch::Contains("attempt " + attempt + " is now #3"));
  CHECK_THAT(synced, Catch::Contains("run " + run_name + " is now #1"));
  CHECK(json::parse(team.ok(2, {"show", attempt, "--json"}))["number"] == 3);
  CHECK(json::parse(team.ok(2, {"show", "1", "--json"}))["title"] == "NCCL_ALGO=Tree");
}

TEST_CASE("ej runs lists the runs not numbered yet newest first, in the order they were recorded")
{
  Team team;
  numbered_plan(team);
  team.ok(0, {"bench", "add", "b", "--repeat", "1", "--shell", "true"});
  team.ok(0, {"run", "b", "--quiet"});
  team.ok(0, {"sync"});
  team.ok(1, {"sync"});
  // Provisional names come from the ids' random part: six runs sorted by them would rarely come out
  // in the order they were recorded.
  std::vector<std::string> recorded;
  for (int i = 0; i < 6; ++i) {
    const auto run = team.ok(1, {"run", "b", "--quiet", "--label", "local " + std::to_string(i)});
    REQUIRE_THAT(run, Catch::StartsWith("run @"));
    recorded.push_back(run.substr(4, 7));
  }
  std::vector<std::string> expected(recorded.rbegin(), recorded.rend());
  expected.push_back("#1"); // numbered by the remote before them

  std::vector<std::string> listed;
  for (const auto& run : json::parse(team.ok(1, {"runs", "--json"}))) {
    listed.push_back(run["name"].get<std::string>());
  }
  CHECK(listed == expected);
  const auto text = team.ok(1, {"runs"});
  std::vector<std::string> in_text;
  for (std::size_t at = text.find("run "); at != std::string::npos; at = text.find("\nrun ", at + 1)) {
    const auto start = text[at] == '\n' ? at + 5 : at + 4;
    in_text.push_back(text.substr(start, text.find(' ', start) - start));
  }
  CHECK(in_text == expected);
  // A limit keeps the newest.
  const auto newest = json::parse(team.ok(1, {"runs", "--json", "-n", "2"}));
  REQUIRE(newest.size() == 2);
  CHECK(newest[0]["name"] == expected[0]);
  CHECK(newest[1]["name"] == expected[1]);
}

TEST_CASE("ej log lists the attempts not numbered yet newest first, in the order they were made")
{
  Team team;
  numbered_plan(team); // #1 and #2, numbered by the remote
  std::vector<std::string> made;
  for (int i = 0; i < 6; ++i) {
    const auto shown = team.ok(1, {"try", "option " + std::to_string(i), "--plan", "p"});
    const auto at = shown.find('@');
    REQUIRE(at != std::string::npos);
    made.push_back(shown.substr(at, 7));
  }
  std::vector<std::string> expected(made.rbegin(), made.rend());
  expected.insert(expected.end(), {"#2", "#1"});
  std::vector<std::string> listed;
  for (const auto& attempt : json::parse(team.ok(1, {"log", "--json"}))) {
    listed.push_back(attempt["name"].get<std::string>());
  }
  CHECK(listed == expected);
  const auto newest = json::parse(team.ok(1, {"log", "--json", "-n", "7"}));
  REQUIRE(newest.size() == 7);
  CHECK(newest[6]["name"] == "#2");
}

TEST_CASE("a journal that numbered attempts before it had a remote reports each move by the number it showed")
{
  Team team;
  numbered_plan(team);
  // A repository without a remote numbers as it goes.
  const auto solo = team.root() / "solo";
  make_git_repo(solo);
  REQUIRE(run_ej(solo, {"init"}).exit_code == 0);
  REQUIRE(run_ej(solo, {"plan", "new", "q", "--title", "Alone"}).exit_code == 0);
  const auto shown = run_ej(solo, {"try", "alone first", "--plan", "q"});
  REQUIRE(first_line(shown.out) == "#1");
  // Later it shares the team's remote, whose journal gave #1 and #2 already.
  git(solo, {"remote", "add", "origin", team.remote_url()});
  const auto synced = run_ej(solo, {"sync"});
  INFO(synced.err);
  REQUIRE(synced.exit_code == 0);
  CHECK_THAT(synced.out,
             Catch::Contains("attempt #1 is now #3: the shared journal had given that number already"));
  CHECK(synced.out.find("attempt @") == std::string::npos);
}

TEST_CASE("a journal put back from an older copy warns its readers, and once accepted publishes again")
{
  Team team;
  numbered_plan(team);
  sql_text(team.db(0), "PRAGMA wal_checkpoint(TRUNCATE)");
  const auto old_copy = read_text(team.db(0));
  team.ok(0, {"try", "published, then lost here", "--plan", "p"});
  team.ok(0, {"sync"});
  sql_text(team.db(0), "PRAGMA wal_checkpoint(TRUNCATE)");
  std::filesystem::remove(team.db(0).string() + "-wal");
  std::filesystem::remove(team.db(0).string() + "-shm");
  write_text(team.db(0), old_copy); // a backup tool restored yesterday's file

  const auto log = team.ej(0, {"log"});
  CHECK(log.exit_code == 0);
  CHECK_THAT(log.err, Catch::Contains("went backwards") && Catch::Contains("ej fsck --accept"));
  CHECK_THAT(team.ok(0, {"fsck", "--accept"}), Catch::Contains("ej sync"));

  team.ok(0, {"try", "recorded after the restore", "--plan", "p"});
  const auto synced = team.ok(0, {"sync"});
  CHECK_THAT(synced, Catch::Contains("brought back"));
  team.ok(1, {"sync"});
  team.ok(0, {"sync"});
  const auto here = json::parse(team.ok(0, {"log", "--json"}));
  CHECK(here.size() == 4);
  CHECK(team.ok(0, {"log", "--json"}) == team.ok(1, {"log", "--json"}));
  CHECK_THAT(here.dump(),
             Catch::Contains("recorded after the restore") && Catch::Contains("published, then lost here"));
  CHECK_THAT(team.ok(0, {"sync", "--dry-run"}), Catch::Contains("would send 0"));
}

TEST_CASE(
    "an event whose clock is far ahead is held back with its replica named, and later changes still win")
{
  Team team;
  numbered_plan(team);
  team.add_clone(2);
  team.ok(2, {"init"});
  team.ok(2, {"sync"});
  // A journal changed outside ej publishes an event at the highest clock there is.
  const auto id = json::parse(team.ok(2, {"show", "2", "--json"}))["id"].get<std::string>();
  sql_text(team.db(2), R"sql(
    INSERT INTO events(id, replica, lamport, type, schema_version, time_ms, payload)
    SELECT '01KZZZZZZZZZZZZZZZZZZZZZZZ', value, 9223372036854775807, 'attempt.note', 2, 1767225600000,
           '{"attempt": ")sql" +
                           id + R"sql(", "text": "from the end of time"}'
    FROM meta WHERE key = 'replica_id')sql");
  team.ok(2, {"sync"});

  const auto received = team.ej(1, {"sync"});
  CHECK(received.exit_code == 0);
  CHECK_THAT(received.err, Catch::Contains("held back") && Catch::Contains(replica_of(team, 2)) &&
                               Catch::Contains("Lamport clock"));
  // Clone 1 changes the status first, clone 0 after seeing it: the later change wins everywhere.
  team.ok(1, {"status", "2", "blocked", "--reason", "needs NCCL 2.21"});
  team.ok(1, {"sync"});
  team.ok(0, {"sync"});
  team.ok(0, {"status", "2", "adopted", "--reason", "NCCL 2.21 is in"});
  team.ok(0, {"sync"});
  team.ok(1, {"sync"});
  CHECK(json::parse(team.ok(0, {"show", "2", "--json"}))["status"] == "adopted");
  CHECK(json::parse(team.ok(1, {"show", "2", "--json"}))["status"] == "adopted");
  CHECK(team.ok(0, {"log", "--json"}) == team.ok(1, {"log", "--json"}));

  // An export holding such an event is refused by ej import, its replica named.
  EjRepo other;
  const auto file = other.path() / "ahead.jsonl";
  write_text(file, envelope("01KZZZZZZZZZZZZZZZZZZZZZZY", "01KFORGEDREPLICA0000000000", "9223372036854775807",
                            "plan.created", R"({"slug":"z","title":"","goal":"","target":"","doc":"z.md"})"));
  const auto imported = other.ej({"import", file.string()});
  CHECK(imported.exit_code == 1);
  CHECK_THAT(imported.err, Catch::Contains("01KFORGEDREPLICA0000000000") && Catch::Contains("Lamport clock"));
}

TEST_CASE("an event nested a million deep is held back with its replica named, until its ref is deleted")
{
  Team team;
  numbered_plan(team);
  const std::string deep = std::string(1000000, '[') + std::string(1000000, ']');
  const std::string forger = "01KFORGEDREPLICA0000000000";
  publish_by_hand(team, forger,
                  envelope("01KFORGEDEVENT000000000000", forger, "3", "attempt.note",
                           R"({"attempt":null,"text":)" + deep + "}"));
  team.ok(0, {"try", "made while the remote held it", "--plan", "p"});
  team.ok(0, {"sync"});

  const auto received = team.ej(1, {"sync"});
  CHECK(received.signal == 0);
  CHECK(received.exit_code == 0);
  CHECK_THAT(received.err,
             Catch::Contains("held back 1 batch(es) of replica " + forger) && Catch::Contains("nests"));
  CHECK(team.ok(0, {"log", "--json"}) == team.ok(1, {"log", "--json"}));

  // Deleted from the remote, it is read no more.
  git(team.remote(), {"update-ref", "-d", "refs/ej/replicas/" + forger});
  const auto after = team.ej(1, {"sync"});
  CHECK(after.exit_code == 0);
  CHECK(after.err.find(forger) == std::string::npos);

  // The same line in a file for ej import is refused, said, and nothing crashes.
  const auto file = team.root() / "deep.jsonl";
  write_text(file,
             envelope("01KFORGEDEVENT000000000001", forger, "3", "attempt.note", "{\"text\":" + deep + "}"));
  const auto imported = team.ej(1, {"import", file.string()});
  CHECK(imported.signal == 0);
  CHECK(imported.exit_code == 1);
  CHECK_THAT(imported.err, Catch::Contains("nests arrays or objects deeper than 64 levels"));
}

TEST_CASE("a replica ref whose commit ej did not write is held back and said, not skipped in silence")
{
  Team team;
  numbered_plan(team);
  const std::string forger = "01KFORGEDREPLICA0000000001";
  const auto dir = team.root() / "not-ej";
  make_git_repo(dir);
  write_text(dir / "notes.txt", "a commit pushed under refs/ej by hand\n");
  git(dir, {"add", "notes.txt"});
  git(dir, {"commit", "-q", "-m", "notes"});
  git(dir, {"push", "-q", team.remote_url(), "HEAD:refs/ej/replicas/" + forger});
  team.ok(0, {"try", "made beside it", "--plan", "p"});
  team.ok(0, {"sync"});

  const auto received = team.ej(1, {"sync"});
  INFO(received.out << received.err);
  CHECK(received.exit_code == 0);
  // Both commits of that ref (the repository's first and the notes) are held back.
  CHECK_THAT(received.err, Catch::Contains("held back 2 batch(es) of replica " + forger) &&
                               Catch::Contains("ej did not write it"));
  CHECK(team.ok(0, {"log", "--json"}) == team.ok(1, {"log", "--json"})); // the rest synced
}

TEST_CASE(
    "an event naming an attempt nobody published is held back, its replica named, until the attempt comes")
{
  Team team;
  numbered_plan(team);
  // Clone 2 works on an attempt it imported from another journal, which never syncs here.
  EjRepo elsewhere;
  elsewhere.ok({"plan", "new", "e", "--title", "Elsewhere"});
  elsewhere.ok({"try", "from another journal", "--plan", "e"});
  const auto exported = elsewhere.path() / "elsewhere.jsonl";
  elsewhere.ok({"export", "-o", exported.string()});
  team.add_clone(2);
  team.ok(2, {"init"});
  team.ok(2, {"sync"});
  team.ok(2, {"import", exported.string()});
  const auto foreign = json::parse(team.ok(2, {"log", "--json", "--all-plans"}));
  std::string name;
  for (const auto& attempt : foreign) {
    if (attempt["title"] == "from another journal") {
      name = attempt["name"].get<std::string>();
    }
  }
  REQUIRE(!name.empty());
  team.ok(2, {"note", name, "tried it here too"});
  team.ok(2, {"sync"});
  team.ok(0, {"try", "made meanwhile", "--plan", "p"});
  team.ok(0, {"sync"});

  const auto received = team.ej(1, {"sync"});
  INFO(received.err);
  CHECK(received.exit_code == 0);
  CHECK_THAT(received.err, Catch::Contains("held back") && Catch::Contains(replica_of(team, 2)) &&
                               Catch::Contains("names an attempt"));
  CHECK_THAT(team.ok(1, {"log", "--json"}), Catch::Contains("made meanwhile"));
  CHECK(team.ej(1, {"fsck"}).exit_code == 0);

  // The way in: import the attempt it names; the next sync takes the held batch.
  team.ok(1, {"import", exported.string()});
  const auto again = team.ej(1, {"sync"});
  CHECK(again.exit_code == 0);
  CHECK(again.err.find("held back") == std::string::npos);
  CHECK_THAT(team.ok(1, {"show", name, "--json"}), Catch::Contains("tried it here too"));
}
