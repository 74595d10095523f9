#pragma once

#include <string_view>
#include <vector>

namespace ej::store {

// "EjJ1": marks a SQLite file as an ej journal (PRAGMA application_id).
inline constexpr int k_application_id = 0x456a4a31;

struct Migration {
  int version;          // PRAGMA user_version after this step
  std::string_view sql; // run inside the migration transaction
  bool rebuilds = false; // the derived tables are rebuilt from the events after it
};

// Numbered steps compiled into the binary; the schema version is the last one's.
const std::vector<Migration>& migrations();
int current_schema_version();

// The tables derived from events, in the order they are cleared and compared (ej reindex, ej fsck).
const std::vector<std::string_view>& derived_tables();

} // namespace ej::store
