#include "store/fsck.h"

#include "store/projection.h"
#include "store/schema.h"
#include "util/error.h"

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
      report.problems.push_back(fmt::format("table {} disagrees with the events: {} row(s) missing, {} row(s) "
                                            "that the events do not explain; run 'ej reindex' to rebuild it",
                                            table, missing, extra));
    }
  }
  report.checked.push_back(fmt::format("{} derived tables against the event log", derived_tables().size()));
}

} // namespace

FsckReport check_journal(Database& db, bool full)
{
  FsckReport report;
  check_integrity(db, full, report);
  if (!report.problems.empty()) {
    return report; // a damaged file: replaying events on it proves nothing
  }
  check_derived_tables(db, report);
  return report;
}

void reindex_journal(Database& db)
{
  WriteTransaction transaction(db);
  rebuild_derived_tables(db);
  transaction.commit();
}

} // namespace ej::store
