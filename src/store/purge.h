#pragma once

#include "store/journal.h"

#include <optional>
#include <string>
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

// For what a replica published before a purge (git carries it, store knows what it means):
// Whether a text (events as JSON lines, or a blob) holds the value, as written or escaped in JSON.
bool holds_value(std::string_view text, std::string_view value);
// A published blob's content without the value (stored under its new hash, as purge_value does);
// nullopt when it does not hold it.
std::optional<std::string> without_value(std::string_view content, std::string_view value);
// Published events (JSON lines) as the journal holds them now: each line read again by its id, so
// that after purge_value they carry neither the value nor the old hashes of the blobs it rewrote.
// A line whose event the journal lacks keeps its text, the value replaced.
std::string events_as_stored(Database& db, std::string_view lines, std::string_view value);

} // namespace ej::store
