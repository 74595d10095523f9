#include "cli/reading.h"

#include "measuring/rerun_worktree.h"
#include "measuring/stale_runs.h"
#include "store/journal_reading.h"
#include "store/run_queries.h"

#include <fmt/format.h>

#include <algorithm>

namespace ej::cli {

namespace {

store::Journal open_for_reading_recovered(const measuring::Workspace& workspace)
{
  auto journal = store::open_for_reading(workspace.ej_dir);
  // Not the journal: the worktrees of reruns that were killed.
  measuring::remove_abandoned_worktrees(workspace,
                                        [](std::string_view line) { fmt::print(stderr, "{}\n", line); });
  const auto started = store::runs_with_status(journal.db(), core::RunStatus::Started);
  if (std::any_of(started.begin(), started.end(),
                  [&](const core::RunRecord& run) { return measuring::run_process_gone(journal, run); })) {
    return open_journal(workspace); // recovers them
  }
  return journal;
}

} // namespace

store::Journal open_journal_for_reading(const measuring::Workspace& workspace)
{
  if (!std::filesystem::exists(store::journal_file(workspace.ej_dir))) {
    return open_journal(workspace); // says to run ej init
  }
  auto journal = open_for_reading_recovered(workspace);
  // What it shows may be older than what was recorded here: said before it is shown.
  if (const auto problem = store::identity_problem(journal)) {
    fmt::print(stderr, "ej: warning: {}\n", *problem);
  }
  return journal;
}

} // namespace ej::cli
