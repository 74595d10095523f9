#include "store/fsck.h"

#include "store/journal.h"
#include "store/projection.h"
#include "store/schema.h"
#include "store/wal_ownership.h"
#include "util/error.h"
#include "util/time.h"

#include <fmt/format.h>

namespace ej::store {

namespace {

void check_integrity(Database& db, bool full, FsckReport& report)
{
  auto check = db.prepare(full ? "PRAGMA integrity_check" : "PRAGMA quick_check");
  std::vector<std::string> lines;
  while (check.step()) {
    lines.push_back(check.text(0));
  }
  report.checked.push_back(full ? "integrity_check" : "quick_check");
  if (!(lines.size() == 1 && lines.front() == "ok")) {
    for (const auto& line : lines) {
      report.problems.push_back("sqlite: " + line);
    }
  }
}

std::string select_all(std::string_view table)
{
  // The full-text index is compared through its columns and rowid.
  return table == "attempt_search" ? std::string("SELECT rowid, * FROM attempt_search")
                                   : fmt::format("SELECT * FROM {}", table);
}

void check_derived_tables(Database& db, FsckReport& report)
{
  WriteTransaction transaction(db); // never committed: the rebuild is only compared
  for (const auto table : derived_tables()) {
    db.exec(fmt::format("CREATE TEMP TABLE fsck_{} AS {}", table, select_all(table)));
  }
  try {
    rebuild_derived_tables(db);
  } catch (const std::exception& error) {
    report.problems.push_back(fmt::format("events cannot be replayed: {}", error.what()));
    return;
  }
  for (const auto table : derived_tables()) {
    const auto missing = db.query_integer(
        fmt::format("SELECT count(*) FROM ({} EXCEPT SELECT * FROM temp.fsck_{})", select_all(table), table));
    const auto extra = db.query_integer(
        fmt::format("SELECT count(*) FROM (SELECT * FROM temp.fsck_{} EXCEPT {})", table, select_all(table)));
    if (missing > 0 || extra > 0) {
      report.problems.push_back(
          fmt::format("table {} disagrees with the events: {} row(s) missing, {} row(s) "
                      "that the events do not explain; run 'ej reindex' to rebuild it",
                      table, missing, extra));
    }
  }
  report.checked.push_back(fmt::format("{} derived tables against the event log", derived_tables().size()));
}

} // namespace

FsckReport check_journal(Database& db, bool full, bool replay)
{
  FsckReport report;
  check_integrity(db, full, report);
  if (!report.problems.empty() || !replay) {
    return report; // a damaged file: replaying events on it proves nothing
  }
  check_derived_tables(db, report);
  return report;
}

namespace {

// A statement on the damaged file, stepped without throwing: its errors are counted, not raised.
class RawStatement {
public:
  RawStatement(sqlite3* db, const char* sql)
  {
    if (sqlite3_prepare_v2(db, sql, -1, &m_statement, nullptr) != SQLITE_OK) {
      sqlite3_finalize(m_statement);
      m_statement = nullptr;
    }
  }
  ~RawStatement() { sqlite3_finalize(m_statement); }
  RawStatement(const RawStatement&) = delete;
  RawStatement& operator=(const RawStatement&) = delete;
  sqlite3_stmt* get() const { return m_statement; }
  explicit operator bool() const { return m_statement != nullptr; }

private:
  sqlite3_stmt* m_statement = nullptr;
};

std::string column_text(sqlite3_stmt* statement, int column)
{
  const auto* data = sqlite3_column_text(statement, column);
  return data == nullptr ? std::string()
                         : std::string(reinterpret_cast<const char*>(data),
                                       static_cast<std::size_t>(sqlite3_column_bytes(statement, column)));
}

std::int64_t max_rowid(sqlite3* db, const char* sql)
{
  RawStatement statement(db, sql);
  return statement && sqlite3_step(statement.get()) == SQLITE_ROW ? sqlite3_column_int64(statement.get(), 0)
                                                                  : 0;
}

} // namespace

SalvageReport salvage_journal(sqlite3* damaged, Database& fresh)
{
  SalvageReport report;
  WriteTransaction transaction(fresh);
  auto insert_event =
      fresh.prepare("INSERT OR IGNORE INTO events(seq, id, replica, lamport, type, schema_version, "
                    "time_ms, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  // Row by row through the rowid: a damaged page costs the rows on it, not those after it.
  const auto last_seq = max_rowid(damaged, "SELECT max(seq) FROM events");
  RawStatement event(damaged,
                     "SELECT id, replica, lamport, type, schema_version, time_ms, payload FROM events "
                     "WHERE seq = ?");
  for (std::int64_t seq = 1; event && seq <= last_seq; ++seq) {
    sqlite3_reset(event.get());
    sqlite3_bind_int64(event.get(), 1, seq);
    const int rc = sqlite3_step(event.get());
    if (rc == SQLITE_DONE) {
      continue; // never written (a rolled-back transaction's number)
    }
    if (rc != SQLITE_ROW) {
      ++report.events_lost;
      continue;
    }
    insert_event.reset();
    insert_event
        .bind_all(
            seq, column_text(event.get(), 0), column_text(event.get(), 1),
            static_cast<std::int64_t>(sqlite3_column_int64(event.get(), 2)), column_text(event.get(), 3),
            static_cast<std::int64_t>(sqlite3_column_int64(event.get(), 4)),
            static_cast<std::int64_t>(sqlite3_column_int64(event.get(), 5)), column_text(event.get(), 6))
        .run();
    ++report.events;
  }
  auto insert_blob = fresh.prepare("INSERT OR IGNORE INTO blobs(hash, size, content) VALUES (?, ?, ?)");
  const auto last_blob = max_rowid(damaged, "SELECT max(rowid) FROM blobs");
  RawStatement blob(damaged, "SELECT hash, size, content FROM blobs WHERE rowid = ?");
  for (std::int64_t row = 1; blob && row <= last_blob; ++row) {
    sqlite3_reset(blob.get());
    sqlite3_bind_int64(blob.get(), 1, row);
    const int rc = sqlite3_step(blob.get());
    if (rc == SQLITE_DONE) {
      continue;
    }
    if (rc != SQLITE_ROW) {
      ++report.blobs_lost;
      continue;
    }
    const auto* data = static_cast<const char*>(sqlite3_column_blob(blob.get(), 2));
    const std::string_view content(data == nullptr ? "" : data,
                                   static_cast<std::size_t>(sqlite3_column_bytes(blob.get(), 2)));
    insert_blob.reset();
    insert_blob.bind(1, column_text(blob.get(), 0))
        .bind(2, static_cast<std::int64_t>(sqlite3_column_int64(blob.get(), 1)))
        .bind_blob(3, content)
        .run();
    ++report.blobs;
  }
  rebuild_derived_tables(fresh);
  transaction.commit();
  return report;
}

void reindex_journal(Database& db)
{
  WriteTransaction transaction(db);
  rebuild_derived_tables(db);
  transaction.commit();
}

RepairReport repair_journal(const std::filesystem::path& ej_dir)
{
  const auto with_suffix = [](std::filesystem::path path, std::string_view suffix) { return path += suffix; };
  const auto file = journal_file(ej_dir);
  const auto scratch = ej_dir / "repair";
  std::filesystem::remove_all(scratch);
  RepairReport out;
  auto& report = out.salvage;
  refuse_foreign_wal(file); // salvaging another file's pages would mix two journals
  {
    auto damaged = Database::open(file, OpenMode::ReadOnly);
    auto fresh = Journal::create(scratch);
    report = salvage_journal(damaged.handle(), fresh.db());
    // The repaired journal is the same replica: its events keep their authorship.
    auto replica = damaged.prepare("SELECT value FROM meta WHERE key = 'replica_id'");
    if (replica.step()) {
      WriteTransaction transaction(fresh.db());
      fresh.db().prepare("UPDATE meta SET value = ? WHERE key = 'replica_id'").bind(1, replica.text(0)).run();
      transaction.commit();
    }
  }
  out.kept = with_suffix(file, fmt::format(".damaged-{}", util::now_ms()));
  std::filesystem::rename(file, out.kept);
  for (const auto* suffix : {"-wal", "-shm"}) {
    std::error_code ec;
    std::filesystem::rename(with_suffix(file, suffix), with_suffix(out.kept, suffix), ec);
  }
  std::filesystem::rename(journal_file(scratch), file);
  std::filesystem::remove_all(scratch);
  std::filesystem::remove(damage_marker(file));
  Journal::open(ej_dir).accept_as_it_is();
  return out;
}

} // namespace ej::store
