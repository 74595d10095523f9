#include "store/fsck.h"
#include "cli/commands.h"
#include "cli/workspace.h"
#include "store/purge.h"
#include "util/error.h"

#include <fmt/format.h>

#include <algorithm>

// Journal maintenance: fsck, reindex and purge.
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
             "(.ej/journal.db.backup-*) or 'sqlite3 .ej/journal.db .recover'.\n");
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

// Backups made before migrations are copies of the journal that a purge does not rewrite.
std::vector<std::string> backups(const std::filesystem::path& ej_dir)
{
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(ej_dir, ec)) {
    if (entry.path().filename().string().find(".backup") != std::string::npos) {
      found.push_back(entry.path().string());
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

void run_purge(const std::string& secret)
{
  const auto workspace = locate_workspace();
  auto journal = open_journal(workspace);
  const auto report = store::purge_value(journal, secret);
  fmt::print("ej: purged the value from {} event(s) and {} blob(s); the derived tables were rebuilt and "
             "the file rewritten\n",
             report.events, report.blobs);
  if (!report.checkpointed) {
    fmt::print("ej: another ej has the journal open, so its write-ahead log still holds old pages; run "
               "'ej purge' again once it has finished\n");
  }
  for (const auto& backup : backups(workspace.ej_dir)) {
    fmt::print("ej: the backup {} was not rewritten and may still hold the value; delete it\n", backup);
  }
  fmt::print("ej: regenerate plan documents that showed it ('ej plan render'), and rotate the secret: "
             "anything that read it before is out of ej's reach\n");
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

  auto secret = std::make_shared<std::string>();
  auto* purge = app.add_subcommand(
      "purge",
      "Remove a leaked value from every stored copy in the journal (events, blobs, outputs, snapshots)");
  purge->add_option("--secret", *secret, "The leaked value; every occurrence becomes <redacted>")->required();
  purge->footer(
      "The rewrite keeps 'ej fsck --full' passing: events still replay. A journal.purged event records "
      "how many events and blobs changed, never the value. Prefer 'read -rs V; ej purge --secret \"$V\"' "
      "so the value stays out of your shell history.");
  purge->callback([secret] { run_purge(*secret); });
}

} // namespace ej::cli
