#include "store/fsck.h"
#include "store/journal.h"
#include "store/located_queries.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "store/schema.h"
#include "support/temp_dir.h"
#include "util/error.h"

#include <catch2/catch.hpp>

using namespace ej;
using nlohmann::json;

namespace {

void add_plan_and_attempt(store::Journal& journal)
{
  journal.write([](store::Writer& writer) {
    writer.append("plan.created", {{"slug", "p"}, {"title", "Plan"}, {"goal", ""}, {"target", ""}, {"doc", "d.md"}});
    writer.append("attempt.created", {{"attempt", 1},
                                      {"plan", "p"},
                                      {"title", "NCCL_ALGO=Tree"},
                                      {"hypothesis", "tree is faster"},
                                      {"command", ""},
                                      {"tags", {"nccl"}},
                                      {"links", json::array()},
                                      {"git", json::object()}});
    writer.append("attempt.status", {{"attempt", 1}, {"status", "rejected"}, {"reason", "no gain on PCIe"}});
    writer.append("attempt.note", {{"attempt", 1}, {"text", "measured twice"}});
  });
}

} // namespace

TEST_CASE("events update the derived tables in the same transaction")
{
  auto journal = store::Journal::open_memory();
  add_plan_and_attempt(journal);
  const auto attempt = store::find_attempt(journal.db(), 1);
  REQUIRE(attempt);
  CHECK(attempt->status == core::Status::Rejected);
  CHECK(attempt->reason == "no gain on PCIe");
  CHECK(attempt->tags == std::vector<std::string>{"nccl"});
  const auto history = store::load_history(journal.db(), *attempt);
  REQUIRE(history.status_changes.size() == 1);
  CHECK(history.status_changes[0].from == "proposed");
  CHECK(history.notes.size() == 1);
  CHECK(store::search_attempts(journal.db(), "PCIe", 10) == std::vector<int>{1});
}

TEST_CASE("search matches whole words, and the start of a word only where a word ends in a star")
{
  auto journal = store::Journal::open_memory();
  add_plan_and_attempt(journal); // "NCCL_ALGO=Tree", "tree is faster", "no gain on PCIe"
  const std::vector<int> first{1};
  CHECK(store::search_attempts(journal.db(), "NCCL_ALGO=Tree", 10) == first);
  CHECK(store::search_attempts(journal.db(), "faster pcie", 10) == first);
  CHECK(store::search_attempts(journal.db(), "fast", 10).empty()); // not a whole word
  CHECK(store::search_attempts(journal.db(), "fast*", 10) == first);
  CHECK(store::search_attempts(journal.db(), "NCCL_ALGO=Tr**", 10) == first);
  CHECK(store::search_attempts(journal.db(), "fast* measur*", 10) == first);
  CHECK(store::search_attempts(journal.db(), "slow*", 10).empty());
  CHECK(store::search_attempts(journal.db(), "*", 10).empty()); // no word: nothing, not everything
  CHECK(store::search_attempts(journal.db(), "tree *", 10) == first);
  CHECK(store::search_attempts(journal.db(), "\"tree*", 10) == first); // quotes are text
}

TEST_CASE("a write that throws leaves nothing behind")
{
  auto journal = store::Journal::open_memory();
  CHECK_THROWS(journal.write([](store::Writer& writer) {
    writer.append("plan.created", {{"slug", "p"}, {"title", "Plan"}});
    throw Error("interrupted");
  }));
  CHECK(journal.db().query_integer("SELECT count(*) FROM events") == 0);
  CHECK(store::list_plans(journal.db()).empty());
}

TEST_CASE("events cannot be changed or deleted")
{
  auto journal = store::Journal::open_memory();
  add_plan_and_attempt(journal);
  CHECK_THROWS(journal.db().exec("UPDATE events SET type = 'x'"));
  CHECK_THROWS(journal.db().exec("DELETE FROM events"));
}

TEST_CASE("reindex rebuilds the same derived tables and fsck agrees")
{
  auto journal = store::Journal::open_memory();
  add_plan_and_attempt(journal);
  const auto before = store::load_history(journal.db(), *store::find_attempt(journal.db(), 1));
  store::reindex_journal(journal.db());
  const auto after = store::load_history(journal.db(), *store::find_attempt(journal.db(), 1));
  CHECK(after.attempt.reason == before.attempt.reason);
  CHECK(after.status_changes.size() == before.status_changes.size());
  CHECK(after.notes.size() == before.notes.size());
  CHECK(store::check_journal(journal.db(), true).problems.empty());
}

TEST_CASE("fsck reports derived tables that disagree with the events")
{
  auto journal = store::Journal::open_memory();
  add_plan_and_attempt(journal);
  journal.db().exec("UPDATE attempts SET reason = 'tampered'");
  const auto report = store::check_journal(journal.db(), false);
  REQUIRE_FALSE(report.problems.empty());
  CHECK(report.problems.front().find("attempts") != std::string::npos);
  store::reindex_journal(journal.db());
  CHECK(store::check_journal(journal.db(), false).problems.empty());
  CHECK(store::find_attempt(journal.db(), 1)->reason == "no gain on PCIe");
}

TEST_CASE("blobs are stored once under their content hash")
{
  auto journal = store::Journal::open_memory();
  std::string first;
  std::string second;
  journal.write([&](store::Writer& writer) {
    first = writer.put_blob("diff --git a/x b/x\n");
    second = writer.put_blob("diff --git a/x b/x\n");
  });
  CHECK(first == second);
  CHECK(journal.db().query_integer("SELECT count(*) FROM blobs") == 1);
  CHECK(journal.blob(first) == "diff --git a/x b/x\n");
}

TEST_CASE("a journal is created with WAL, the application id and the current schema")
{
  test::TempDir dir;
  auto journal = store::Journal::create(dir / ".ej");
  CHECK(journal.db().query_integer("PRAGMA application_id") == store::k_application_id);
  CHECK(journal.db().query_integer("PRAGMA user_version") == store::current_schema_version());
  auto mode = journal.db().prepare("PRAGMA journal_mode");
  REQUIRE(mode.step());
  CHECK(mode.text(0) == "wal");
  CHECK(journal.db().query_integer("PRAGMA foreign_keys") == 1);
  CHECK_FALSE(journal.replica_id().empty());
}

TEST_CASE("a journal from version 1 with data migrates to the current version after a backup")
{
  test::TempDir dir;
  const auto ej_dir = dir / ".ej";
  std::filesystem::create_directories(ej_dir);
  {
    auto db = store::Database::open(store::journal_file(ej_dir), store::OpenMode::ReadWrite);
    db.exec(store::migrations().front().sql);
    db.exec("PRAGMA user_version = 1");
    db.exec(fmt::format("PRAGMA application_id = {}", store::k_application_id));
    // Events as ej 0.x wrote them (payload version 1: attempts named by number), without the
    // derived tables of that version: the migration rebuilds those from the events.
    const std::vector<std::pair<std::string, json>> events = {
        {"plan.created", {{"slug", "p"}, {"title", "Plan"}, {"goal", ""}, {"target", ""}, {"doc", "d.md"}}},
        {"attempt.created", {{"attempt", 1}, {"plan", "p"}, {"title", "NCCL_ALGO=Tree"}, {"hypothesis", ""},
                             {"command", ""}, {"tags", {"nccl"}}, {"links", json::array()}, {"git", json::object()}}},
        {"attempt.status", {{"attempt", 1}, {"status", "rejected"}, {"reason", "no gain on PCIe"}}},
        {"attempt.note", {{"attempt", 1}, {"text", "measured twice"}}},
    };
    int lamport = 0;
    for (const auto& [type, payload] : events) {
      ++lamport;
      db.prepare("INSERT INTO events(id, replica, lamport, type, schema_version, time_ms, payload) "
                 "VALUES (?, 'replica-v1', ?, ?, 1, ?, ?)")
        .bind(1, fmt::format("01JD0000000000000000000{:03}", lamport))
        .bind(2, static_cast<std::int64_t>(lamport))
        .bind(3, type)
        .bind(4, static_cast<std::int64_t>(1700000000000 + lamport))
        .bind(5, payload.dump())
        .run();
    }
    db.exec("INSERT INTO meta(key, value) VALUES ('replica_id', 'replica-v1')");
  }
  auto journal = store::Journal::open(ej_dir);
  CHECK(journal.db().query_integer("PRAGMA user_version") == store::current_schema_version());
  CHECK(store::find_attempt(journal.db(), 1)->reason == "no gain on PCIe");
  CHECK(store::check_journal(journal.db(), true).problems.empty());
  CHECK(store::search_attempts(journal.db(), "PCIe", 10) == std::vector<int>{1}); // the index rebuilt
  if (store::current_schema_version() > 1) {
    CHECK(std::filesystem::exists(ej_dir / "journal.db.backup-v1"));
    auto backup = store::Database::open(ej_dir / "journal.db.backup-v1", store::OpenMode::ReadOnly);
    CHECK(backup.query_integer("PRAGMA user_version") == 1);
    CHECK(backup.query_integer("SELECT count(*) FROM events") == 4);
  }
}

TEST_CASE("a version 5 journal's search index, keyed by attempt number, is rebuilt newest first")
{
  test::TempDir dir;
  const auto ej_dir = dir / ".ej";
  {
    auto journal = store::Journal::create(ej_dir);
    journal.write([](store::Writer& writer) {
      writer.append("plan.created",
                    {{"slug", "p"}, {"title", "Plan"}, {"goal", ""}, {"target", ""}, {"doc", "d.md"}});
      for (int number = 1; number <= 3; ++number) {
        writer.append("attempt.created", {{"attempt", number},
                                          {"plan", "p"},
                                          {"title", "fused allreduce"},
                                          {"hypothesis", ""},
                                          {"command", ""},
                                          {"tags", json::array()},
                                          {"links", json::array()},
                                          {"git", json::object()}});
      }
    });
    // As version 5 kept it: rowid = the attempt's number.
    journal.db().exec("DELETE FROM attempt_search");
    journal.db().exec("INSERT INTO attempt_search(rowid, title, hypothesis, command, tags, reasons, notes) "
                      "SELECT number, title, '', '', '', '', '' FROM attempts");
    journal.db().exec("PRAGMA user_version = 5");
  }
  auto journal = store::Journal::open(ej_dir);
  CHECK(journal.db().query_integer("PRAGMA user_version") == store::current_schema_version());
  CHECK(store::search_attempts(journal.db(), "allreduce", 2) == std::vector<int>{3, 2});
  CHECK(journal.db().query_integer("SELECT min(rowid) FROM attempt_search") == -3);
  CHECK(store::check_journal(journal.db(), true).problems.empty());
}

TEST_CASE("a version 6 journal gains the index of the repeats that read a GPU")
{
  test::TempDir dir;
  const auto ej_dir = dir / ".ej";
  {
    auto journal = store::Journal::create(ej_dir);
    add_plan_and_attempt(journal);
    journal.db().exec("DROP INDEX run_repeats_with_device");
    journal.db().exec("PRAGMA user_version = 6");
  }
  auto journal = store::Journal::open(ej_dir);
  CHECK(journal.db().query_integer("PRAGMA user_version") == store::current_schema_version());
  CHECK(journal.db().query_integer(
            "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'run_repeats_with_device'") == 1);
  CHECK(store::check_journal(journal.db(), true).problems.empty());
}

TEST_CASE("a version 8 journal gains run withdrawals, and one it kept as an unknown event applies")
{
  test::TempDir dir;
  const auto ej_dir = dir / ".ej";
  std::filesystem::create_directories(ej_dir);
  {
    // As ej at schema 8 left it: the tables of versions 1 to 8, a run, and a run.withdrawn event it
    // received from a newer replica and could not apply.
    auto db = store::Database::open(store::journal_file(ej_dir), store::OpenMode::ReadWrite);
    for (const auto& step : store::migrations()) {
      if (step.version <= 8) {
        db.exec(step.sql);
      }
    }
    db.exec("PRAGMA user_version = 8");
    db.exec(fmt::format("PRAGMA application_id = {}", store::k_application_id));
    db.exec("INSERT INTO meta(key, value) VALUES ('replica_id', 'replica-v8')");
    const std::vector<std::pair<std::string, json>> events = {
        {"plan.created", {{"slug", "p"}, {"title", "Plan"}, {"goal", ""}, {"target", ""}, {"doc", "d.md"}}},
        {"bench.added", {{"name", "b"}, {"revision", 1}, {"definition", json::object()}}},
        {"run.started",
         {{"run", 1}, {"bench", "b"}, {"revision", 1}, {"attempt", nullptr}, {"params", json::object()}}},
        {"run.finished", {{"run", 1}, {"status", "finished"}, {"reason", ""}, {"outputs", json::object()}}},
        {"run.withdrawn", {{"run", 1}, {"reason", "debug build"}}},
    };
    int lamport = 0;
    for (const auto& [type, payload] : events) {
      ++lamport;
      db.prepare("INSERT INTO events(id, replica, lamport, type, schema_version, time_ms, payload) "
                 "VALUES (?, 'replica-v8', ?, ?, 1, ?, ?)")
          .bind(1, fmt::format("01JD0000000000000000000{:03}", lamport))
          .bind(2, static_cast<std::int64_t>(lamport))
          .bind(3, type)
          .bind(4, static_cast<std::int64_t>(1700000000000 + lamport))
          .bind(5, payload.dump())
          .run();
    }
  }
  auto journal = store::Journal::open(ej_dir);
  CHECK(journal.db().query_integer("PRAGMA user_version") == store::current_schema_version());
  const auto run = store::find_run(journal.db(), 1);
  REQUIRE(run);
  CHECK(run->withdrawn());
  CHECK(run->withdrawn_reason == "debug build");
  CHECK(store::check_journal(journal.db(), true).problems.empty());
}

TEST_CASE("a version 11 journal holding an acknowledgement it could not read projects it once upgraded")
{
  test::TempDir dir;
  const auto ej_dir = dir / ".ej";
  {
    auto journal = store::Journal::create(ej_dir);
    journal.write([](store::Writer& writer) {
      writer.append(store::events::StepAcknowledged{"decode", "", "0123456789abcdef0123456789abcdef01234567",
                                                    "new tokenizer, expected"});
    });
    // As an ej of version 11 kept it: the event (synced from a newer replica) and no table for it.
    journal.db().exec("DROP TABLE acknowledgements");
    journal.db().exec("PRAGMA user_version = 11");
  }
  auto journal = store::Journal::open(ej_dir);
  CHECK(journal.db().query_integer("PRAGMA user_version") == store::current_schema_version());
  const auto acks = store::acknowledgements(journal.db(), "decode");
  REQUIRE(acks.size() == 1);
  CHECK(acks[0].commit == "0123456789abcdef0123456789abcdef01234567");
  CHECK(acks[0].reason == "new tokenizer, expected");
  CHECK(acks[0].metric.empty());
  CHECK(store::acknowledgements(journal.db(), "other").empty());
  CHECK(store::check_journal(journal.db(), true).problems.empty());
}

TEST_CASE("a version 13 journal holding an ej bisect answer it could not read projects it once upgraded")
{
  test::TempDir dir;
  const auto ej_dir = dir / ".ej";
  const std::string first_bad = "0123456789abcdef0123456789abcdef01234567";
  {
    auto journal = store::Journal::create(ej_dir);
    journal.write([&](store::Writer& writer) {
      store::events::StepLocated located;
      located.bench = "decode";
      located.metric = "wall_s";
      located.good = std::string(40, 'a');
      located.bad = std::string(40, 'b');
      located.first_bad = first_bad;
      located.candidates = {first_bad};
      located.min_effect_pct = 73.2;
      located.candidate = store::events::Ref::to("01JD0000000000000000000009"); // a run it does not have
      located.estimate = 1.1;
      located.low = 1.0;
      located.high = 1.2;
      writer.append(located);
    });
    // As an ej of version 13 kept it: the event (synced from a newer replica) and no table for it.
    journal.db().exec("DROP TABLE located_steps");
    journal.db().exec("PRAGMA user_version = 13");
  }
  auto journal = store::Journal::open(ej_dir);
  CHECK(journal.db().query_integer("PRAGMA user_version") == store::current_schema_version());
  const auto located = store::located_steps(journal.db(), "decode");
  REQUIRE(located.size() == 1);
  CHECK(located[0].first_bad == first_bad);
  CHECK(located[0].candidates == std::vector<std::string>{first_bad});
  CHECK(located[0].min_effect_pct == 73.2);
  CHECK(located[0].candidate_run == 0); // the run is not in this journal: the answer is kept anyway
  CHECK(located[0].high == 1.2);
  CHECK(store::located_steps(journal.db(), "other").empty());
  CHECK(store::check_journal(journal.db(), true).problems.empty());
}

TEST_CASE("a journal written by a newer ej opens read-only and refuses writes")
{
  test::TempDir dir;
  const auto ej_dir = dir / ".ej";
  {
    auto journal = store::Journal::create(ej_dir);
    add_plan_and_attempt(journal);
    journal.db().exec(fmt::format("PRAGMA user_version = {}", store::current_schema_version() + 1));
  }
  auto journal = store::Journal::open(ej_dir);
  REQUIRE(journal.read_only_reason());
  CHECK(store::find_attempt(journal.db(), 1));
  CHECK_THROWS_WITH(journal.write([](store::Writer&) {}), Catch::Contains("newer ej"));
}

TEST_CASE("a file that is not an ej journal is never opened for writing")
{
  test::TempDir dir;
  const auto ej_dir = dir / ".ej";
  test::write_text(ej_dir / "journal.db", std::string(4096, 'x'));
  CHECK_THROWS_WITH(store::Journal::open(ej_dir), Catch::Contains("ej fsck") && Catch::Contains("journal.db"));
  CHECK(test::read_text(ej_dir / "journal.db") == std::string(4096, 'x'));

  const auto other_dir = dir / "other";
  std::filesystem::create_directories(other_dir);
  {
    auto db = store::Database::open(store::journal_file(other_dir), store::OpenMode::ReadWrite);
    db.exec("CREATE TABLE mine(x)");
  }
  CHECK_THROWS_WITH(store::Journal::open(other_dir), Catch::Contains("not an ej journal"));
}

TEST_CASE("the file systems where WAL is unsafe are known by their statfs magic, local ones are not")
{
  CHECK(store::network_filesystem_name(0x6969) == "NFS");
  CHECK(store::network_filesystem_name(0x0BD00BD0) == "Lustre");
  CHECK(store::network_filesystem_name(0xFF534D42) == "CIFS");
  CHECK(store::network_filesystem_name(0x47504653) == "GPFS");
  CHECK_FALSE(store::network_filesystem_name(0xEF53)); // ext4
  CHECK_FALSE(store::network_filesystem_name(0x01021994)); // tmpfs
  CHECK_FALSE(store::network_filesystem_name(0x58465342)); // xfs
}
