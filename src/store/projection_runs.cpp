#include "store/projection_runs.h"

namespace ej::store::projection {

namespace {

using nlohmann::json;

std::string text(const json& object, const char* key)
{
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::int64_t integer(const json& object, const char* key)
{
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<std::int64_t>() : 0;
}

double real(const json& object, const char* key)
{
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<double>() : 0.0;
}

// The member, without copying it; an empty array when it is missing.
const json& array_member(const json& object, const char* key)
{
  static const json empty = json::array();
  const auto it = object.find(key);
  return it != object.end() ? *it : empty;
}

// The member as JSON text; "{}" when it is missing.
std::string dump_object_member(const json& object, const char* key)
{
  const auto it = object.find(key);
  return it != object.end() ? it->dump(-1, ' ', false, json::error_handler_t::replace) : std::string("{}");
}

std::string dump(const json& value)
{
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

void bind_attempt(Statement& statement, int index, const json& payload)
{
  const auto attempt = integer(payload, "attempt");
  if (attempt > 0) {
    statement.bind(index, attempt);
  } else {
    statement.bind_null(index);
  }
}

void insert_samples(Database& db, std::int64_t run, std::int64_t repeat, const std::string& params,
                    const json& samples)
{
  auto insert = db.prepare("INSERT INTO samples(run, repeat_idx, ordinal, params, metric, key, value, unit, kind) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
  std::int64_t ordinal = 0;
  for (const auto& sample : samples) {
    insert.reset();
    insert.bind(1, run)
      .bind(2, repeat)
      .bind(3, ordinal++)
      .bind(4, params)
      .bind(5, text(sample, "metric"))
      .bind(6, text(sample, "key"))
      .bind(7, real(sample, "value"))
      .bind(8, text(sample, "unit"))
      .bind(9, sample.contains("kind") ? text(sample, "kind") : std::string("sample"))
      .run();
  }
}

} // namespace

void bench_revision(Database& db, const Event& event)
{
  const auto& p = event.payload;
  const auto name = text(p, "name");
  const auto revision = integer(p, "revision");
  db.prepare("INSERT INTO benchmarks(name, revision, created_ms, updated_ms) VALUES (?, ?, ?, ?) "
             "ON CONFLICT(name) DO UPDATE SET revision = excluded.revision, updated_ms = excluded.updated_ms")
    .bind(1, name)
    .bind(2, revision)
    .bind(3, event.time_ms)
    .bind(4, event.time_ms)
    .run();
  db.prepare("INSERT INTO bench_revisions(name, revision, definition, created_ms) VALUES (?, ?, ?, ?)")
    .bind(1, name)
    .bind(2, revision)
    .bind(3, dump(p.value("definition", json::object())))
    .bind(4, event.time_ms)
    .run();
}

void probe_added(Database& db, const Event& event)
{
  db.prepare("INSERT OR REPLACE INTO probes(name, definition) VALUES (?, ?)")
    .bind(1, text(event.payload, "name"))
    .bind(2, dump(event.payload.value("definition", json::object())))
    .run();
}

void probe_removed(Database& db, const Event& event)
{
  db.prepare("DELETE FROM probes WHERE name = ?").bind(1, text(event.payload, "name")).run();
}

void run_started(Database& db, const Event& event)
{
  const auto& p = event.payload;
  const auto git = p.value("git", json::object());
  auto insert = db.prepare(R"sql(
    INSERT INTO runs(number, id, bench, revision, attempt, status, reason, label, params, started_ms, ended_ms,
                     git_commit, git_branch, git_dirty, git_diff_blob, env_blob, env_readings, host, pid, boot_id,
                     source, outputs)
    VALUES (?, ?, ?, ?, ?, 'started', '', ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', '{}'))sql");
  insert.bind(1, integer(p, "run"))
    .bind(2, event.id)
    .bind(3, text(p, "bench"))
    .bind(4, integer(p, "revision"));
  bind_attempt(insert, 5, p);
  insert.bind(6, text(p, "label"))
    .bind(7, dump_object_member(p, "params"))
    .bind(8, event.time_ms)
    .bind(9, text(git, "commit"))
    .bind(10, text(git, "branch"))
    .bind(11, git.value("dirty", false) ? 1 : 0)
    .bind(12, text(git, "diff_blob"))
    .bind(13, text(p, "env_blob"))
    .bind(14, dump(p.value("env_readings", json::object())))
    .bind(15, text(p, "host"))
    .bind(16, integer(p, "pid"))
    .bind(17, text(p, "boot_id"))
    .run();
}

void run_repeats(Database& db, const Event& event)
{
  const auto& p = event.payload;
  const auto run = integer(p, "run");
  auto insert = db.prepare(R"sql(
    INSERT INTO run_repeats(run, idx, params, warmup, ending, exit_code, signal, wall_s, user_s, sys_s, max_rss_kb)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?))sql");
  for (const auto& repeat : array_member(p, "repeats")) {
    const auto index = integer(repeat, "idx");
    const auto params = dump_object_member(repeat, "params");
    insert.reset();
    insert.bind(1, run)
      .bind(2, index)
      .bind(3, params)
      .bind(4, repeat.value("warmup", false) ? 1 : 0)
      .bind(5, text(repeat, "ending"))
      .bind(6, integer(repeat, "exit_code"))
      .bind(7, integer(repeat, "signal"))
      .bind(8, real(repeat, "wall_s"))
      .bind(9, real(repeat, "user_s"))
      .bind(10, real(repeat, "sys_s"))
      .bind(11, integer(repeat, "max_rss_kb"))
      .run();
    insert_samples(db, run, index, params, array_member(repeat, "samples"));
  }
}

void run_finished(Database& db, const Event& event)
{
  const auto& p = event.payload;
  db.prepare("UPDATE runs SET status = ?, reason = ?, ended_ms = ?, outputs = ? WHERE number = ?")
    .bind(1, text(p, "status"))
    .bind(2, text(p, "reason"))
    .bind(3, event.time_ms)
    .bind(4, dump(p.value("outputs", json::object())))
    .bind(5, integer(p, "run"))
    .run();
}

void run_imported(Database& db, const Event& event)
{
  const auto& p = event.payload;
  const auto when = p.contains("when_ms") ? integer(p, "when_ms") : event.time_ms;
  auto insert = db.prepare(R"sql(
    INSERT INTO runs(number, id, bench, revision, attempt, status, reason, label, params, started_ms, ended_ms,
                     git_commit, git_branch, git_dirty, git_diff_blob, env_blob, env_readings, host, pid, boot_id,
                     source, outputs)
    VALUES (?, ?, ?, ?, ?, 'imported', '', ?, ?, ?, ?, '', '', 0, '', '', '{}', '', 0, '', ?, '{}'))sql");
  const auto run = integer(p, "run");
  insert.bind(1, run).bind(2, event.id).bind(3, text(p, "bench")).bind(4, integer(p, "revision"));
  bind_attempt(insert, 5, p);
  const auto params = dump_object_member(p, "params");
  insert.bind(6, text(p, "label")).bind(7, params).bind(8, when).bind(9, when).bind(10, text(p, "source")).run();
  insert_samples(db, run, 0, params, array_member(p, "samples"));
}

void baseline_pinned(Database& db, const Event& event)
{
  const auto& p = event.payload;
  db.prepare("INSERT INTO baselines(event_id, plan, bench, run, time_ms, reason) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(1, event.id)
    .bind(2, text(p, "plan"))
    .bind(3, text(p, "bench"))
    .bind(4, integer(p, "run"))
    .bind(5, event.time_ms)
    .bind(6, text(p, "reason"))
    .run();
}

} // namespace ej::store::projection
