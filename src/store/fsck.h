#pragma once

#include "store/database.h"

#include <filesystem>
#include <string>
#include <vector>

namespace ej::store {

struct FsckReport {
  std::vector<std::string> problems; // empty: the journal is sound
  std::vector<std::string> checked;  // what was checked, for the report
};

// SQLite's quick_check (integrity_check when full), then a rebuild of every derived table from the
// events inside a transaction that is rolled back, compared row by row with what is stored.
// Without replay, only SQLite's check (a journal that must not be written).
FsckReport check_journal(Database& db, bool full, bool replay = true);

// `ej reindex`: rebuilds the derived tables from the events, in one write transaction.
void reindex_journal(Database& db);

// `ej fsck --repair`: copies every event and blob that can still be read from a damaged journal
// into an empty one, one row at a time so that a damaged page loses only what it holds, and
// rebuilds the derived tables from the events. Never throws for what the damaged file does.
struct SalvageReport {
  std::int64_t events = 0;
  std::int64_t events_lost = 0; // rows of the event log that could not be read
  std::int64_t blobs = 0;
  std::int64_t blobs_lost = 0;
};
SalvageReport salvage_journal(sqlite3* damaged, Database& fresh);

// `ej fsck --repair` whole: salvages the journal of ej_dir into a fresh one that keeps its replica
// id (its events keep their authorship), puts it in its place, keeps the damaged file (and its WAL)
// beside it as `kept`, and accepts the result as it is. Refuses a WAL that belongs to another file.
struct RepairReport {
  SalvageReport salvage;
  std::filesystem::path kept;
};
RepairReport repair_journal(const std::filesystem::path& ej_dir);

} // namespace ej::store
