#include "evidence/republish.h"

#include "store/event_exchange.h"

#include <fmt/format.h>

#include <map>
#include <set>

namespace ej::evidence {

namespace {

// The id of the last event of a batch's JSON lines ("" when it has none).
std::string last_event_id(std::string_view lines)
{
  auto end = lines.size();
  while (end > 0) {
    const auto cut = lines.rfind('\n', end - 1);
    const auto from = cut == std::string_view::npos ? 0 : cut + 1;
    const auto events = store::decode_events(lines.substr(from, end - from));
    if (!events.empty()) {
      return events.back().id;
    }
    if (cut == std::string_view::npos) {
      break;
    }
    end = cut;
  }
  return "";
}

} // namespace

void append_published(store::Journal& journal, git::JournalRefs& refs,
                      const std::vector<store::Event>& events, std::int64_t last_seq)
{
  git::OutgoingBatch batch;
  batch.last_seq = last_seq;
  for (const auto& event : events) {
    batch.events += store::encode_event(event);
  }
  for (const auto& hash : store::blobs_named(events)) {
    if (auto content = journal.blob(hash)) {
      batch.blobs.emplace_back(hash, std::move(*content));
    }
  }
  refs.append_batch(journal.replica_id(), batch);
}

bool in_step_with_published(store::Journal& journal, git::JournalRefs& refs)
{
  const auto& me = journal.replica_id();
  const auto last = refs.last_batch(me);
  if (!last) {
    return true; // nothing published yet
  }
  auto select = journal.db().prepare("SELECT id FROM events WHERE seq = ?");
  select.bind(1, refs.published_seq(me));
  return select.step() && select.text(0) == last_event_id(last->events);
}

Rebased rebase_on_published(store::Journal& journal, git::JournalRefs& refs, bool dry_run)
{
  const auto& me = journal.replica_id();
  Rebased out;
  std::set<std::string> published;
  std::vector<store::Event> events;
  std::map<std::string, std::string> blob_commit;
  if (const auto tip = refs.own_tip(me)) {
    for (auto& batch : refs.batches_between(*tip, "")) {
      for (auto& event : store::decode_events(batch.events)) {
        published.insert(event.id);
        events.push_back(std::move(event));
      }
      for (const auto& hash : batch.blob_hashes) {
        blob_commit.emplace(hash, batch.commit);
      }
    }
  }
  auto& db = journal.db();
  if (dry_run) {
    auto known = db.prepare("SELECT 1 FROM events WHERE id = ?");
    for (const auto& event : events) {
      known.reset();
      known.bind(1, event.id);
      out.restored += known.step() ? 0 : 1;
    }
  } else {
    out.restored = store::import_events(journal, std::move(events), [&](const std::string& hash) {
                     const auto it = blob_commit.find(hash);
                     return it == blob_commit.end() ? std::nullopt : refs.batch_blob(it->second, hash);
                   }).received;
  }
  // Every event of this replica the ref lacks, and the replica's last event, which the next
  // publish counts from (published twice at most: importing is idempotent).
  std::vector<std::int64_t> unpublished;
  std::int64_t last_seq = 0;
  {
    auto select = db.prepare("SELECT seq, id FROM events WHERE replica = ? ORDER BY seq");
    select.bind(1, me);
    while (select.step()) {
      last_seq = select.integer(0);
      if (!published.contains(select.text(1))) {
        unpublished.push_back(last_seq);
      }
    }
  }
  out.sent = static_cast<int>(unpublished.size());
  if (dry_run || last_seq == 0) {
    return out;
  }
  if (unpublished.empty() || unpublished.back() != last_seq) {
    unpublished.push_back(last_seq);
  }
  std::vector<store::Event> outgoing;
  auto select = db.prepare(fmt::format("SELECT {} FROM events WHERE seq = ?", store::k_event_columns));
  for (const auto seq : unpublished) {
    select.reset();
    select.bind(1, seq);
    if (select.step()) {
      outgoing.push_back(store::read_event(select));
    }
  }
  append_published(journal, refs, outgoing, last_seq);
  return out;
}

} // namespace ej::evidence
