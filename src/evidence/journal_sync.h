#pragma once

#include "evidence/sync_incoming.h"
#include "store/journal.h"

#include <filesystem>
#include <string>
#include <vector>

// `ej sync`: the journal shared through the git remote the team already pushes to. Publishes this
// replica's new events on its own ref, imports every other replica's, claims the next free numbers
// for what this replica created, and pushes. Every step can be interrupted: what was published
// or imported stays, and the next sync carries on from there.
namespace ej::evidence {

struct SyncOptions {
  std::string remote; // a remote's name or a URL
  bool dry_run = false;
};

// An attempt or run whose number changed in a sync: from is what commands showed before it.
struct Renumbered {
  std::string kind; // "attempt" or "run"
  long long from = 0;
  long long to = 0;
};

struct SyncReport {
  int sent = 0;                     // events published
  int received = 0;                 // events imported
  int replicas = 0;                 // other replicas the remote has
  int unclaimed = 0;                // dry run: attempts and runs that would get numbers
  int missing_blobs = 0;            // blobs named by imported events that no replica published
  int restored = 0;                 // this replica's published events that a rewound journal had lost
  std::vector<Renumbered> numbered; // numbers given (or changed) by this sync
  std::vector<HeldBack> held;       // batches of other replicas that could not be imported
};

// The caller holds the journal's sync lock: one sync of a journal at a time.
SyncReport sync_journal(store::Journal& journal, const std::filesystem::path& common_dir,
                        const SyncOptions& options);

// The remote ej sync uses when none is named (the branch's upstream remote, else origin).
std::optional<std::string> default_sync_remote(const std::filesystem::path& common_dir);
// Whether the replica's ref published events that the journal no longer holds where it published
// them (a journal put back from an older copy): the next sync re-bases it.
bool behind_its_published_ref(store::Journal& journal, const std::filesystem::path& common_dir);
// How many replicas the remote's journal has (0: none), for ej init's offer. Fetches.
int remote_replica_count(const std::filesystem::path& common_dir, const std::string& remote);

} // namespace ej::evidence
