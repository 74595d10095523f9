#include "store/schema.h"

namespace ej::store {

namespace {

// Version 1: the journal core. Events and blobs are the source of truth; every other table is
// derived from events and can be rebuilt by `ej reindex`.
constexpr std::string_view k_version_1 = R"sql(
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE events (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  replica TEXT NOT NULL,
  lamport INTEGER NOT NULL,
  type TEXT NOT NULL,
  schema_version INTEGER NOT NULL,
  time_ms INTEGER NOT NULL,
  payload TEXT NOT NULL
);
CREATE INDEX events_order ON events(lamport, replica, id);
CREATE TRIGGER events_are_immutable_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'journal events are immutable'); END;
CREATE TRIGGER events_are_immutable_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'journal events are immutable'); END;
CREATE TABLE blobs (
  hash TEXT PRIMARY KEY,
  size INTEGER NOT NULL,
  content BLOB NOT NULL
);

CREATE TABLE plans (
  slug TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  goal TEXT NOT NULL,
  target TEXT NOT NULL,
  doc_path TEXT NOT NULL,
  created_ms INTEGER NOT NULL
);
CREATE TABLE attempts (
  number INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  plan TEXT NOT NULL REFERENCES plans(slug),
  title TEXT NOT NULL,
  hypothesis TEXT NOT NULL,
  command TEXT NOT NULL,
  status TEXT NOT NULL,
  reason TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL,
  git_commit TEXT NOT NULL,
  git_branch TEXT NOT NULL,
  git_dirty INTEGER NOT NULL,
  git_diff_blob TEXT NOT NULL
);
CREATE INDEX attempts_by_plan ON attempts(plan, number);
CREATE INDEX attempts_by_status ON attempts(status, number);
CREATE INDEX attempts_by_update ON attempts(updated_ms);
CREATE TABLE attempt_tags (
  attempt INTEGER NOT NULL REFERENCES attempts(number),
  tag TEXT NOT NULL,
  PRIMARY KEY (attempt, tag)
) WITHOUT ROWID;
CREATE INDEX attempt_tags_by_tag ON attempt_tags(tag, attempt);
CREATE TABLE attempt_links (
  from_attempt INTEGER NOT NULL REFERENCES attempts(number),
  kind TEXT NOT NULL,
  to_attempt INTEGER NOT NULL REFERENCES attempts(number),
  PRIMARY KEY (from_attempt, kind, to_attempt)
) WITHOUT ROWID;
CREATE INDEX attempt_links_by_target ON attempt_links(to_attempt);
CREATE TABLE status_changes (
  event_id TEXT PRIMARY KEY,
  attempt INTEGER NOT NULL REFERENCES attempts(number),
  time_ms INTEGER NOT NULL,
  from_status TEXT NOT NULL,
  to_status TEXT NOT NULL,
  reason TEXT NOT NULL,
  git_commit TEXT NOT NULL,
  git_branch TEXT NOT NULL,
  git_dirty INTEGER NOT NULL,
  git_diff_blob TEXT NOT NULL
);
CREATE INDEX status_changes_by_attempt ON status_changes(attempt, time_ms);
CREATE TABLE notes (
  event_id TEXT PRIMARY KEY,
  attempt INTEGER NOT NULL REFERENCES attempts(number),
  time_ms INTEGER NOT NULL,
  text TEXT NOT NULL
);
CREATE INDEX notes_by_attempt ON notes(attempt, time_ms);
CREATE VIRTUAL TABLE attempt_search USING fts5(
  title, hypothesis, command, tags, reasons, notes, tokenize = 'unicode61'
);
)sql";

} // namespace

const std::vector<Migration>& migrations()
{
  static const std::vector<Migration> steps = {
    {1, k_version_1},
  };
  return steps;
}

int current_schema_version()
{
  return migrations().back().version;
}

const std::vector<std::string_view>& derived_tables()
{
  static const std::vector<std::string_view> tables = {
    "attempt_search", "notes", "status_changes", "attempt_links", "attempt_tags", "attempts", "plans",
  };
  return tables;
}

} // namespace ej::store
