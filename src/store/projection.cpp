#include "store/projection.h"

#include "core/numbering.h"
#include "store/event_exchange.h"
#include "store/events.h"
#include "store/projection_runs.h"
#include "store/schema.h"
#include "store/verdict_cache.h"
#include "store/visible_payload.h"
#include "util/error.h"

#include <fmt/format.h>

#include <limits>
#include <map>
#include <set>
#include <unordered_map>

namespace ej::store {

namespace {

using nlohmann::json;

// While many events are applied at once (an import, a rebuild), the search rows of the attempts
// they change are rebuilt once at the end instead of after every event: 4 of 5 events change an
// attempt, and its full-text row is most of what applying one costs.
std::set<std::int64_t>* g_deferred_search = nullptr;
// Set when a claim of numbers meets what only a rebuild can number consistently.
bool g_needs_rebuild = false;
// While many events are applied at once, the number each attempt or run id resolved to: most
// events name an attempt or run that an event just before them created or changed. Cleared
// whenever numbers move.
KnownNumbers* g_known_numbers = nullptr;

void remember_number(const char* table, const std::string& id, std::int64_t number)
{
  if (g_known_numbers != nullptr && number != 0) {
    (std::string_view(table) == "attempts" ? g_known_numbers->attempts : g_known_numbers->runs)[id] = number;
  }
}

// The columns of an attempt's search row, selected from the derived tables for the attempts that
// `chosen` (an SQL condition on a.number) names. Its rowid is the number negated: newest first is
// the index's own order (schema version 6). Rows go in by ascending rowid: FTS5 writes out its
// pending terms as a new segment whenever a rowid is lower than the one before, so ascending
// numbers made one segment per attempt, and merging them was a third of an import.
std::string search_rows_select(std::string_view chosen)
{
  return fmt::format(R"sql(
    INSERT INTO attempt_search(rowid, title, hypothesis, command, tags, reasons, notes)
    SELECT -a.number, a.title, a.hypothesis, a.command,
      coalesce((SELECT group_concat(tag, ' ') FROM attempt_tags WHERE attempt = a.number), ''),
      coalesce((SELECT group_concat(reason, ' ') FROM status_changes WHERE attempt = a.number), ''),
      coalesce((SELECT group_concat(text, ' ') FROM notes WHERE attempt = a.number), '')
    FROM attempts a WHERE {} ORDER BY a.number DESC)sql",
                     chosen);
}

void write_search_row(Database& db, std::int64_t number)
{
  db.prepare("DELETE FROM attempt_search WHERE rowid = -?").bind(1, number).run();
  db.prepare(search_rows_select("a.number = ?")).bind(1, number).run();
}

constexpr std::size_t k_many_search_rows = 1000;
constexpr int k_default_search_hash_bytes = 1024 * 1024; // FTS5_DEFAULT_HASHSIZE
// About 1 KB of terms per attempt: 100,000 attempts in one buffer.
constexpr int k_bulk_search_hash_bytes = 128 * 1024 * 1024;

// Many rows at once, in two statements over a JSON array of numbers: one statement per attempt
// costs a third of an import of 100,000 events.
void write_search_rows(Database& db, const std::set<std::int64_t>& numbers)
{
  if (numbers.empty()) {
    return;
  }
  const auto list = nlohmann::json(numbers).dump();
  // FTS5 writes a segment each time its pending terms pass 'hashsize' (1 MB) and merges segments
  // as they pile up: for thousands of rows, most of the insert. One buffer that holds them all
  // writes one segment; the default comes back for the small writes after.
  const bool many = numbers.size() > k_many_search_rows;
  if (many) {
    db.exec(fmt::format("INSERT INTO attempt_search(attempt_search, rank) VALUES ('hashsize', {})",
                        k_bulk_search_hash_bytes));
  }
  db.prepare("DELETE FROM attempt_search WHERE rowid IN (SELECT -value FROM json_each(?))")
      .bind(1, list)
      .run();
  db.prepare(search_rows_select("a.number IN (SELECT value FROM json_each(?))")).bind(1, list).run();
  if (many) {
    db.exec(fmt::format("INSERT INTO attempt_search(attempt_search, rank) VALUES ('hashsize', {})",
                        k_default_search_hash_bytes));
  }
}

// The search row of an attempt is rebuilt from the derived tables whenever the attempt changes.
void refresh_search(Database& db, std::int64_t number)
{
  if (g_deferred_search != nullptr) {
    g_deferred_search->insert(number);
  } else {
    write_search_row(db, number);
  }
}

// Gives an attempt or run the number the remote claimed for it, everywhere it is used.
void renumber(Database& db, const std::string& kind, std::int64_t from, std::int64_t to)
{
  db.exec("PRAGMA defer_foreign_keys = ON"); // checked at commit, once every table has moved
  if (g_known_numbers != nullptr) {
    *g_known_numbers = {};
  }
  if (has_verdict_cache(db)) {
    forget_verdicts(db); // kept by number
  }
  const auto update = [&](const char* table, const char* column) {
    db.prepare(fmt::format("UPDATE {0} SET {1} = ? WHERE {1} = ?", table, column)).bind(1, to).bind(2, from).run();
  };
  if (kind == "attempts") {
    update("attempts", "number");
    update("attempt_tags", "attempt");
    update("attempt_links", "from_attempt");
    update("attempt_links", "to_attempt");
    update("status_changes", "attempt");
    update("notes", "attempt");
    update("runs", "attempt");
    db.prepare("DELETE FROM attempt_search WHERE rowid = -?").bind(1, from).run();
    refresh_search(db, to);
    if (g_deferred_search != nullptr && g_deferred_search->erase(from) > 0) {
      g_deferred_search->insert(to);
    }
  } else {
    update("runs", "number");
    update("run_repeats", "run");
    update("samples", "run");
    update("baselines", "run");
    update("run_withdrawals", "run");
    update("withdrawn_runs", "run");
  }
}

void bind_git(Statement& statement, int first, const core::GitContext& git)
{
  statement.bind(first, git.commit)
    .bind(first + 1, git.branch)
    .bind(first + 2, git.dirty ? 1 : 0)
    .bind(first + 3, git.diff_blob);
}

std::string lines(const std::vector<std::string>& items)
{
  std::string out;
  for (const auto& item : items) {
    out += (out.empty() ? "" : "\n") + item;
  }
  return out;
}

constexpr std::string_view k_add_link =
    "INSERT OR IGNORE INTO attempt_links(from_attempt, kind, to_attempt) VALUES (?, ?, ?)";

// Runs `sql`, given (from_attempt, kind, to_attempt), for each link to an attempt this journal has:
// a link to an attempt purged or never synced here is left out, and the attempt itself stands.
void each_known_link(Database& db, const Event& event, std::int64_t from,
                     const std::vector<events::AttemptLink>& links, std::string_view sql)
{
  for (const auto& link : links) {
    if (const auto to = projection::attempt_number(db, event, link.to); to != 0) {
      db.prepare(sql).bind_all(from, link.kind, to).run();
    }
  }
}

void plan_created(Database& db, const Event& event)
{
  const auto plan = events::PlanCreated::read(event);
  db.prepare("INSERT INTO plans(slug, title, goal, target, doc_path, created_ms) VALUES (?, ?, ?, ?, ?, ?)")
      .bind_all(plan.slug, plan.title, plan.goal, plan.target, plan.doc, event.time_ms)
      .run();
  if (!plan.measures.empty() || !plan.targets.empty() || !plan.headline.empty()) {
    db.prepare("INSERT INTO plan_measures(plan, measures, targets, headline) VALUES (?, ?, ?, ?)")
        .bind_all(plan.slug, lines(plan.measures), lines(plan.targets), plan.headline)
        .run();
  }
}

void plan_edited(Database& db, const Event& event)
{
  const auto edit = events::PlanEdited::read(event);
  const auto set = [&](const char* column, const std::optional<std::string>& value) {
    if (value) {
      db.prepare(fmt::format("UPDATE plans SET {} = ? WHERE slug = ?", column)).bind(1, *value).bind(2, edit.slug).run();
    }
  };
  set("title", edit.title);
  set("goal", edit.goal);
  set("target", edit.target);
  set("doc_path", edit.doc);
  if (!edit.measures && !edit.targets && !edit.headline) {
    if (edit.target) { // an older ej's edit of the one target
      db.prepare("UPDATE plan_measures SET targets = ? WHERE plan = ?")
          .bind(1, *edit.target)
          .bind(2, edit.slug)
          .run();
    }
    return;
  }
  // The plan's row as it stands (targets: its one target, for a plan made before measures).
  db.prepare("INSERT OR IGNORE INTO plan_measures(plan, measures, targets, headline) "
             "SELECT slug, '', target, '' FROM plans WHERE slug = ?")
      .bind(1, edit.slug)
      .run();
  const auto change = [&](const char* column, const std::string& value) {
    db.prepare(fmt::format("UPDATE plan_measures SET {} = ? WHERE plan = ?", column))
        .bind(1, value)
        .bind(2, edit.slug)
        .run();
  };
  if (edit.measures) {
    change("measures", lines(*edit.measures));
  }
  if (edit.targets) {
    change("targets", lines(*edit.targets));
  }
  if (edit.headline) {
    change("headline", *edit.headline);
  }
}

// The attempt an event names, which must exist: events are applied in an order in which an
// attempt is always created before it is changed.
std::int64_t existing_attempt(Database& db, const Event& event, const events::Ref& ref)
{
  const auto number = projection::attempt_number(db, event, ref);
  if (number == 0) {
    throw MissingReference(event, "an attempt");
  }
  return number;
}

void add_tag(Database& db, std::int64_t number, const std::string& tag)
{
  db.prepare("INSERT OR IGNORE INTO attempt_tags(attempt, tag) VALUES (?, ?)").bind(1, number).bind(2, tag).run();
}

void attempt_created(Database& db, const Event& event)
{
  const auto created = events::AttemptCreated::read(event);
  const auto number = projection::number_for(db, event, "attempts", created.number);
  auto insert = db.prepare(R"sql(
    INSERT INTO attempts(number, id, plan, title, hypothesis, command, status, reason, created_ms, updated_ms,
                         git_commit, git_branch, git_dirty, git_diff_blob, replica, created_number)
    VALUES (?, ?, ?, ?, ?, ?, 'proposed', '', ?, ?, ?, ?, ?, ?, ?, ?))sql");
  insert.bind_all(number, event.id, created.plan, created.title, created.hypothesis, created.command,
                  event.time_ms, event.time_ms);
  bind_git(insert, 9, created.git);
  insert.bind(13, event.replica).bind(14, created.number).run();
  remember_number("attempts", event.id, number);
  for (const auto& tag : created.tags) {
    add_tag(db, number, tag);
  }
  each_known_link(db, event, number, created.links, k_add_link);
  refresh_search(db, number);
}

void attempt_status(Database& db, const Event& event)
{
  const auto change = events::AttemptStatus::read(event);
  const auto number = existing_attempt(db, event, change.attempt);
  auto insert = db.prepare(R"sql(
    INSERT INTO status_changes(event_id, attempt, time_ms, from_status, to_status, reason,
                               git_commit, git_branch, git_dirty, git_diff_blob)
    SELECT ?1, ?2, ?3, status, ?4, ?5, ?6, ?7, ?8, ?9 FROM attempts WHERE number = ?2)sql");
  insert.bind_all(event.id, number, event.time_ms, change.status, change.reason);
  bind_git(insert, 6, change.git);
  insert.run();
  db.prepare("UPDATE attempts SET status = ?, reason = ?, updated_ms = ? WHERE number = ?")
      .bind_all(change.status, change.reason, event.time_ms, number)
      .run();
  refresh_search(db, number);
}

void attempt_note(Database& db, const Event& event)
{
  const auto note = events::AttemptNote::read(event);
  const auto number = existing_attempt(db, event, note.attempt);
  db.prepare("INSERT INTO notes(event_id, attempt, time_ms, text) VALUES (?, ?, ?, ?)")
      .bind_all(event.id, number, event.time_ms, note.text)
      .run();
  db.prepare("UPDATE attempts SET updated_ms = ? WHERE number = ?").bind(1, event.time_ms).bind(2, number).run();
  refresh_search(db, number);
}

void attempt_edited(Database& db, const Event& event)
{
  const auto edit = events::AttemptEdited::read(event);
  const auto number = existing_attempt(db, event, edit.attempt);
  const auto set = [&](const char* column, const std::optional<std::string>& value) {
    if (value) {
      db.prepare(fmt::format("UPDATE attempts SET {} = ? WHERE number = ?", column)).bind(1, *value).bind(2, number).run();
    }
  };
  set("title", edit.title);
  set("hypothesis", edit.hypothesis);
  set("command", edit.command);
  for (const auto& tag : edit.add_tags) {
    add_tag(db, number, tag);
  }
  for (const auto& tag : edit.remove_tags) {
    db.prepare("DELETE FROM attempt_tags WHERE attempt = ? AND tag = ?").bind(1, number).bind(2, tag).run();
  }
  db.prepare("UPDATE attempts SET updated_ms = ? WHERE number = ?").bind(1, event.time_ms).bind(2, number).run();
  refresh_search(db, number);
}

// Links added or removed after the attempt was created; a link to an attempt this journal does not
// have is left out, as at creation.
void attempt_linked(Database& db, const Event& event)
{
  const auto change = events::AttemptLinked::read(event);
  const auto number = existing_attempt(db, event, change.attempt);
  each_known_link(db, event, number, change.add, k_add_link);
  each_known_link(db, event, number, change.remove,
                  "DELETE FROM attempt_links WHERE from_attempt = ? AND kind = ? AND to_attempt = ?");
  db.prepare("UPDATE attempts SET updated_ms = ? WHERE number = ?")
      .bind(1, event.time_ms)
      .bind(2, number)
      .run();
}

// Applied in the pre-pass of a rebuild (claims decide numbers before anything is numbered) and
// when a sync records a claim (followed by a rebuild). The first claim of a number or an id in
// event order wins; two claims of one number can only meet when one journal synced with two
// remotes.
// Returns the (id, number) pairs it recorded.
std::vector<std::pair<std::string, std::int64_t>> record_claim(Database& db, const Event& event, std::string& kind)
{
  const auto claim = events::NumbersClaimed::read(event);
  kind = claim.kind;
  std::vector<std::pair<std::string, std::int64_t>> recorded;
  if (claim.kind != "attempts" && claim.kind != "runs") {
    return recorded;
  }
  auto insert = db.prepare("INSERT OR IGNORE INTO number_claims(kind, id, number) VALUES (?, ?, ?)");
  auto number = claim.first;
  for (const auto& id : claim.ids) {
    insert.reset();
    insert.bind_all(claim.kind, id, number).run();
    if (db.changes() > 0) {
      recorded.emplace_back(id, number);
    }
    ++number;
  }
  return recorded;
}

void claims_before_replay(Database& db, const Event& event)
{
  std::string kind;
  record_claim(db, event, kind);
}

// A claim applied to tables that exist: what it numbers moves to its number. When that cannot be
// done in place (the number is taken, or a journal that was never shared still holds numbers it
// gave itself), the caller rebuilds everything from the events.
void numbers_claimed(Database& db, const Event& event)
{
  std::string kind;
  const bool was_shared = db.query_integer("SELECT count(*) FROM number_claims") > 0;
  const auto recorded = record_claim(db, event, kind);
  if (recorded.empty()) {
    return;
  }
  const std::string table = kind == "attempts" ? "attempts" : "runs";
  for (const auto& [id, number] : recorded) {
    auto current = db.prepare(fmt::format("SELECT number FROM {} WHERE id = ?", table));
    current.bind(1, id);
    if (!current.step() || current.integer(0) == number) {
      continue;
    }
    const auto from = current.integer(0);
    auto taken = db.prepare(fmt::format("SELECT 1 FROM {} WHERE number = ?", table));
    taken.bind(1, number);
    if (taken.step()) {
      g_needs_rebuild = true;
      return;
    }
    renumber(db, kind, from, number);
  }
  if (!was_shared) {
    // Now shared: whatever the journal numbered itself and no claim covers becomes provisional.
    for (const char* each : {"attempts", "runs"}) {
      const auto unclaimed = db.query_integer(fmt::format(
          "SELECT count(*) FROM {0} WHERE number < {1} AND id NOT IN (SELECT id FROM number_claims WHERE kind = '{0}')",
          each, core::k_provisional_base));
      if (unclaimed > 0) {
        g_needs_rebuild = true;
      }
    }
  }
}

void ignore(Database&, const Event&) {}

using Applier = void (*)(Database&, const Event&);

const std::map<std::string, Applier, std::less<>>& appliers()
{
  static const std::map<std::string, Applier, std::less<>> table = {
      {std::string(events::PlanCreated::type), plan_created},
      {std::string(events::PlanEdited::type), plan_edited},
      {std::string(events::AttemptCreated::type), attempt_created},
      {std::string(events::AttemptStatus::type), attempt_status},
      {std::string(events::AttemptNote::type), attempt_note},
      {std::string(events::AttemptEdited::type), attempt_edited},
      {std::string(events::AttemptLinked::type), attempt_linked},
      {std::string(events::BenchRevision::added_type), projection::bench_revision},
      {std::string(events::BenchRevision::edited_type), projection::bench_revision},
      {std::string(events::ProbeAdded::type), projection::probe_added},
      {std::string(events::ProbeRemoved::type), projection::probe_removed},
      {std::string(events::RunStarted::type), projection::run_started},
      {std::string(events::RunRepeats::type), projection::run_repeats},
      {std::string(events::RunSamples::type), projection::run_samples},
      {std::string(events::RunFinished::type), projection::run_finished},
      {std::string(events::RunImported::type), projection::run_imported},
      {std::string(events::RunWithdrawal::withdrawn_type), projection::run_withdrawal},
      {std::string(events::RunWithdrawal::restored_type), projection::run_withdrawal},
      {std::string(events::BaselinePinned::type), projection::baseline_pinned},
      {std::string(events::BaselineExplained::type), projection::baseline_explained},
      {std::string(events::JournalPurged::type), ignore},
      {std::string(events::NumbersClaimed::type), numbers_claimed},
      {std::string(events::StepAcknowledged::type), projection::step_acknowledged},
      {std::string(events::ComparisonInterleaved::type), projection::comparison_interleaved},
      {std::string(events::StepLocated::type), projection::step_located},
  };
  return table;
}

// Said once per process: an ej that meets events of a newer one keeps them (they are synced and
// exported like any other) and reads everything else.
void warn_unknown(const Event& event)
{
  static std::set<std::string> said;
  if (said.insert(event.type).second) {
    fmt::print(stderr,
               "ej: warning: the journal holds events of type '{}' (payload version {}) written by a newer "
               "ej; they are kept and shared but not shown: upgrade ej to see them\n",
               event.type, event.schema_version);
  }
}

} // namespace

MissingReference::MissingReference(const Event& event, std::string_view what)
    : Error("event {} ({}) of replica {} names {} that this journal does not have: nothing was applied. "
            "Import the "
            "events that create it first ('ej export' of a journal that has it, then 'ej import')",
            event.id, event.type, event.replica, what),
      m_event_id(event.id), m_replica(event.replica)
{
}

namespace projection {

namespace {

// table: "attempts" or "runs".
std::int64_t resolve(Database& db, const char* table, const Event& event, const events::Ref& ref)
{
  if (!ref.id.empty()) {
    if (g_known_numbers != nullptr) {
      const auto& known =
          std::string_view(table) == "attempts" ? g_known_numbers->attempts : g_known_numbers->runs;
      if (const auto it = known.find(ref.id); it != known.end()) {
        return it->second;
      }
    }
    auto select = db.prepare(fmt::format("SELECT number FROM {} WHERE id = ?", table));
    select.bind(1, ref.id);
    const auto number = select.step() ? select.integer(0) : 0;
    remember_number(table, ref.id, number);
    return number;
  }
  if (ref.number <= 0) {
    return 0;
  }
  // Version 1: the number the event's own replica gave it.
  auto select = db.prepare(fmt::format("SELECT number FROM {} WHERE replica = ? AND created_number = ?", table));
  select.bind(1, event.replica).bind(2, ref.number);
  return select.step() ? select.integer(0) : 0;
}

} // namespace

std::int64_t attempt_number(Database& db, const Event& event, const events::Ref& ref)
{
  return resolve(db, "attempts", event, ref);
}

std::int64_t run_number(Database& db, const Event& event, const events::Ref& ref)
{
  return resolve(db, "runs", event, ref);
}

std::int64_t number_for(Database& db, const Event& event, std::string_view kind, std::int64_t writer_number)
{
  const auto table = kind == "attempts" ? "attempts" : "runs";
  const auto taken = [&](std::int64_t number) {
    auto select = db.prepare(fmt::format("SELECT 1 FROM {} WHERE number = ?", table));
    select.bind(1, number);
    return select.step();
  };
  {
    auto claimed = db.prepare("SELECT number FROM number_claims WHERE kind = ? AND id = ?");
    claimed.bind(1, std::string(kind)).bind(2, event.id);
    if (claimed.step()) {
      return claimed.integer(0);
    }
  }
  // A journal that was never shared numbers as it goes, as the writer did.
  const bool shared = db.query_integer("SELECT EXISTS (SELECT 1 FROM number_claims)") != 0;
  if (!shared && writer_number > 0 && !core::is_provisional(writer_number) && !taken(writer_number)) {
    return writer_number;
  }
  auto number = static_cast<std::int64_t>(core::provisional_number(event.id));
  while (taken(number)) { // two ids alike in 30 bits: the later one in event order moves on
    number = number + 1 < std::numeric_limits<int>::max() ? number + 1 : core::k_provisional_base;
  }
  return number;
}

} // namespace projection

bool apply_event(Database& db, const Event& event)
{
  const auto& table = appliers();
  const auto it = table.find(event.type);
  if (it == table.end()) {
    warn_unknown(event);
    return false;
  }
  // Written visible by this ej; an older one's event, or one imported from a file, may not be.
  if (holds_controls(event.payload)) {
    Event visible = event;
    make_controls_visible(visible.payload);
    it->second(db, visible);
    return true;
  }
  it->second(db, event);
  return true;
}

void rebuild_derived_tables(Database& db)
{
  for (const auto table : derived_tables()) {
    db.exec(fmt::format("DELETE FROM {}", table));
  }
  if (has_verdict_cache(db)) { // (an older schema, migrating, has none yet)
    forget_verdicts(db);       // a rebuild may number attempts and runs anew
  }
  const std::string columns = fmt::format("SELECT {} FROM events ", k_event_columns);
  // Claims first: they decide the numbers of the attempts and runs created before them.
  auto claims = db.prepare(columns + "WHERE type = 'numbers.claimed' ORDER BY lamport, replica, id");
  while (claims.step()) {
    claims_before_replay(db, read_event(claims));
  }
  DeferredSearch deferred(db);
  auto select = db.prepare(columns + "WHERE type <> 'numbers.claimed' ORDER BY lamport, replica, id");
  while (select.step()) {
    apply_event(db, read_event(select));
  }
  deferred.flush();
}

bool apply_events(Database& db, const std::vector<Event>& sorted)
{
  g_needs_rebuild = false;
  {
    DeferredSearch deferred(db);
    for (const auto& event : sorted) {
      apply_event(db, event);
      if (g_needs_rebuild) {
        break;
      }
    }
    if (!g_needs_rebuild) {
      deferred.flush();
    }
  }
  if (g_needs_rebuild) {
    g_needs_rebuild = false;
    return false;
  }
  return true;
}

DeferredSearch::DeferredSearch(Database& db) : m_db(db)
{
  if (g_deferred_search == nullptr) {
    g_deferred_search = &m_numbers;
    g_known_numbers = &m_known;
    m_owner = true;
  }
}

DeferredSearch::~DeferredSearch()
{
  if (m_owner) {
    g_deferred_search = nullptr; // rows not flushed belong to a transaction being abandoned
    g_known_numbers = nullptr;
  }
}

void DeferredSearch::flush()
{
  if (!m_owner) {
    return;
  }
  g_deferred_search = nullptr;
  g_known_numbers = nullptr;
  m_owner = false;
  write_search_rows(m_db, m_numbers);
}

} // namespace ej::store
