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

// Version 2: benchmarks (with revisions), runs with their repeats and samples, environment
// probes, and plan baselines.
constexpr std::string_view k_version_2 = R"sql(
CREATE TABLE benchmarks (
  name TEXT PRIMARY KEY,
  revision INTEGER NOT NULL,
  created_ms INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL
);
CREATE TABLE bench_revisions (
  name TEXT NOT NULL REFERENCES benchmarks(name),
  revision INTEGER NOT NULL,
  definition TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  PRIMARY KEY (name, revision)
) WITHOUT ROWID;
CREATE TABLE probes (
  name TEXT PRIMARY KEY,
  definition TEXT NOT NULL
);
CREATE TABLE runs (
  number INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  bench TEXT NOT NULL,
  revision INTEGER NOT NULL,
  attempt INTEGER REFERENCES attempts(number),
  status TEXT NOT NULL,
  reason TEXT NOT NULL,
  label TEXT NOT NULL,
  params TEXT NOT NULL,
  started_ms INTEGER NOT NULL,
  ended_ms INTEGER NOT NULL,
  git_commit TEXT NOT NULL,
  git_branch TEXT NOT NULL,
  git_dirty INTEGER NOT NULL,
  git_diff_blob TEXT NOT NULL,
  env_blob TEXT NOT NULL,
  env_readings TEXT NOT NULL,
  host TEXT NOT NULL,
  pid INTEGER NOT NULL,
  boot_id TEXT NOT NULL,
  source TEXT NOT NULL,
  outputs TEXT NOT NULL
);
CREATE INDEX runs_by_bench ON runs(bench, number);
CREATE INDEX runs_by_attempt ON runs(attempt, number);
CREATE INDEX runs_by_status ON runs(status);
CREATE TABLE run_repeats (
  run INTEGER NOT NULL REFERENCES runs(number),
  idx INTEGER NOT NULL,
  params TEXT NOT NULL,
  warmup INTEGER NOT NULL,
  ending TEXT NOT NULL,
  exit_code INTEGER NOT NULL,
  signal INTEGER NOT NULL,
  wall_s REAL NOT NULL,
  user_s REAL NOT NULL,
  sys_s REAL NOT NULL,
  max_rss_kb INTEGER NOT NULL,
  PRIMARY KEY (run, idx)
) WITHOUT ROWID;
CREATE TABLE samples (
  run INTEGER NOT NULL REFERENCES runs(number),
  repeat_idx INTEGER NOT NULL,
  ordinal INTEGER NOT NULL,
  params TEXT NOT NULL,
  metric TEXT NOT NULL,
  key TEXT NOT NULL,
  value REAL NOT NULL,
  unit TEXT NOT NULL,
  kind TEXT NOT NULL,
  PRIMARY KEY (run, repeat_idx, ordinal)
) WITHOUT ROWID;
CREATE INDEX samples_by_metric ON samples(run, metric, params, key);
CREATE TABLE baselines (
  event_id TEXT PRIMARY KEY,
  plan TEXT NOT NULL REFERENCES plans(slug),
  bench TEXT NOT NULL,
  run INTEGER NOT NULL REFERENCES runs(number),
  time_ms INTEGER NOT NULL,
  reason TEXT NOT NULL
);
CREATE INDEX baselines_by_plan ON baselines(plan, time_ms);
)sql";

// Version 3: the hashes of the document regions ej last wrote, by document (relative path) and
// region: local state of this journal (not derived from events, so reindex leaves it), written
// in the same transaction discipline as everything else.
constexpr std::string_view k_version_3 = R"sql(
CREATE TABLE document_regions (
  doc TEXT NOT NULL,
  region TEXT NOT NULL,
  hash TEXT NOT NULL,
  PRIMARY KEY (doc, region)
);
)sql";

// Version 4: sharing. Attempts, runs and benchmark revisions keep the replica that created them
// and the number it gave them (version-1 events refer to them that way); the numbers claimed on
// a shared remote. All derived: the migration rebuilds them from the events.
constexpr std::string_view k_version_4 = R"sql(
ALTER TABLE attempts ADD COLUMN replica TEXT NOT NULL DEFAULT '';
ALTER TABLE attempts ADD COLUMN created_number INTEGER NOT NULL DEFAULT 0;
CREATE INDEX attempts_by_creator ON attempts(replica, created_number);
ALTER TABLE runs ADD COLUMN replica TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN created_number INTEGER NOT NULL DEFAULT 0;
CREATE INDEX runs_by_creator ON runs(replica, created_number);
ALTER TABLE bench_revisions ADD COLUMN event_id TEXT NOT NULL DEFAULT '';
ALTER TABLE bench_revisions ADD COLUMN replica TEXT NOT NULL DEFAULT '';
ALTER TABLE bench_revisions ADD COLUMN created_revision INTEGER NOT NULL DEFAULT 0;
CREATE INDEX bench_revisions_by_event ON bench_revisions(event_id);
CREATE TABLE number_claims (
  kind TEXT NOT NULL,
  id TEXT NOT NULL,
  number INTEGER NOT NULL,
  PRIMARY KEY (kind, id),
  UNIQUE (kind, number)
) WITHOUT ROWID;
)sql";

// Version 5: each repeat's device state (what the GPUs went through during it, as JSON:
// events::device_json), empty when no GPU was read. Derived: rebuilt from the events, so that
// repeats imported from a newer replica before the upgrade get theirs.
constexpr std::string_view k_version_5 = R"sql(
ALTER TABLE run_repeats ADD COLUMN device TEXT NOT NULL DEFAULT '';
)sql";

// Version 6: the search index keys an attempt by its number negated, so that FTS5 meets the newest
// attempts first walking forwards (ORDER BY rowid, LIMIT n stops after n). Backwards it reads a
// word's whole list first: on 100,000 attempts that alone was 7 ms. Derived: rebuilt.
constexpr std::string_view k_version_6 = R"sql(
DELETE FROM attempt_search;
)sql";

// Version 7: the repeats that read a GPU's state, indexed apart. Most runs have none, and a plan
// document asks of each of its runs: through the table, that read every repeat of the plan (a
// third of what a render of 100,000 runs read); through this index, nothing.
constexpr std::string_view k_version_7 = R"sql(
CREATE INDEX IF NOT EXISTS run_repeats_with_device ON run_repeats(run, idx) WHERE warmup = 0 AND device <> '';
)sql";

// Version 8: the verdict lines renders keep (store/verdict_cache.h), with what each was judged
// from. Local state, as the region hashes: never synced, emptied by every rebuild.
constexpr std::string_view k_version_8 = R"sql(
CREATE TABLE IF NOT EXISTS verdict_cache (
  attempt INTEGER PRIMARY KEY,
  maker TEXT NOT NULL,
  plan TEXT NOT NULL,
  target TEXT NOT NULL,
  runs INTEGER NOT NULL,
  baselines INTEGER NOT NULL,
  bench_revisions INTEGER NOT NULL,
  text TEXT
);
)sql";

// Version 9: corrections of the record. The runs withdrawn from judgements and documents (when,
// why) and the history of withdrawals and restorations, whose count tells a kept verdict line that a
// withdrawal may have changed it (the kept lines start again: local, and judged anew at the next
// render). Derived: rebuilt from the events, so that withdrawals imported from a newer replica
// before the upgrade apply. Every statement may run twice (see the migration tests).
constexpr std::string_view k_version_9 = R"sql(
CREATE TABLE IF NOT EXISTS withdrawn_runs (
  run INTEGER PRIMARY KEY REFERENCES runs(number),
  time_ms INTEGER NOT NULL,
  reason TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS run_withdrawals (
  event_id TEXT PRIMARY KEY,
  run INTEGER NOT NULL REFERENCES runs(number),
  time_ms INTEGER NOT NULL,
  withdrawn INTEGER NOT NULL,
  reason TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS run_withdrawals_by_run ON run_withdrawals(run, time_ms);
DROP TABLE IF EXISTS verdict_cache;
CREATE TABLE verdict_cache (
  attempt INTEGER PRIMARY KEY,
  maker TEXT NOT NULL,
  plan TEXT NOT NULL,
  target TEXT NOT NULL,
  runs INTEGER NOT NULL,
  baselines INTEGER NOT NULL,
  bench_revisions INTEGER NOT NULL,
  withdrawals INTEGER NOT NULL,
  text TEXT
);
)sql";

// Version 10: the stamp every write changes (store/wal_ownership.h), by which ej tells a WAL written
// to this file from another file's. Local state: never synced, never rebuilt. The row's text keeps
// one size (46 characters), so that SQLite rewrites it in place.
constexpr std::string_view k_version_10 = R"sql(
CREATE TABLE IF NOT EXISTS wal_stamp (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  stamp TEXT NOT NULL
);
INSERT OR IGNORE INTO wal_stamp(id, stamp)
VALUES (1, 'ej-wal-stamp ' || lower(hex(randomblob(8))) || ' 0000000000000000');
)sql";

// Version 11: a plan's measures, targets and headline combination (events::PlanCreated), one per
// line as written ("serve:tok_s@concurrency=1", "verify:verify_ms < 15"); a plan without a row has
// one benchmark and at most plans.target. Derived: rebuilt, so that plans synced from a newer
// replica before the upgrade get theirs.
constexpr std::string_view k_version_11 = R"sql(
CREATE TABLE IF NOT EXISTS plan_measures (
  plan TEXT PRIMARY KEY REFERENCES plans(slug),
  measures TEXT NOT NULL,
  targets TEXT NOT NULL,
  headline TEXT NOT NULL
);
)sql";

// Version 12: the steps of benchmark histories acknowledged as expected (ej ack), by benchmark.
// Derived: rebuilt, so that acknowledgements synced from a newer replica before the upgrade (kept
// as events of an unknown type) are projected.
constexpr std::string_view k_version_12 = R"sql(
CREATE TABLE IF NOT EXISTS acknowledgements (
  event_id TEXT PRIMARY KEY,
  bench TEXT NOT NULL,
  metric TEXT NOT NULL,
  commit_id TEXT NOT NULL,
  reason TEXT NOT NULL,
  time_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS acknowledgements_by_bench ON acknowledgements(bench, time_ms);
)sql";

// Version 13: interleaved comparisons (ej run --against), by the runs of their two sides; the
// design as its event has it. Derived: rebuilt, so that comparisons synced from a newer replica
// before the upgrade (kept as events of an unknown type) are projected.
constexpr std::string_view k_version_13 = R"sql(
CREATE TABLE IF NOT EXISTS interleaved_comparisons (
  event_id TEXT PRIMARY KEY,
  candidate_run INTEGER NOT NULL,
  reference_run INTEGER NOT NULL,
  payload TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS interleaved_by_candidate ON interleaved_comparisons(candidate_run);
CREATE INDEX IF NOT EXISTS interleaved_by_reference ON interleaved_comparisons(reference_run);
)sql";

// Version 14: ej bisect's answers (step.located), by benchmark, with the runs of the last candidate
// and GOOD as this journal numbers them (NULL where it lacks them); the rest as the event has it.
// Derived: rebuilt, so that answers synced from a newer replica before the upgrade (kept as events
// of an unknown type) are projected.
constexpr std::string_view k_version_14 = R"sql(
CREATE TABLE IF NOT EXISTS located_steps (
  event_id TEXT PRIMARY KEY,
  bench TEXT NOT NULL,
  candidate_run INTEGER,
  reference_run INTEGER,
  payload TEXT NOT NULL,
  time_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS located_steps_by_bench ON located_steps(bench, time_ms);
)sql";

// Version 15: what lets a kept verdict line outlive a baseline pinned after it (store::LaterPins):
// the time through which its pins and runs were seen, its verdict's benchmark and baseline, and
// where its note on the current baseline is. The kept lines start again (local, and judged anew at
// the next render). Every statement may run twice.
constexpr std::string_view k_version_15 = R"sql(
DROP TABLE IF EXISTS verdict_cache;
CREATE TABLE verdict_cache (
  attempt INTEGER PRIMARY KEY,
  maker TEXT NOT NULL,
  plan TEXT NOT NULL,
  target TEXT NOT NULL,
  runs INTEGER NOT NULL,
  baselines INTEGER NOT NULL,
  bench_revisions INTEGER NOT NULL,
  withdrawals INTEGER NOT NULL,
  text TEXT,
  through_ms INTEGER,
  bench TEXT,
  baseline_run INTEGER,
  note_at INTEGER,
  note_length INTEGER
);
)sql";

} // namespace

const std::vector<Migration>& migrations()
{
  static const std::vector<Migration> steps = {
      {1, k_version_1},         {2, k_version_2},         {3, k_version_3},         {4, k_version_4, true},
      {5, k_version_5, true},   {6, k_version_6, true},   {7, k_version_7},         {8, k_version_8},
      {9, k_version_9, true},   {10, k_version_10},       {11, k_version_11, true}, {12, k_version_12, true},
      {13, k_version_13, true}, {14, k_version_14, true}, {15, k_version_15},
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
      "baselines",     "samples",        "run_repeats",     "run_withdrawals",  "withdrawn_runs",
      "runs",          "probes",         "bench_revisions", "benchmarks",       "attempt_search",
      "notes",         "status_changes", "attempt_links",   "attempt_tags",     "attempts",
      "plan_measures", "plans",          "number_claims",   "acknowledgements", "interleaved_comparisons",
      "located_steps",
  };
  return tables;
}

} // namespace ej::store
