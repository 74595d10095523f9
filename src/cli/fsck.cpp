#include "cli/commands.h"
#include "cli/workspace.h"
#include "store/fsck.h"
#include "util/error.h"

#include <fmt/format.h>

// Journal maintenance: fsck and reindex.
namespace ej::cli {

namespace {

// fsck must report a damaged file rather than fail to open it.
int run_fsck(bool full)
{
  const auto workspace = locate_workspace();
  const auto file = store::journal_file(workspace.ej_dir);
  if (!std::filesystem::exists(file)) {
    throw Error("no journal in {}; run 'ej init' first", workspace.work_tree.string());
  }
  store::FsckReport report;
  try {
    auto journal = store::Journal::open(workspace.ej_dir);
    if (journal.read_only_reason()) {
      throw Error("{}", *journal.read_only_reason());
    }
    report = store::check_journal(journal.db(), full);
  } catch (const Error& error) {
    report.problems.push_back(error.what());
  }
  if (report.problems.empty()) {
    fmt::print("ej fsck: {} is ok ({})\n", file.string(), fmt::join(report.checked, ", "));
    return 0;
  }
  fmt::print("ej fsck: {} has {} problem(s):\n", file.string(), report.problems.size());
  for (const auto& problem : report.problems) {
    fmt::print("  - {}\n", problem);
  }
  fmt::print("Derived tables can be rebuilt with 'ej reindex'; a damaged file needs a backup "
             "({}.backup-*) or 'sqlite3 {} .recover'.\n",
             file.string(), file.string());
  return 1;
}

void run_reindex()
{
  auto journal = open_journal(locate_workspace());
  if (journal.read_only_reason()) {
    throw Error("{}", *journal.read_only_reason());
  }
  store::reindex_journal(journal.db());
  fmt::print("ej: derived tables rebuilt from {} events\n",
             journal.db().query_integer("SELECT count(*) FROM events"));
}

} // namespace

void register_maintenance(CLI::App& app)
{
  auto full = std::make_shared<bool>(false);
  auto* fsck = app.add_subcommand("fsck", "Check the journal: SQLite integrity and derived tables against events");
  fsck->add_flag("--full", *full, "Run the slower integrity_check instead of quick_check");
  fsck->callback([full] {
    if (run_fsck(*full) != 0) {
      throw ExitCode(1);
    }
  });

  auto* reindex = app.add_subcommand("reindex", "Rebuild every derived table from the event log");
  reindex->callback(run_reindex);
}

} // namespace ej::cli
