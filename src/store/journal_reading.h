#pragma once

#include "store/journal.h"

#include <filesystem>

namespace ej::store {

// Opens an existing journal for a command that only reads: a read-only connection, which takes no
// write lock, migrates nothing, checkpoints nothing and checks nothing that only matters to a write
// (every write refuses). A journal that needs more (a migration, a file SQLite cannot read without
// help, a journal with no replica yet) is opened as Journal::open does.
Journal open_for_reading(const std::filesystem::path& ej_dir);

} // namespace ej::store
