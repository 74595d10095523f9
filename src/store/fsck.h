#pragma once

#include "store/database.h"

#include <string>
#include <vector>

namespace ej::store {

struct FsckReport {
  std::vector<std::string> problems; // empty: the journal is sound
  std::vector<std::string> checked;  // what was checked, for the report
};

// SQLite's quick_check (integrity_check when full), then a rebuild of every derived table from the
// events inside a transaction that is rolled back, compared row by row with what is stored.
FsckReport check_journal(Database& db, bool full);

// `ej reindex`: rebuilds the derived tables from the events, in one write transaction.
void reindex_journal(Database& db);

} // namespace ej::store
