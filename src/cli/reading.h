#pragma once

#include "cli/workspace.h"

// Opening the journal for a command that only reads it.
namespace ej::cli {

// store::open_for_reading: no write lock, no checkpoint. Runs left `started` by an ej that is gone
// are marked interrupted first, through open_journal, so that a reader shows what a writer would.
store::Journal open_journal_for_reading(const measuring::Workspace& workspace);

} // namespace ej::cli
