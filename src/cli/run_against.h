#pragma once

#include "measuring/detach.h"
#include "measuring/interleaved_run.h"
#include "measuring/workspace.h"

#include <string>

// `ej run BENCH --against REF`: the reference named, its code state restored into a temporary
// linked worktree, both sides measured interleaved (measuring/interleaved_run.h) and the paired
// verdict printed.
namespace ej::cli {

struct AgainstOptions {
  std::string against; // baseline, a run, an attempt, or a git revision
  std::string attempt; // --attempt: the candidate's
  std::string budget;  // --budget DURATION
  std::uint64_t keep_untracked = 0;
};

// request.candidate is what `ej run` was asked; the rest of request as the options gave it.
// `detached` is active in the background ej of `ej run --against REF --detach`.
void run_against(const measuring::Workspace& workspace, const AgainstOptions& options,
                 measuring::InterleavedRequest request, measuring::DetachedReport& detached);

// "90", "90s", "15m", "2h" as seconds; a usage error naming --budget for anything else.
double parse_budget(const std::string& text);

} // namespace ej::cli
