#pragma once

#include "core/git_context.h"
#include "git/repository.h"
#include "store/journal.h"

// How an attempt or a run records the code state it was made from.
namespace ej::measuring {

// Stores the diff (when dirty) as a blob in the writer's transaction, and the untracked files kept
// whole; the context names them.
core::GitContext store_code_state(store::Writer& writer, const git::CodeState& state);

} // namespace ej::measuring
