#pragma once

#include "store/database.h"
#include "store/event.h"
#include "store/events.h"

#include <cstdint>
#include <string_view>

namespace ej::store {

// Updates the derived tables for one event. Used for every live write, for imports and for
// `ej reindex`, so they can never disagree. An event of a type this ej does not know (a newer
// one wrote it) changes nothing: false, said once on stderr.
bool apply_event(Database& db, const Event& event);

// Clears every derived table and replays all events in (lamport, replica, id) order, the claims of
// numbers first. The result depends only on the set of events, never on the order they arrived in.
// The caller holds a write transaction.
void rebuild_derived_tables(Database& db);

namespace projection {

// The local number of the attempt or run an event names (0: not in this journal).
std::int64_t attempt_number(Database& db, const Event& event, const events::Ref& ref);
std::int64_t run_number(Database& db, const Event& event, const events::Ref& ref);
// The number an attempt or run created by event gets: the remote's claim, else (a journal never
// shared) the writer's own, else its provisional number (core/numbering.h).
std::int64_t number_for(Database& db, const Event& event, std::string_view kind, std::int64_t writer_number);

} // namespace projection

} // namespace ej::store
