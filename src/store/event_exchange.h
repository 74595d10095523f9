#pragma once

#include "store/event.h"
#include "store/journal.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Events as they leave and enter a journal: JSON lines of the envelope (docs/events.md), for sync
// batches and for ej export / ej import. Importing is idempotent: an event is known by its id.
namespace ej::store {

// The columns of the events table, in the order read_event reads them.
inline constexpr const char* k_event_columns = "seq, id, replica, lamport, type, schema_version, time_ms, payload";
Event read_event(const Statement& row);

// One line per event: {"id","replica","lamport","type","schema_version","time_ms","payload"}.
std::string encode_event(const Event& event);

// The deepest an event line may nest arrays and objects (its payload one level less). ej's own
// payloads nest 6 deep; a line deeper than this is refused before it is parsed, so that neither
// the parser nor any walk of a payload meets the million levels a crafted line can hold.
inline constexpr std::size_t k_max_event_nesting = 64;
// JSON text parsed when it nests no deeper than k_max_event_nesting; discarded otherwise.
nlohmann::json parse_bounded(std::string_view text);

// Events from JSON lines; a line that is not an event envelope (or nests too deep) is counted in
// bad_lines, and first_problem says what was wrong with the first one.
std::vector<Event> decode_events(std::string_view lines, int* bad_lines = nullptr,
                                 std::string* first_problem = nullptr);

// Lamport clocks are bounded as they arrive (k_max_clock_lead, store/event.h).
// The highest clock of the journal's events written by other replicas than this one (0: none).
std::int64_t highest_clock_except(Database& db, const std::string& replica);
// Why an event cannot be imported, given the highest clock of every replica but its own;
// nullopt when it can.
std::optional<std::string> clock_refusal(const Event& event, std::int64_t others_highest);

// The events of one replica after a local seq (what a sync publishes), in seq order.
std::vector<Event> events_of_replica_after(Database& db, const std::string& replica, std::int64_t after_seq);
// Every event, or those of one plan (ej export), in application order.
std::vector<Event> all_events(Database& db);
// The events a plan's history needs: the plan's, its attempts', their runs' and its baselines',
// and every benchmark and probe definition (runs name them).
std::vector<Event> plan_events(Database& db, const std::string& plan);
std::int64_t last_seq(Database& db);
// The blobs events name: every string field whose name ends in "_blob" holds a blob's sha256.
std::vector<std::string> blobs_named(const std::vector<Event>& events);

struct ImportReport {
  int received = 0;                       // events not in the journal before
  int known = 0;                          // events it had already
  int blobs = 0;                          // blobs added
  std::vector<std::string> missing_blobs; // named, not found: the events stand, the content is absent
};

// Adds the events not yet in the journal, and the blobs they name that it lacks (fetched through
// blob(hash); its content must hash to the name), in one transaction, then brings the derived
// tables up to date: events that sort after everything already applied are applied as they are,
// otherwise (older events from a replica, claims of numbers) the tables are rebuilt. extra runs in
// the same transaction (a sync records how far it read each replica). Refused as a whole (nothing
// imported) when an event's clock is out of bounds (clock_refusal), or when an event names an
// attempt or run that neither the journal nor the events have (projection's MissingReference).
ImportReport import_events(Journal& journal, std::vector<Event> events,
                           const std::function<std::optional<std::string>(const std::string&)>& blob,
                           const std::function<void(Database&)>& extra = {});

// Local state of the journal kept in its meta table (not derived from events, never synced).
std::optional<std::string> meta_value(Database& db, const std::string& key);
void set_meta_value(Database& db, const std::string& key, const std::string& value);

} // namespace ej::store
