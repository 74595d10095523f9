#include "cli/commands.h"
#include "evidence/journal_sync.h"
#include "measuring/workspace.h"
#include "util/error.h"

#include <fmt/format.h>

namespace ej::cli {

namespace {

// A clone of a repository whose team shares a journal: say how to get it.
void offer_shared_journal(const measuring::Workspace& workspace)
{
  const auto common_dir = workspace.ej_dir.parent_path();
  const auto remote = evidence::default_sync_remote(common_dir);
  if (!remote) {
    return;
  }
  try {
    const int replicas = evidence::remote_replica_count(common_dir, *remote);
    if (replicas > 0) {
      fmt::print("ej: {} has a shared journal ({} replica(s)): run 'ej sync' to get it; attempts made before "
                 "that may get other numbers\n",
                 *remote, replicas);
    }
  } catch (const Error& error) {
    fmt::print(stderr, "ej: note: could not look for a shared journal on {}: {}\n", *remote, error.what());
  }
}

void run_init()
{
  const auto workspace = measuring::locate_workspace();
  const bool existed = std::filesystem::exists(store::journal_file(workspace.ej_dir));
  auto journal = store::Journal::create(workspace.ej_dir);
  if (existed) {
    fmt::print("ej: journal already initialised in {} (replica {})\n", workspace.ej_dir.string(),
               journal.replica_id());
  } else {
    fmt::print("ej: initialised an empty journal in {} (replica {})\n", workspace.ej_dir.string(),
               journal.replica_id());
  }
  offer_shared_journal(workspace);
}

} // namespace

void register_init(CLI::App& app)
{
  auto* command = app.add_subcommand(
      "init",
      "Create the journal (in .git/ej/, shared by the repository's linked worktrees); harmless when run "
      "again");
  command->callback(run_init);
}

} // namespace ej::cli
