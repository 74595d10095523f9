#pragma once

#include "store/journal.h"

#include <filesystem>
#include <optional>
#include <string>

namespace ej::store {

// Opens an existing journal for a command that only reads: a read-only connection, which takes no
// write lock, migrates nothing, checkpoints nothing and checks nothing that only matters to a write
// (every write refuses). A journal that needs more (a migration, a file SQLite cannot read without
// help, a journal with no replica yet) is opened as Journal::open does.
Journal open_for_reading(const std::filesystem::path& ej_dir);

// Why nothing may be written to the journal until the user decides: it went backwards (an older
// copy put back) or is another journal than the one ej wrote here. Readers say it as a warning.
std::optional<std::string> identity_problem(Journal& journal);

} // namespace ej::store
