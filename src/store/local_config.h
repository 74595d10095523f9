#pragma once

#include "store/database.h"

#include <optional>
#include <string>

// Settings of this replica of the journal alone: kept in its meta table, never as events, so that
// neither ej sync nor ej export carries them to anyone else.
namespace ej::store {

// The plan `ej plan use` chose; nullopt when none was chosen (or the choice was cleared).
std::optional<std::string> current_plan(Database& db);
void set_current_plan(Database& db, const std::optional<std::string>& slug);

} // namespace ej::store
