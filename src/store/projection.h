#pragma once

#include "store/database.h"
#include "store/event.h"

namespace ej::store {

// Updates the derived tables for one event. Used for every live write and for `ej reindex`, so the
// two can never disagree.
void apply_event(Database& db, const Event& event);

// Clears every derived table and replays all events in (lamport, replica, id) order. The caller
// holds a write transaction.
void rebuild_derived_tables(Database& db);

} // namespace ej::store
