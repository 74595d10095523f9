#pragma once

#include "store/journal.h"

#include <string_view>

namespace ej::store {

struct PurgeReport {
  int events = 0;           // event payloads rewritten
  int blobs = 0;            // blobs rewritten (stored again under the hash of their new content)
  bool checkpointed = true; // false when another ej kept the old pages alive in the WAL
};

// Replaces every stored copy of a leaked value by "<redacted>": in event payloads and in blobs
// (whose references move to the new hashes), then rebuilds the derived tables from the events,
// records a journal.purged event (counts only, never the value), and rewrites the file (VACUUM,
// WAL truncated) so that no freed page keeps the old bytes.
PurgeReport purge_value(Journal& journal, std::string_view value);

} // namespace ej::store
