#pragma once

#include "core/git_context.h"
#include "store/database.h"

namespace ej::store {

// The code state a row records, in the order every table that keeps one stores it: commit, branch,
// dirty, diff_blob, from column `first` on.
core::GitContext read_git_columns(const Statement& row, int first);

} // namespace ej::store
