#pragma once

#include "store/journal.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// `ej purge` beyond the journal file: what this replica published on its git ref
// (refs/ej/replicas/<id>) is rewritten the same way, and the next `ej sync` replaces the remote's
// copy; what other replicas published is theirs to purge, so it is only found and named.
namespace ej::evidence {

struct PublishedPurge {
  int batches = 0;                   // batches of this replica's ref that held the value, rewritten
  int replicas = 0;                  // other replicas the sync remote had at the last sync
  std::optional<std::string> remote; // the sync remote looked at (none: a journal never shared)
  std::vector<std::string> holders;  // other replicas whose refs there still hold the value
  std::string ref;                   // this replica's ref
};

// Runs after store::purge_value, whose journal it reads the purged events from. Rewrites this
// replica's ref when one of its batches holds the value, and records that the next sync must
// replace the remote's copy (a push that is not a fast-forward). Never contacts the remote: it
// reads what the last sync fetched.
PublishedPurge purge_published(store::Journal& journal, const std::filesystem::path& common_dir,
                               std::string_view value);

// Part of `ej sync`, after its fetch: when a purge rewrote this replica's ref, replaces the remote's
// copy, provided the remote still has what the purge replaced (or part of it); says what to do
// otherwise. Returns whether it replaced it.
bool replace_purged_ref(store::Journal& journal, const std::filesystem::path& common_dir,
                        const std::string& remote);

} // namespace ej::evidence
