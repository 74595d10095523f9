#include "evidence/journal_sync.h"

#include "evidence/purge_published.h"
#include "evidence/republish.h"
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

// This replica's events not yet on its ref, as one batch.
int publish(store::Journal& journal, git::JournalRefs& refs)
{
  const auto& me = journal.replica_id();
  const auto events = store::events_of_replica_after(journal.db(), me, refs.published_seq(me));
  if (events.empty()) {
    return 0;
  }
  append_published(journal, refs, events, events.back().seq);
  return static_cast<int>(events.size());
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
  return select.rows([](const store::Statement& row) { return Unclaimed{row.text(0), row.integer(1)}; });
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
  event.lamport = store::next_clock(journal.db());
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
    }
    if (accepted.size() == claims.size()) {
      return;
    }
    // Lost the race for some numbers: read what the winner published, then try the next ones.
    refs.fetch(remote);
    auto imported = import_incoming(journal, refs, remote);
    report.received += imported.imported.received;
    report.held = std::move(imported.held);
  }
  throw Error(
      "could not claim numbers on {} after {} tries (other replicas kept claiming the same ones); run "
      "'ej sync' again",
      remote, k_claim_tries);
}

// What commands call an attempt or run that no claim has numbered yet (claimed numbers never move).
struct ShownName {
  std::string kind; // "attempts" or "runs"
  std::string id;
  long long number = 0;
};

// Before a sync: the names it may change, so that it reports each move by the name shown before.
std::vector<ShownName> unnumbered_names(store::Database& db)
{
  std::vector<ShownName> out;
  for (const auto* kind : k_kinds) {
    auto select = db.prepare(fmt::format(
        "SELECT id, number FROM {0} WHERE id NOT IN (SELECT id FROM number_claims WHERE kind = '{0}') "
        "ORDER BY number",
        kind));
    while (select.step()) {
      out.push_back({kind, select.text(0), select.integer(1)});
    }
  }
  return out;
}

void report_moves(store::Database& db, const std::vector<ShownName>& before, SyncReport& report)
{
  for (const auto& name : before) {
    const auto now = current_number(db, name.kind, name.id);
    if (now != 0 && now != name.number) {
      report.numbered.push_back({name.kind == "attempts" ? "attempt" : "run", name.number, now});
    }
  }
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
  const auto names_before = unnumbered_names(journal.db());
  // A journal put back from an older copy is re-based on its ref once the others' events are in.
  const bool in_step = in_step_with_published(journal, refs);
  if (options.dry_run && in_step) {
    report.sent =
        static_cast<int>(store::events_of_replica_after(journal.db(), me, refs.published_seq(me)).size());
  } else if (in_step) {
    report.sent = publish(journal, refs);
  }
  refs.fetch(options.remote);
  if (!options.dry_run) {
    replace_purged_ref(journal, common_dir, options.remote); // before anything is pushed on top of it
  }
  if (options.dry_run) {
    const auto incoming = read_incoming(journal, refs, options.remote);
    report.replicas = incoming.replicas;
    report.held = incoming.held;
    report.received = count_unknown(journal.db(), incoming.events);
    if (!in_step) {
      const auto rebased = rebase_on_published(journal, refs, true);
      report.restored = rebased.restored;
      report.sent = rebased.sent;
    }
    for (const auto* kind : k_kinds) {
      report.unclaimed += static_cast<int>(unclaimed(journal.db(), kind, me).size());
    }
    return report;
  }
  auto imported = import_incoming(journal, refs, options.remote);
  report.replicas = imported.replicas;
  report.held = std::move(imported.held);
  report.received = imported.imported.received;
  report.missing_blobs = static_cast<int>(imported.imported.missing_blobs.size());
  if (!in_step) {
    const auto rebased = rebase_on_published(journal, refs, false);
    report.restored = rebased.restored;
    report.sent += rebased.sent;
  }
  claim_numbers(journal, refs, options.remote, report);
  report.sent += publish(journal, refs); // the claims are this replica's events too
  const auto outcome = refs.push(options.remote, me, {});
  if (!outcome.ok) {
    throw Error(
        "{} refused this journal's ref ({}): another journal publishes as replica {} (a copied journal "
        "file?); the events are kept here. Ask for help with 'ej fsck'",
        options.remote, fmt::join(outcome.rejected, "; "), me);
  }
  report_moves(journal.db(), names_before, report);
  return report;
}

bool behind_its_published_ref(store::Journal& journal, const std::filesystem::path& common_dir)
{
  git::JournalRefs refs(common_dir);
  return !in_step_with_published(journal, refs);
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
