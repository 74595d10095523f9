#include "store/projection_runs.h"

#include "store/events.h"
#include "store/projection.h"
#include "util/error.h"

namespace ej::store::projection {

namespace {

using nlohmann::json;

std::string dump(const json& value)
{
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

void bind_attempt(Statement& statement, int index, std::int64_t attempt)
{
  if (attempt > 0) {
    statement.bind(index, attempt);
  } else {
    statement.bind_null(index);
  }
}

Statement prepare_sample_insert(Database& db)
{
  return db.prepare("INSERT INTO samples(run, repeat_idx, ordinal, params, metric, key, value, unit, kind) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
}

void insert_samples(Statement& insert, std::int64_t run, std::int64_t repeat, const std::string& params,
                    const std::vector<events::Sample>& samples)
{
  std::int64_t ordinal = 0;
  for (const auto& sample : samples) {
    insert.reset();
    insert.bind(1, run)
      .bind(2, repeat)
      .bind(3, ordinal++)
      .bind(4, params)
      .bind(5, sample.metric)
      .bind(6, sample.key)
      .bind(7, sample.value)
      .bind(8, sample.unit)
      .bind(9, core::to_string(sample.kind))
      .run();
  }
}

// The revision a run names: by the event that made it (version 2), else by the number the run's
// replica gave it, else as written.
std::int64_t revision_of(Database& db, const Event& event, const std::string& bench, const events::Ref& ref,
                         int written)
{
  if (!ref.id.empty()) {
    auto select = db.prepare("SELECT revision FROM bench_revisions WHERE event_id = ?");
    select.bind(1, ref.id);
    if (select.step()) {
      return select.integer(0);
    }
  }
  auto select = db.prepare("SELECT revision FROM bench_revisions WHERE name = ? AND replica = ? AND created_revision = ?");
  select.bind(1, bench).bind(2, event.replica).bind(3, static_cast<std::int64_t>(written));
  return select.step() ? select.integer(0) : written;
}

std::int64_t existing_run(Database& db, const Event& event, const events::Ref& ref)
{
  const auto number = run_number(db, event, ref);
  if (number == 0) {
    throw MissingReference(event, "a run");
  }
  return number;
}

} // namespace

void bench_revision(Database& db, const Event& event)
{
  const auto revision_event = events::BenchRevision::read(event);
  // Two replicas that edited one benchmark at once both wrote "revision 3": in event order, the
  // later one becomes revision 4 everywhere.
  std::int64_t revision = revision_event.revision;
  {
    auto taken = db.prepare("SELECT coalesce(max(revision), 0) FROM bench_revisions WHERE name = ?");
    taken.bind(1, revision_event.name);
    taken.step();
    const auto highest = taken.integer(0);
    if (revision <= highest) {
      revision = highest + 1;
    }
  }
  db.prepare("INSERT INTO benchmarks(name, revision, created_ms, updated_ms) VALUES (?, ?, ?, ?) "
             "ON CONFLICT(name) DO UPDATE SET revision = excluded.revision, updated_ms = excluded.updated_ms")
    .bind(1, revision_event.name)
    .bind(2, revision)
    .bind(3, event.time_ms)
    .bind(4, event.time_ms)
    .run();
  db.prepare("INSERT INTO bench_revisions(name, revision, definition, created_ms, event_id, replica, created_revision) "
             "VALUES (?, ?, ?, ?, ?, ?, ?)")
    .bind(1, revision_event.name)
    .bind(2, revision)
    .bind(3, dump(revision_event.definition))
    .bind(4, event.time_ms)
    .bind(5, event.id)
    .bind(6, event.replica)
    .bind(7, static_cast<std::int64_t>(revision_event.revision))
    .run();
}

void probe_added(Database& db, const Event& event)
{
  const auto probe = events::ProbeAdded::read(event);
  db.prepare("INSERT OR REPLACE INTO probes(name, definition) VALUES (?, ?)")
    .bind(1, probe.name)
    .bind(2, dump(probe.definition))
    .run();
}

void probe_removed(Database& db, const Event& event)
{
  db.prepare("DELETE FROM probes WHERE name = ?").bind(1, events::ProbeRemoved::read(event).name).run();
}

void run_started(Database& db, const Event& event)
{
  const auto run = events::RunStarted::read(event);
  const auto number = number_for(db, event, "runs", run.number);
  auto insert = db.prepare(R"sql(
    INSERT INTO runs(number, id, bench, revision, attempt, status, reason, label, params, started_ms, ended_ms,
                     git_commit, git_branch, git_dirty, git_diff_blob, env_blob, env_readings, host, pid, boot_id,
                     source, outputs, replica, created_number)
    VALUES (?, ?, ?, ?, ?, 'started', '', ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', '{}', ?, ?))sql");
  insert.bind(1, number)
    .bind(2, event.id)
    .bind(3, run.bench)
    .bind(4, revision_of(db, event, run.bench, run.bench_revision, run.revision));
  bind_attempt(insert, 5, attempt_number(db, event, run.attempt));
  insert.bind(6, run.label)
    .bind(7, dump(run.params))
    .bind(8, event.time_ms)
    .bind(9, run.git.commit)
    .bind(10, run.git.branch)
    .bind(11, run.git.dirty ? 1 : 0)
    .bind(12, run.git.diff_blob)
    .bind(13, run.env_blob)
    .bind(14, dump(run.env_readings))
    .bind(15, run.host)
    .bind(16, run.pid)
    .bind(17, run.boot_id)
    .bind(18, event.replica)
    .bind(19, run.number)
    .run();
}

void run_repeats(Database& db, const Event& event)
{
  const auto batch = events::RunRepeats::read(event);
  const auto run = existing_run(db, event, batch.run);
  auto insert = db.prepare(R"sql(
    INSERT INTO run_repeats(run, idx, params, warmup, ending, exit_code, signal, wall_s, user_s, sys_s, max_rss_kb,
                            device)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?))sql");
  auto insert_sample = prepare_sample_insert(db);
  // The repeats of a batch mostly share their parameters: written out once per change.
  const json* last_params = nullptr;
  std::string params;
  for (const auto& repeat : batch.repeats) {
    if (last_params == nullptr || *last_params != repeat.params) {
      params = dump(repeat.params);
      last_params = &repeat.params;
    }
    insert.reset();
    insert.bind(1, run)
        .bind(2, static_cast<std::int64_t>(repeat.index))
        .bind(3, params)
        .bind(4, repeat.warmup ? 1 : 0)
        .bind(5, core::to_string(repeat.ending))
        .bind(6, static_cast<std::int64_t>(repeat.exit_code))
        .bind(7, static_cast<std::int64_t>(repeat.signal))
        .bind(8, repeat.wall_s)
        .bind(9, repeat.user_s)
        .bind(10, repeat.sys_s)
        .bind(11, repeat.max_rss_kb)
        .bind(12, repeat.device.empty() ? std::string() : events::device_json(repeat.device).dump())
        .run();
    insert_samples(insert_sample, run, repeat.index, params, repeat.samples);
  }
}

void run_samples(Database& db, const Event& event)
{
  const auto batch = events::RunSamples::read(event);
  const auto run = existing_run(db, event, batch.run);
  std::string params = "{}";
  auto select = db.prepare("SELECT params FROM run_repeats WHERE run = ? AND idx = ?");
  select.bind(1, run).bind(2, static_cast<std::int64_t>(batch.index));
  if (select.step()) {
    params = select.text(0);
  }
  if (batch.labels.empty()) {
    return;
  }
  auto insert = prepare_sample_insert(db);
  for (std::size_t i = 0; i < batch.values.size(); ++i) {
    const auto label =
        i < batch.label_of.size() && batch.label_of[i] < batch.labels.size() ? batch.label_of[i] : 0;
    const auto& of = batch.labels[label];
    insert.reset();
    insert.bind(1, run)
        .bind(2, static_cast<std::int64_t>(batch.index))
        .bind(3, batch.first + static_cast<std::int64_t>(i))
        .bind(4, params)
        .bind(5, of.metric)
        .bind(6, of.key)
        .bind(7, batch.values[i])
        .bind(8, of.unit)
        .bind(9, core::to_string(of.kind))
        .run();
  }
}

void run_finished(Database& db, const Event& event)
{
  const auto finished = events::RunFinished::read(event);
  const auto run = existing_run(db, event, finished.run);
  // One ending per run: an ending that meets an ended run (two replicas ended it) keeps the first
  // in event order.
  db.prepare("UPDATE runs SET status = ?, reason = ?, ended_ms = ?, outputs = ? WHERE number = ? AND status = 'started'")
    .bind(1, core::to_string(finished.status))
    .bind(2, finished.reason)
    .bind(3, event.time_ms)
    .bind(4, dump(finished.outputs))
    .bind(5, run)
    .run();
}

void run_imported(Database& db, const Event& event)
{
  const auto imported = events::RunImported::read(event);
  const auto when = imported.when_ms.value_or(event.time_ms);
  const auto number = number_for(db, event, "runs", imported.number);
  auto insert = db.prepare(R"sql(
    INSERT INTO runs(number, id, bench, revision, attempt, status, reason, label, params, started_ms, ended_ms,
                     git_commit, git_branch, git_dirty, git_diff_blob, env_blob, env_readings, host, pid, boot_id,
                     source, outputs, replica, created_number)
    VALUES (?, ?, ?, ?, ?, 'imported', '', ?, ?, ?, ?, '', '', 0, '', '', '{}', '', 0, '', ?, '{}', ?, ?))sql");
  insert.bind(1, number)
    .bind(2, event.id)
    .bind(3, imported.bench)
    .bind(4, revision_of(db, event, imported.bench, imported.bench_revision, imported.revision));
  bind_attempt(insert, 5, attempt_number(db, event, imported.attempt));
  const auto params = dump(imported.params);
  insert.bind(6, imported.label)
    .bind(7, params)
    .bind(8, when)
    .bind(9, when)
    .bind(10, imported.source)
    .bind(11, event.replica)
    .bind(12, imported.number)
    .run();
  auto insert_sample = prepare_sample_insert(db);
  insert_samples(insert_sample, number, 0, params, imported.samples);
}

void baseline_pinned(Database& db, const Event& event)
{
  const auto pin = events::BaselinePinned::read(event);
  db.prepare("INSERT INTO baselines(event_id, plan, bench, run, time_ms, reason) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(1, event.id)
    .bind(2, pin.plan)
    .bind(3, pin.bench)
    .bind(4, existing_run(db, event, pin.run))
    .bind(5, event.time_ms)
    .bind(6, pin.reason)
    .run();
}

void run_withdrawal(Database& db, const Event& event)
{
  const auto change = events::RunWithdrawal::read(event);
  const auto run = existing_run(db, event, change.run);
  db.prepare("INSERT INTO run_withdrawals(event_id, run, time_ms, withdrawn, reason) VALUES (?, ?, ?, ?, ?)")
      .bind(1, event.id)
      .bind(2, run)
      .bind(3, event.time_ms)
      .bind(4, change.restored ? 0 : 1)
      .bind(5, change.reason)
      .run();
  if (change.restored) {
    db.prepare("DELETE FROM withdrawn_runs WHERE run = ?").bind(1, run).run();
  } else {
    db.prepare("INSERT OR REPLACE INTO withdrawn_runs(run, time_ms, reason) VALUES (?, ?, ?)")
        .bind(1, run)
        .bind(2, event.time_ms)
        .bind(3, change.reason)
        .run();
  }
}

// A pin this journal does not have (an export of another plan) changes nothing.
void baseline_explained(Database& db, const Event& event)
{
  const auto explained = events::BaselineExplained::read(event);
  db.prepare("UPDATE baselines SET reason = ? WHERE event_id = ? AND plan = ?")
      .bind(1, explained.reason)
      .bind(2, explained.pin)
      .bind(3, explained.plan)
      .run();
}

void step_acknowledged(Database& db, const Event& event)
{
  const auto ack = events::StepAcknowledged::read(event);
  db.prepare("INSERT INTO acknowledgements(event_id, bench, metric, commit_id, reason, time_ms) VALUES (?, "
             "?, ?, ?, ?, ?)")
      .bind(1, event.id)
      .bind(2, ack.bench)
      .bind(3, ack.metric)
      .bind(4, ack.commit)
      .bind(5, ack.reason)
      .bind(6, event.time_ms)
      .run();
}

// Both runs resolved to their numbers here; a comparison naming a run this journal lacks (an
// export of another plan) is not projected.
void comparison_interleaved(Database& db, const Event& event)
{
  const auto comparison = events::ComparisonInterleaved::read(event);
  const auto candidate = run_number(db, event, comparison.candidate);
  const auto reference = run_number(db, event, comparison.reference);
  if (candidate == 0 || reference == 0) {
    return;
  }
  db.prepare(
        "INSERT INTO interleaved_comparisons(event_id, candidate_run, reference_run, payload) VALUES (?, "
        "?, ?, ?)")
      .bind(1, event.id)
      .bind(2, candidate)
      .bind(3, reference)
      .bind(4, event.payload.dump())
      .run();
}

// The runs resolved to their numbers here (NULL where this journal lacks them: an export of
// another plan); the answer is kept either way.
void step_located(Database& db, const Event& event)
{
  const auto located = events::StepLocated::read(event);
  auto insert =
      db.prepare("INSERT INTO located_steps(event_id, bench, candidate_run, reference_run, payload, "
                 "time_ms) VALUES (?, ?, ?, ?, ?, ?)");
  insert.bind(1, event.id).bind(2, located.bench).bind(5, event.payload.dump()).bind(6, event.time_ms);
  int index = 3;
  for (const auto* ref : {&located.candidate, &located.reference}) {
    const auto number = ref->empty() ? 0 : run_number(db, event, *ref);
    if (number == 0) {
      insert.bind_null(index++);
    } else {
      insert.bind(index++, number);
    }
  }
  insert.run();
}

} // namespace ej::store::projection
