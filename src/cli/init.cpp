#include "cli/commands.h"
#include "cli/workspace.h"

#include <fmt/format.h>

namespace ej::cli {

namespace {

void run_init()
{
  const auto workspace = locate_workspace();
  const bool existed = std::filesystem::exists(store::journal_file(workspace.ej_dir));
  auto journal = store::Journal::create(workspace.ej_dir);
  if (existed) {
    fmt::print("ej: journal already initialised in {} (replica {})\n", workspace.ej_dir.string(),
               journal.replica_id());
  } else {
    fmt::print("ej: initialised an empty journal in {} (replica {})\n", workspace.ej_dir.string(),
               journal.replica_id());
  }
}

} // namespace

void register_init(CLI::App& app)
{
  auto* command = app.add_subcommand(
    "init", "Create the journal (in .git/ej/, shared by the repository's linked worktrees); harmless when run "
            "again");
  command->callback(run_init);
}

} // namespace ej::cli
