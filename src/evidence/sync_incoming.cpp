#include "evidence/sync_incoming.h"

#include "store/projection.h"
#include "util/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <optional>

namespace ej::evidence {

namespace {

constexpr const char* k_claim_kinds[] = {"attempts", "runs"};

std::string tip_key(const std::string& replica)
{
  return "sync.tip." + replica;
}

struct Batch {
  std::string commit;
  std::vector<store::Event> events;
  std::vector<std::string> blob_hashes;
};

// One replica's batches not imported yet, oldest first, up to the first that must be held back.
struct ReplicaBatches {
  std::string replica;
  std::string tip;
  std::vector<Batch> batches;
  int unread = 0; // batches from the one held back on (not in batches)
  std::optional<HeldBack> held;

  void hold_from(std::size_t index, std::string why)
  {
    const auto later = static_cast<int>(batches.size() - index);
    held = HeldBack{replica, batches[index].commit, later + unread, std::move(why)};
    batches.resize(index);
  }
};

// Batches held back before in this sync (replica -> the first one's commit): not read again.
using HeldFrom = std::map<std::string, std::pair<std::string, std::string>>; // replica -> commit, why

ReplicaBatches read_replica(store::Journal& journal, git::JournalRefs& refs, const std::string& replica,
                            const std::string& tip, const HeldFrom& held_from)
{
  ReplicaBatches out{replica, tip, {}, 0, std::nullopt};
  const auto last = store::meta_value(journal.db(), tip_key(replica)).value_or("");
  if (last == tip) {
    return out; // nothing new from it: no commit is read
  }
  auto batches = refs.batches_between(tip, last);
  const auto held = held_from.find(replica);
  for (std::size_t i = 0; i < batches.size(); ++i) {
    auto& batch = batches[i];
    out.unread = static_cast<int>(batches.size() - i);
    if (held != held_from.end() && batch.commit == held->second.first) {
      out.held = HeldBack{replica, batch.commit, out.unread, held->second.second};
      break;
    }
    if (!batch.problem.empty()) {
      out.held = HeldBack{replica, batch.commit, out.unread, batch.problem};
      break;
    }
    int bad = 0;
    std::string problem;
    auto events = store::decode_events(batch.events, &bad, &problem);
    if (bad > 0) {
      out.held = HeldBack{replica, batch.commit, out.unread, fmt::format("its events file: {}", problem)};
      break;
    }
    out.batches.push_back({batch.commit, std::move(events), std::move(batch.blob_hashes)});
  }
  if (!out.held) {
    out.unread = 0;
  }
  return out;
}

// Each replica's clocks against the highest of every other replica, in the journal or arriving.
void hold_clocks_ahead(store::Database& db, std::vector<ReplicaBatches>& replicas)
{
  std::map<std::string, std::int64_t> highest;
  for (const auto& r : replicas) {
    for (const auto& batch : r.batches) {
      for (const auto& event : batch.events) {
        if (event.lamport < store::k_clock_ceiling) {
          highest[r.replica] = std::max(highest[r.replica], event.lamport);
        }
      }
    }
  }
  for (auto& r : replicas) {
    auto others = store::highest_clock_except(db, r.replica);
    for (const auto& [replica, clock] : highest) {
      others = replica == r.replica ? others : std::max(others, clock);
    }
    for (std::size_t i = 0; i < r.batches.size(); ++i) {
      const auto& events = r.batches[i].events;
      const auto refused = std::find_if(events.begin(), events.end(), [&](const store::Event& event) {
        return store::clock_refusal(event, others).has_value();
      });
      if (refused != events.end()) {
        r.hold_from(i, *store::clock_refusal(*refused, others));
        break;
      }
    }
  }
}

Incoming read_checked(store::Journal& journal, git::JournalRefs& refs, const std::string& remote,
                      const HeldFrom& held_from)
{
  Incoming incoming;
  std::vector<ReplicaBatches> replicas;
  for (const auto& [replica, tip] : refs.fetched_replicas(remote)) {
    if (replica == journal.replica_id()) {
      continue; // its own events: this journal has them all
    }
    ++incoming.replicas;
    replicas.push_back(read_replica(journal, refs, replica, tip, held_from));
  }
  hold_clocks_ahead(journal.db(), replicas);
  for (auto& r : replicas) {
    for (auto& batch : r.batches) {
      std::move(batch.events.begin(), batch.events.end(), std::back_inserter(incoming.events));
      for (const auto& hash : batch.blob_hashes) {
        incoming.blob_commit.emplace(hash, batch.commit);
      }
    }
    if (!r.batches.empty()) {
      incoming.tips[r.replica] = r.held ? r.batches.back().commit : r.tip;
    }
    if (r.held) {
      incoming.held.push_back(*r.held);
    }
  }
  const auto clock_base = journal.db().query_integer("SELECT coalesce(max(lamport), 0) FROM events");
  for (const auto* kind : k_claim_kinds) {
    for (const auto& claim : refs.fetched_claims(remote, kind)) {
      for (auto& event : store::decode_events(claim.content)) {
        if (const auto why = store::clock_refusal(event, clock_base)) {
          incoming.held.push_back(
              {event.replica, fmt::format("refs/ej/numbers/{}/{}", kind, claim.first), 1, *why});
          continue;
        }
        incoming.events.push_back(std::move(event));
      }
    }
  }
  return incoming;
}

store::ImportReport import_read(store::Journal& journal, git::JournalRefs& refs, Incoming incoming)
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

// The batch of replica's new ones that holds the event (its commit); nullopt when none does.
std::optional<std::string> batch_holding(store::Journal& journal, git::JournalRefs& refs,
                                         const std::string& remote, const std::string& replica,
                                         const std::string& event_id)
{
  for (const auto& [name, tip] : refs.fetched_replicas(remote)) {
    if (name != replica) {
      continue;
    }
    const auto last = store::meta_value(journal.db(), tip_key(replica)).value_or("");
    for (const auto& batch : refs.batches_between(tip, last)) {
      for (const auto& event : store::decode_events(batch.events)) {
        if (event.id == event_id) {
          return batch.commit;
        }
      }
    }
  }
  return std::nullopt;
}

} // namespace

Incoming read_incoming(store::Journal& journal, git::JournalRefs& refs, const std::string& remote)
{
  return read_checked(journal, refs, remote, {});
}

IncomingReport import_incoming(store::Journal& journal, git::JournalRefs& refs, const std::string& remote)
{
  HeldFrom held_from;
  for (;;) {
    auto incoming = read_checked(journal, refs, remote, held_from);
    IncomingReport report;
    report.held = incoming.held;
    report.replicas = incoming.replicas;
    try {
      report.imported = import_read(journal, refs, std::move(incoming));
      return report;
    } catch (const store::MissingReference& missing) {
      // Only a replica's new batches can be held back: anything else is this journal's own state.
      const auto commit = batch_holding(journal, refs, remote, missing.replica(), missing.event_id());
      const auto before = held_from.find(missing.replica());
      if (!commit || (before != held_from.end() && before->second.first == *commit)) {
        throw;
      }
      held_from[missing.replica()] = {*commit, missing.what()};
    }
  }
}

} // namespace ej::evidence
