#include "evidence/purge_published.h"

#include "git/journal_refs.h"
#include "store/event_exchange.h"
#include "store/purge.h"
#include "util/error.h"
#include "util/hash.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ej::evidence {

namespace {

// The tip of this replica's ref that a purge replaced, until a sync replaced the remote's copy.
constexpr const char* k_replaced_key = "sync.purge_replaced_tip";

// A batch as it is published once the value is out: its events as the purged journal holds them
// (a blob the purge rewrote is named there by its new hash), its blobs without the value under
// their new hashes. Returns whether it held the value.
bool purge_batch(store::Journal& journal, git::JournalRefs& refs, const git::IncomingBatch& batch,
                 std::string_view value, git::OutgoingBatch& out)
{
  bool changed = store::holds_value(batch.events, value);
  out.last_seq = batch.last_seq;
  for (const auto& hash : batch.blob_hashes) {
    auto content = refs.batch_blob(batch.commit, hash);
    if (!content) {
      continue; // named but never published: nothing to carry
    }
    if (auto purged = store::without_value(*content, value)) {
      changed = true;
      out.blobs.emplace_back(util::sha256_hex(*purged), std::move(*purged));
    } else {
      out.blobs.emplace_back(hash, std::move(*content));
    }
  }
  out.events = changed ? store::events_as_stored(journal.db(), batch.events, value) : batch.events;
  return changed;
}

// The other replicas whose published batches (as the last sync fetched them) hold the value.
std::vector<std::string> replicas_holding(git::JournalRefs& refs, const std::string& remote,
                                          const std::string& me, std::string_view value, int& replicas)
{
  std::vector<std::string> holders;
  for (const auto& [replica, tip] : refs.fetched_replicas(remote)) {
    if (replica == me) {
      continue;
    }
    ++replicas;
    bool holds = false;
    for (const auto& batch : refs.batches_between(tip, "")) {
      holds = store::holds_value(batch.events, value);
      for (std::size_t i = 0; !holds && i < batch.blob_hashes.size(); ++i) {
        const auto content = refs.batch_blob(batch.commit, batch.blob_hashes[i]);
        holds = content && store::holds_value(*content, value);
      }
      if (holds) {
        break;
      }
    }
    if (holds) {
      holders.push_back(replica);
    }
  }
  return holders;
}

} // namespace

PublishedPurge purge_published(store::Journal& journal, const std::filesystem::path& common_dir,
                               std::string_view value)
{
  git::JournalRefs refs(common_dir);
  const auto& me = journal.replica_id();
  PublishedPurge out;
  out.ref = "refs/ej/replicas/" + me;
  out.remote = refs.default_remote();
  if (const auto tip = refs.own_tip(me)) {
    std::vector<git::OutgoingBatch> batches;
    for (const auto& batch : refs.batches_between(*tip, "")) {
      git::OutgoingBatch purged;
      if (purge_batch(journal, refs, batch, value, purged)) {
        ++out.batches;
      }
      batches.push_back(std::move(purged));
    }
    if (out.batches > 0) {
      refs.replace_batches(me, batches, *tip);
      // The first purge's tip is what the remote may still have: a second purge keeps it.
      journal.write([&](store::Writer&) {
        if (store::meta_value(journal.db(), k_replaced_key).value_or("").empty()) {
          store::set_meta_value(journal.db(), k_replaced_key, *tip);
        }
      });
    }
  }
  refs.forget_fetched_copies(me);
  if (out.remote) {
    out.holders = replicas_holding(refs, *out.remote, me, value, out.replicas);
  }
  return out;
}

bool replace_purged_ref(store::Journal& journal, const std::filesystem::path& common_dir,
                        const std::string& remote)
{
  const auto replaced = store::meta_value(journal.db(), k_replaced_key).value_or("");
  if (replaced.empty()) {
    return false;
  }
  git::JournalRefs refs(common_dir);
  const auto& me = journal.replica_id();
  for (const auto& [replica, tip] : refs.fetched_replicas(remote)) {
    if (replica == me && !refs.contains(replaced, tip)) {
      throw Error(
          "{} has batches under this replica's ref (refs/ej/replicas/{}) that ej purge did not replace "
          "(another journal publishing as this replica, a copied journal file?); ej replaced nothing "
          "there. Find that journal, purge it too, then run 'ej sync' from one of them",
          remote, me);
    }
  }
  const auto outcome = refs.push(remote, me, {}, true);
  if (!outcome.ok) {
    throw Error("{} refused to replace this replica's ref, which ej purge rewrote ({}); it still holds the "
                "purged value. A remote that denies pushes that are not fast-forwards "
                "(receive.denyNonFastForwards) must allow them for refs/ej/replicas/, or its owner "
                "replaces the ref by hand: git push --force {} refs/ej/replicas/{}",
                remote, fmt::join(outcome.rejected, "; "), remote, me);
  }
  journal.write([&](store::Writer&) { store::set_meta_value(journal.db(), k_replaced_key, ""); });
  refs.forget_fetched_copies(me);
  return true;
}

} // namespace ej::evidence
