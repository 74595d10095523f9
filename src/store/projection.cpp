#include "store/projection.h"

#include "store/projection_runs.h"
#include "store/schema.h"
#include "util/error.h"

#include <fmt/format.h>

#include <functional>
#include <map>

namespace ej::store {

namespace {

using nlohmann::json;

std::string text_field(const json& payload, const char* key)
{
  const auto it = payload.find(key);
  return it != payload.end() && it->is_string() ? it->get<std::string>() : std::string();
}

void bind_git(Statement& statement, int first, const json& git)
{
  statement.bind(first, text_field(git, "commit"))
    .bind(first + 1, text_field(git, "branch"))
    .bind(first + 2, git.is_object() && git.value("dirty", false) ? 1 : 0)
    .bind(first + 3, text_field(git, "diff_blob"));
}

// The search row of an attempt is rebuilt from the derived tables whenever the attempt changes.
void refresh_search(Database& db, std::int64_t number)
{
  db.prepare("DELETE FROM attempt_search WHERE rowid = ?").bind(1, number).run();
  db.prepare(R"sql(
    INSERT INTO attempt_search(rowid, title, hypothesis, command, tags, reasons, notes)
    SELECT a.number, a.title, a.hypothesis, a.command,
      coalesce((SELECT group_concat(tag, ' ') FROM attempt_tags WHERE attempt = a.number), ''),
      coalesce((SELECT group_concat(reason, ' ') FROM status_changes WHERE attempt = a.number), ''),
      coalesce((SELECT group_concat(text, ' ') FROM notes WHERE attempt = a.number), '')
    FROM attempts a WHERE a.number = ?)sql")
    .bind(1, number)
    .run();
}

std::int64_t attempt_number(const json& payload)
{
  return payload.value("attempt", std::int64_t{0});
}

void plan_created(Database& db, const Event& event)
{
  const auto& p = event.payload;
  db.prepare("INSERT INTO plans(slug, title, goal, target, doc_path, created_ms) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(1, text_field(p, "slug"))
    .bind(2, text_field(p, "title"))
    .bind(3, text_field(p, "goal"))
    .bind(4, text_field(p, "target"))
    .bind(5, text_field(p, "doc"))
    .bind(6, event.time_ms)
    .run();
}

void plan_edited(Database& db, const Event& event)
{
  const auto& p = event.payload;
  for (const char* field : {"title", "goal", "target", "doc_path"}) {
    const char* key = std::string_view(field) == "doc_path" ? "doc" : field;
    if (p.contains(key)) {
      db.prepare(fmt::format("UPDATE plans SET {} = ? WHERE slug = ?", field))
        .bind(1, text_field(p, key))
        .bind(2, text_field(p, "slug"))
        .run();
    }
  }
}

void attempt_created(Database& db, const Event& event)
{
  const auto& p = event.payload;
  const auto number = attempt_number(p);
  auto insert = db.prepare(R"sql(
    INSERT INTO attempts(number, id, plan, title, hypothesis, command, status, reason, created_ms, updated_ms,
                         git_commit, git_branch, git_dirty, git_diff_blob)
    VALUES (?, ?, ?, ?, ?, ?, 'proposed', '', ?, ?, ?, ?, ?, ?))sql");
  insert.bind(1, number)
    .bind(2, event.id)
    .bind(3, text_field(p, "plan"))
    .bind(4, text_field(p, "title"))
    .bind(5, text_field(p, "hypothesis"))
    .bind(6, text_field(p, "command"))
    .bind(7, event.time_ms)
    .bind(8, event.time_ms);
  bind_git(insert, 9, p.value("git", json::object()));
  insert.run();
  for (const auto& tag : p.value("tags", json::array())) {
    db.prepare("INSERT OR IGNORE INTO attempt_tags(attempt, tag) VALUES (?, ?)")
      .bind(1, number)
      .bind(2, tag.get<std::string>())
      .run();
  }
  for (const auto& link : p.value("links", json::array())) {
    db.prepare("INSERT OR IGNORE INTO attempt_links(from_attempt, kind, to_attempt) VALUES (?, ?, ?)")
      .bind(1, number)
      .bind(2, text_field(link, "kind"))
      .bind(3, link.value("to", std::int64_t{0}))
      .run();
  }
  refresh_search(db, number);
}

void attempt_status(Database& db, const Event& event)
{
  const auto& p = event.payload;
  const auto number = attempt_number(p);
  std::string previous;
  {
    auto select = db.prepare("SELECT status FROM attempts WHERE number = ?");
    select.bind(1, number);
    if (!select.step()) {
      throw Error("journal event {} changes the status of attempt #{} which does not exist; run 'ej fsck'",
                  event.id, number);
    }
    previous = select.text(0);
  }
  auto insert = db.prepare(R"sql(
    INSERT INTO status_changes(event_id, attempt, time_ms, from_status, to_status, reason,
                               git_commit, git_branch, git_dirty, git_diff_blob)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?))sql");
  insert.bind(1, event.id)
    .bind(2, number)
    .bind(3, event.time_ms)
    .bind(4, previous)
    .bind(5, text_field(p, "status"))
    .bind(6, text_field(p, "reason"));
  bind_git(insert, 7, p.value("git", json::object()));
  insert.run();
  db.prepare("UPDATE attempts SET status = ?, reason = ?, updated_ms = ? WHERE number = ?")
    .bind(1, text_field(p, "status"))
    .bind(2, text_field(p, "reason"))
    .bind(3, event.time_ms)
    .bind(4, number)
    .run();
  refresh_search(db, number);
}

void attempt_note(Database& db, const Event& event)
{
  const auto number = attempt_number(event.payload);
  db.prepare("INSERT INTO notes(event_id, attempt, time_ms, text) VALUES (?, ?, ?, ?)")
    .bind(1, event.id)
    .bind(2, number)
    .bind(3, event.time_ms)
    .bind(4, text_field(event.payload, "text"))
    .run();
  db.prepare("UPDATE attempts SET updated_ms = ? WHERE number = ?").bind(1, event.time_ms).bind(2, number).run();
  refresh_search(db, number);
}

void attempt_edited(Database& db, const Event& event)
{
  const auto& p = event.payload;
  const auto number = attempt_number(p);
  for (const char* field : {"title", "hypothesis", "command"}) {
    if (p.contains(field)) {
      db.prepare(fmt::format("UPDATE attempts SET {} = ? WHERE number = ?", field))
        .bind(1, text_field(p, field))
        .bind(2, number)
        .run();
    }
  }
  for (const auto& tag : p.value("add_tags", json::array())) {
    db.prepare("INSERT OR IGNORE INTO attempt_tags(attempt, tag) VALUES (?, ?)")
      .bind(1, number)
      .bind(2, tag.get<std::string>())
      .run();
  }
  for (const auto& tag : p.value("remove_tags", json::array())) {
    db.prepare("DELETE FROM attempt_tags WHERE attempt = ? AND tag = ?")
      .bind(1, number)
      .bind(2, tag.get<std::string>())
      .run();
  }
  db.prepare("UPDATE attempts SET updated_ms = ? WHERE number = ?").bind(1, event.time_ms).bind(2, number).run();
  refresh_search(db, number);
}

// A purge rewrote stored copies of a value; the event only records that it happened.
void journal_purged(Database&, const Event&) {}

using Applier = std::function<void(Database&, const Event&)>;

const std::map<std::string, Applier, std::less<>>& appliers()
{
  static const std::map<std::string, Applier, std::less<>> table = {
      {"plan.created", plan_created},
      {"plan.edited", plan_edited},
      {"attempt.created", attempt_created},
      {"attempt.status", attempt_status},
      {"attempt.note", attempt_note},
      {"attempt.edited", attempt_edited},
      {"bench.added", projection::bench_revision},
      {"bench.edited", projection::bench_revision},
      {"probe.added", projection::probe_added},
      {"probe.removed", projection::probe_removed},
      {"run.started", projection::run_started},
      {"run.repeats", projection::run_repeats},
      {"run.finished", projection::run_finished},
      {"run.imported", projection::run_imported},
      {"baseline.pinned", projection::baseline_pinned},
      {"journal.purged", journal_purged},
  };
  return table;
}

} // namespace

void apply_event(Database& db, const Event& event)
{
  const auto& table = appliers();
  const auto it = table.find(event.type);
  if (it == table.end()) {
    throw Error("journal event {} has the unknown type '{}'; it was written by a newer ej: upgrade ej",
                event.id, event.type);
  }
  it->second(db, event);
}

void rebuild_derived_tables(Database& db)
{
  for (const auto table : derived_tables()) {
    db.exec(fmt::format("DELETE FROM {}", table));
  }
  auto select = db.prepare(
    "SELECT seq, id, replica, lamport, type, schema_version, time_ms, payload FROM events "
    "ORDER BY lamport, replica, id");
  while (select.step()) {
    Event event;
    event.seq = select.integer(0);
    event.id = select.text(1);
    event.replica = select.text(2);
    event.lamport = select.integer(3);
    event.type = select.text(4);
    event.schema_version = static_cast<int>(select.integer(5));
    event.time_ms = select.integer(6);
    event.payload = nlohmann::json::parse(select.text(7));
    apply_event(db, event);
  }
}

} // namespace ej::store
