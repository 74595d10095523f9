#include "evidence/journal_sync.h"

#include "git/journal_refs.h"
#include "store/event_exchange.h"
#include "store/events.h"
#include "util/error.h"
#include "util/time.h"
#include "util/ulid.h"

#include <fmt/format.h>

#include <map>
#include <set>

namespace ej::evidence {

namespace {

constexpr int k_claim_tries = 8;
constexpr const char* k_kinds[] = {"attempts", "runs"};

std::string tip_key(const std::string& replica)
{
  return "sync.tip." + replica;
}

// This replica's events not yet on its ref, as one batch.
int publish(store::Journal& journal, git::JournalRefs& refs)
{
  const auto& me = journal.replica_id();
  const auto events = store::events_of_replica_after(journal.db(), me, refs.published_seq(me));
  if (events.empty()) {
    return 0;
  }
  git::OutgoingBatch batch;
  batch.last_seq = events.back().seq;
  for (const auto& event : events) {
    batch.events += store::encode_event(event);
  }
  for (const auto& hash : store::blobs_named(events)) {
    if (auto content = journal.blob(hash)) {
      batch.blobs.emplace_back(hash, std::move(*content));
    }
  }
  refs.append_batch(me, batch);
  return static_cast<int>(events.size());
}

struct Incoming {
  std::vector<store::Event> events;
  std::map<std::string, std::string> blob_commit; // blob hash -> commit that carries it
  std::map<std::string, std::string> tips;        // replica -> fetched tip
  int replicas = 0;
};

Incoming read_remote(store::Journal& journal, git::JournalRefs& refs, const std::string& remote)
{
  Incoming incoming;
  for (const auto& [replica, tip] : refs.fetched_replicas(remote)) {
    if (replica == journal.replica_id()) {
      continue; // its own events: this journal has them all
    }
    ++incoming.replicas;
    const auto last = store::meta_value(journal.db(), tip_key(replica)).value_or("");
    if (last == tip) {
      continue; // nothing new from it: no commit is read
    }
    for (auto& batch : refs.batches_between(tip, last)) {
      for (auto& event : store::decode_events(batch.events)) {
        incoming.events.push_back(std::move(event));
      }
      for (const auto& hash : batch.blob_hashes) {
        incoming.blob_commit.emplace(hash, batch.commit);
      }
    }
    incoming.tips[replica] = tip;
  }
  for (const auto* kind : k_kinds) {
    for (const auto& claim : refs.fetched_claims(remote, kind)) {
      for (auto& event : store::decode_events(claim.content)) {
        incoming.events.push_back(std::move(event));
      }
    }
  }
  return incoming;
}

int count_unknown(store::Database& db, const std::vector<store::Event>& events)
{
  auto known = db.prepare("SELECT 1 FROM events WHERE id = ?");
  std::set<std::string> unknown;
  for (const auto& event : events) {
    known.reset();
    known.bind(1, event.id);
    if (!known.step()) {
      unknown.insert(event.id);
    }
  }
  return static_cast<int>(unknown.size());
}

store::ImportReport import_remote(store::Journal& journal, git::JournalRefs& refs, Incoming incoming)
{
  const auto blob = [&](const std::string& hash) -> std::optional<std::string> {
    const auto it = incoming.blob_commit.find(hash);
    return it == incoming.blob_commit.end() ? std::nullopt : refs.batch_blob(it->second, hash);
  };
  return store::import_events(journal, std::move(incoming.events), blob, [&](store::Database& db) {
    for (const auto& [replica, tip] : incoming.tips) {
      store::set_meta_value(db, tip_key(replica), tip);
    }
  });
}

struct Unclaimed {
  std::string id;
  long long number = 0;
};

// What this replica created that the remote has not numbered yet, in the order it was created.
std::vector<Unclaimed> unclaimed(store::Database& db, const std::string& kind, const std::string& replica)
{
  const auto table = kind == "attempts" ? "attempts" : "runs";
  // In the order this replica created them (its events' local order).
  auto select = db.prepare(fmt::format(
      "SELECT t.id, t.number FROM {} t JOIN events e ON e.id = t.id WHERE t.replica = ? AND t.id NOT IN "
      "(SELECT id FROM number_claims WHERE kind = ?) ORDER BY e.seq",
      table));
  select.bind(1, replica).bind(2, kind);
  std::vector<Unclaimed> out;
  while (select.step()) {
    out.push_back({select.text(0), select.integer(1)});
  }
  return out;
}

long long current_number(store::Database& db, const std::string& kind, const std::string& id)
{
  auto select =
      db.prepare(fmt::format("SELECT number FROM {} WHERE id = ?", kind == "attempts" ? "attempts" : "runs"));
  select.bind(1, id);
  return select.step() ? select.integer(0) : 0;
}

store::Event claim_event(store::Journal& journal, const std::string& kind, long long first,
                         const std::vector<Unclaimed>& items)
{
  store::events::NumbersClaimed claim;
  claim.kind = kind;
  claim.first = first;
  for (const auto& item : items) {
    claim.ids.push_back(item.id);
  }
  store::Event event;
  event.time_ms = util::now_ms();
  event.id = util::make_ulid(event.time_ms);
  event.replica = journal.replica_id();
  event.lamport = journal.db().query_integer("SELECT coalesce(max(lamport), 0) + 1 FROM events");
  event.type = std::string(store::events::NumbersClaimed::type);
  event.payload = claim.payload();
  return event;
}

// Claims the next free numbers for what this replica created; another replica that claimed the
// same numbers first makes this one fetch, import and try the next ones.
void claim_numbers(store::Journal& journal, git::JournalRefs& refs, const std::string& remote,
                   SyncReport& report)
{
  auto& db = journal.db();
  for (int attempt = 0; attempt < k_claim_tries; ++attempt) {
    std::vector<git::RemoteClaim> claims;
    std::vector<store::Event> events;
    std::map<std::string, std::pair<std::string, long long>> before; // id -> kind, number
    for (const auto* kind : k_kinds) {
      const auto items = unclaimed(db, kind, journal.replica_id());
      if (items.empty()) {
        continue;
      }
      auto query = db.prepare("SELECT coalesce(max(number), 0) + 1 FROM number_claims WHERE kind = ?");
      query.bind(1, std::string(kind));
      query.step();
      const long long next = query.integer(0);
      auto event = claim_event(journal, kind, next, items);
      claims.push_back({kind, next, store::encode_event(event)});
      events.push_back(std::move(event));
      for (const auto& item : items) {
        before[item.id] = {kind, item.number};
      }
    }
    if (claims.empty()) {
      return;
    }
    const auto outcome = refs.push(remote, journal.replica_id(), claims);
    std::vector<store::Event> accepted;
    for (std::size_t i = 0; i < claims.size(); ++i) {
      if (outcome.accepted(fmt::format("refs/ej/numbers/{}/{}", claims[i].kind, claims[i].first))) {
        accepted.push_back(events[i]);
      }
    }
    if (!accepted.empty()) {
      store::import_events(journal, std::move(accepted), [](const std::string&) { return std::nullopt; });
      for (const auto& [id, was] : before) {
        const auto now = current_number(db, was.first, id);
        if (now != was.second) {
          report.numbered.push_back({was.first == "attempts" ? "attempt" : "run", was.second, now});
        }
      }
    }
    if (accepted.size() == claims.size()) {
      return;
    }
    // Lost the race for some numbers: read what the winner published, then try the next ones.
    refs.fetch(remote);
    report.received += import_remote(journal, refs, read_remote(journal, refs, remote)).received;
  }
  throw Error(
      "could not claim numbers on {} after {} tries (other replicas kept claiming the same ones); run "
      "'ej sync' again",
      remote, k_claim_tries);
}

} // namespace

SyncReport sync_journal(store::Journal& journal, const std::filesystem::path& common_dir,
                        const SyncOptions& options)
{
  if (!options.dry_run && journal.read_only_reason()) {
    throw Error("{}", *journal.read_only_reason());
  }
  git::JournalRefs::clear_stale_locks(common_dir); // the caller holds the journal's sync lock
  git::JournalRefs refs(common_dir);
  SyncReport report;
  const auto& me = journal.replica_id();
  if (options.dry_run) {
    report.sent =
        static_cast<int>(store::events_of_replica_after(journal.db(), me, refs.published_seq(me)).size());
  } else {
    report.sent = publish(journal, refs);
  }
  refs.fetch(options.remote);
  auto incoming = read_remote(journal, refs, options.remote);
  report.replicas = incoming.replicas;
  if (options.dry_run) {
    report.received = count_unknown(journal.db(), incoming.events);
    for (const auto* kind : k_kinds) {
      report.unclaimed += static_cast<int>(unclaimed(journal.db(), kind, me).size());
    }
    return report;
  }
  const auto imported = import_remote(journal, refs, std::move(incoming));
  report.received = imported.received;
  report.missing_blobs = static_cast<int>(imported.missing_blobs.size());
  claim_numbers(journal, refs, options.remote, report);
  report.sent += publish(journal, refs); // the claims are this replica's events too
  const auto outcome = refs.push(options.remote, me, {});
  if (!outcome.ok) {
    throw Error(
        "{} refused this journal's ref ({}): another journal publishes as replica {} (a copied journal "
        "file?); the events are kept here. Ask for help with 'ej fsck'",
        options.remote, fmt::join(outcome.rejected, "; "), me);
  }
  return report;
}

std::optional<std::string> default_sync_remote(const std::filesystem::path& common_dir)
{
  git::JournalRefs refs(common_dir);
  return refs.default_remote();
}

int remote_replica_count(const std::filesystem::path& common_dir, const std::string& remote)
{
  git::JournalRefs refs(common_dir);
  refs.fetch(remote);
  return static_cast<int>(refs.fetched_replicas(remote).size());
}

} // namespace ej::evidence
