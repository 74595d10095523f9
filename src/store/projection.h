#pragma once

#include "store/database.h"
#include "store/event.h"
#include "store/events.h"
#include "util/error.h"

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ej::store {

// An event that names an attempt or run this journal does not have: one from a replica that got
// it elsewhere (an import of a file, a replica not synced here). Nothing is applied.
class MissingReference : public Error {
public:
  MissingReference(const Event& event, std::string_view what);
  const std::string& event_id() const { return m_event_id; }
  const std::string& replica() const { return m_replica; }

private:
  std::string m_event_id;
  std::string m_replica;
};

// Updates the derived tables for one event. Used for every live write, for imports and for
// `ej reindex`, so they can never disagree. An event of a type this ej does not know (a newer
// one wrote it) changes nothing: false, said once on stderr.
bool apply_event(Database& db, const Event& event);

// Clears every derived table and replays all events in (lamport, replica, id) order, the claims of
// numbers first. The result depends only on the set of events, never on the order they arrived in.
// The caller holds a write transaction.
void rebuild_derived_tables(Database& db);

// Applies events already sorted in (lamport, replica, id) order after everything applied before,
// the search rows written once at the end. False when they could not be applied in place (a
// claim of numbers that only a rebuild can honour): the caller rebuilds.
bool apply_events(Database& db, const std::vector<Event>& sorted);

// The number each attempt or run id resolved to during a bulk application (see DeferredSearch).
struct KnownNumbers {
  std::unordered_map<std::string, std::int64_t> attempts;
  std::unordered_map<std::string, std::int64_t> runs;
};

// While it lives, the search rows of changed attempts are collected, and written once each by
// flush() (nested: the outer one writes them).
class DeferredSearch {
public:
  explicit DeferredSearch(Database& db);
  ~DeferredSearch();
  void flush();
  DeferredSearch(const DeferredSearch&) = delete;
  DeferredSearch& operator=(const DeferredSearch&) = delete;

private:
  Database& m_db;
  std::set<std::int64_t> m_numbers;
  KnownNumbers m_known;
  bool m_owner = false;
};

namespace projection {

// The local number of the attempt or run an event names (0: not in this journal).
std::int64_t attempt_number(Database& db, const Event& event, const events::Ref& ref);
std::int64_t run_number(Database& db, const Event& event, const events::Ref& ref);
// The number an attempt or run created by event gets: the remote's claim, else (a journal never
// shared) the writer's own, else its provisional number (core/numbering.h).
std::int64_t number_for(Database& db, const Event& event, std::string_view kind, std::int64_t writer_number);

} // namespace projection

} // namespace ej::store
