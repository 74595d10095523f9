#include "store/fsck.h"
#include "cli/commands.h"
#include "evidence/journal_sync.h"
#include "evidence/purge_published.h"
#include "measuring/workspace.h"
#include "store/purge.h"
#include "util/error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/statvfs.h>

#include <filesystem>

#include <algorithm>

// Journal maintenance: fsck, reindex and purge.
namespace ej::cli {

namespace {

bool disk_full(const std::filesystem::path& dir)
{
  struct statvfs info {};
  return ::statvfs(dir.c_str(), &info) == 0 && info.f_bavail * info.f_frsize < 64 * 1024;
}

// What to do about the problems found: the advice that fits them, naming backups only when
// there are some.
void print_advice(const measuring::Workspace& workspace, const std::filesystem::path& file)
{
  if (disk_full(workspace.ej_dir)) {
    fmt::print(
        "The disk holding {} is full: free space there and run 'ej fsck' again before concluding that it is "
        "damaged.\n",
        file.string());
    return;
  }
  std::vector<std::string> backups;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(workspace.ej_dir, ec)) {
    if (entry.path().filename().string().starts_with("journal.db.backup-")) {
      backups.push_back(entry.path().filename().string());
    }
  }
  fmt::print("Derived tables can be rebuilt with 'ej reindex'. A damaged file is rebuilt from its intact "
             "events with "
             "'ej fsck --repair' (the damaged file is kept){}.\n",
             backups.empty() ? "" : fmt::format("; backups beside it: {}", fmt::join(backups, ", ")));
}

// fsck must report a damaged file rather than fail to open it.
int run_fsck(bool full)
{
  const auto workspace = measuring::locate_workspace();
  const auto file = store::journal_file(workspace.ej_dir);
  if (!std::filesystem::exists(file)) {
    throw Error("no journal in {}; run 'ej init' first", workspace.work_tree.string());
  }
  store::FsckReport report;
  try {
    auto journal = store::Journal::open(workspace.ej_dir);
    if (journal.read_only_reason()) {
      fmt::print("ej fsck: {}\n", *journal.read_only_reason());
    }
    // A journal that must not be written is checked by SQLite only: replaying needs a transaction.
    report = store::check_journal(journal.db(), full, !journal.read_only_reason());
  } catch (const Error& error) {
    report.problems.push_back(error.what());
  }
  if (report.problems.empty()) {
    fmt::print("ej fsck: {} is ok ({})\n", file.string(), fmt::join(report.checked, ", "));
    return 0;
  }
  // Damage (not a derived table out of step, which reindex mends): nothing more is written to it.
  for (const auto& problem : report.problems) {
    if (problem.starts_with("sqlite: ") || problem.starts_with("events cannot be replayed")) {
      store::mark_damaged(file, "ej fsck: " + problem);
      break;
    }
  }
  fmt::print("ej fsck: {} has {} problem(s):\n", file.string(), report.problems.size());
  for (const auto& problem : report.problems) {
    fmt::print("  - {}\n", problem);
  }
  print_advice(workspace, file);
  return 1;
}

void run_repair()
{
  const auto workspace = measuring::locate_workspace();
  const auto file = store::journal_file(workspace.ej_dir);
  if (!std::filesystem::exists(file)) {
    throw Error("no journal in {}; run 'ej init' first", workspace.work_tree.string());
  }
  const auto [report, kept] = store::repair_journal(workspace.ej_dir);
  fmt::print(
      "ej fsck: rebuilt {} from {} events and {} blobs{}; the damaged file is kept as {}\n", file.string(),
      report.events, report.blobs,
      report.events_lost + report.blobs_lost == 0
          ? std::string()
          : fmt::format(" ({} events and {} blobs could not be read)", report.events_lost, report.blobs_lost),
      kept.filename().string());
}

void run_accept()
{
  const auto workspace = measuring::locate_workspace();
  auto journal = store::Journal::open(workspace.ej_dir);
  journal.accept_as_it_is();
  fmt::print("ej fsck: the journal is accepted as it is ({} events); ej records into it again\n",
             journal.db().query_integer("SELECT count(*) FROM events"));
  if (evidence::behind_its_published_ref(journal, workspace.ej_dir.parent_path())) {
    fmt::print(
        "ej fsck: this replica had published events that the journal no longer holds: the next 'ej sync' "
        "brings them back and publishes everything recorded since\n");
  }
}

void run_reindex()
{
  auto journal = open_journal(measuring::locate_workspace());
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

// What a purge did and could not do beyond the journal file, once the value was shared.
void print_published(const evidence::PublishedPurge& published)
{
  if (published.batches > 0) {
    fmt::print("ej: rewrote {} published batch(es) of this replica's ref ({}); run 'ej sync' now: it "
               "replaces the copy on {}, which holds the value until then\n",
               published.batches, published.ref, published.remote.value_or("the remote"));
    fmt::print("ej: the old batches stay in this repository's object store until 'git reflog expire "
               "--expire=now --all && git gc --prune=now', and on the remote's until its owner runs "
               "'git gc --prune=now' there\n");
  }
  if (!published.holders.empty()) {
    fmt::print("ej: the refs of {} other replica(s) on {} still hold the value (as of the last sync): {}; "
               "their owners must run 'ej purge --secret' and 'ej sync' too\n",
               published.holders.size(), *published.remote, fmt::join(published.holders, ", "));
  }
  if (published.batches > 0 || !published.holders.empty()) {
    fmt::print("ej: every clone that synced since the value was published keeps it in its journal and its "
               "git objects ({} other replica(s) on {}): ask their owners to purge it there too\n",
               published.replicas, published.remote.value_or("the remote"));
  }
}

void run_purge(const std::string& secret)
{
  const auto workspace = measuring::locate_workspace();
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
  print_published(evidence::purge_published(journal, workspace.ej_dir.parent_path(), secret));
  fmt::print("ej: regenerate plan documents that showed it ('ej plan render'), and rotate the secret: "
             "anything that read it before is out of ej's reach\n");
}

} // namespace

void register_maintenance(CLI::App& app)
{
  auto full = std::make_shared<bool>(false);
  auto repair = std::make_shared<bool>(false);
  auto accept = std::make_shared<bool>(false);
  auto* fsck =
      app.add_subcommand("fsck", "Check the journal: SQLite integrity and derived tables against events");
  fsck->add_flag("--full", *full, "Run the slower integrity_check instead of quick_check");
  fsck->add_flag(
      "--repair", *repair,
      "Rebuild a damaged journal from the events and blobs it can still read, into a new file (the damaged "
      "one is kept as journal.db.damaged-TIME)");
  fsck->add_flag(
      "--accept", *accept,
      "Accept a journal that went backwards or changed identity (an older copy put back) as it is, and "
      "record into it again");
  fsck->footer("Examples:\n  ej fsck --full\n  ej fsck --repair     # after 'the journal ... is damaged'");
  fsck->callback([full, repair, accept] {
    if (*repair) {
      run_repair();
    } else if (*accept) {
      run_accept();
    } else if (run_fsck(*full) != 0) {
      throw ExitCode{1};
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
      "how many events and blobs changed, never the value. Batches this replica published are rewritten "
      "too; the next 'ej sync' replaces them on the remote. Prefer 'read -rs V; ej purge --secret \"$V\"' "
      "so the value stays out of your shell history.\n\n"
      "Example:\n  read -rs V; ej purge --secret \"$V\"; ej sync");
  purge->callback([secret] { run_purge(*secret); });
}

} // namespace ej::cli
