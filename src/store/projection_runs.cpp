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

// A number this journal resolved, or NULL for one it lacks (0).
std::optional<std::int64_t> or_null(std::int64_t number)
{
  return number > 0 ? std::optional(number) : std::nullopt;
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
    insert
        .bind_all(run, repeat, ordinal++, params, sample.metric, sample.key, sample.value, sample.unit,
                  core::to_string(sample.kind))
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
  select.bind_all(bench, event.replica, static_cast<std::int64_t>(written));
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
      .bind_all(revision_event.name, revision, event.time_ms, event.time_ms)
      .run();
  db.prepare("INSERT INTO bench_revisions(name, revision, definition, created_ms, event_id, replica, "
             "created_revision) VALUES (?, ?, ?, ?, ?, ?, ?)")
      .bind_all(revision_event.name, revision, dump(revision_event.definition), event.time_ms, event.id,
                event.replica, static_cast<std::int64_t>(revision_event.revision))
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
  insert
      .bind_all(number, event.id, run.bench,
                revision_of(db, event, run.bench, run.bench_revision, run.revision),
                or_null(attempt_number(db, event, run.attempt)), run.label, dump(run.params), event.time_ms,
                run.git.commit, run.git.branch, run.git.dirty ? 1 : 0, run.git.diff_blob, run.env_blob,
                dump(run.env_readings), run.host, run.pid, run.boot_id, event.replica, run.number)
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
    insert
        .bind_all(run, static_cast<std::int64_t>(repeat.index), params, repeat.warmup ? 1 : 0,
                  core::to_string(repeat.ending), static_cast<std::int64_t>(repeat.exit_code),
                  static_cast<std::int64_t>(repeat.signal), repeat.wall_s, repeat.user_s, repeat.sys_s,
                  repeat.max_rss_kb,
                  repeat.device.empty() ? std::string() : events::device_json(repeat.device).dump())
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
    insert
        .bind_all(run, static_cast<std::int64_t>(batch.index), batch.first + static_cast<std::int64_t>(i),
                  params, of.metric, of.key, batch.values[i], of.unit, core::to_string(of.kind))
        .run();
  }
}

void run_finished(Database& db, const Event& event)
{
  const auto finished = events::RunFinished::read(event);
  const auto run = existing_run(db, event, finished.run);
  // One ending per run: an ending that meets an ended run (two replicas ended it) keeps the first
  // in event order.
  db.prepare("UPDATE runs SET status = ?, reason = ?, ended_ms = ?, outputs = ? "
             "WHERE number = ? AND status = 'started'")
      .bind_all(core::to_string(finished.status), finished.reason, event.time_ms, dump(finished.outputs), run)
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
  const auto params = dump(imported.params);
  insert
      .bind_all(number, event.id, imported.bench,
                revision_of(db, event, imported.bench, imported.bench_revision, imported.revision),
                or_null(attempt_number(db, event, imported.attempt)), imported.label, params, when, when,
                imported.source, event.replica, imported.number)
      .run();
  auto insert_sample = prepare_sample_insert(db);
  insert_samples(insert_sample, number, 0, params, imported.samples);
}

void baseline_pinned(Database& db, const Event& event)
{
  const auto pin = events::BaselinePinned::read(event);
  db.prepare("INSERT INTO baselines(event_id, plan, bench, run, time_ms, reason) VALUES (?, ?, ?, ?, ?, ?)")
      .bind_all(event.id, pin.plan, pin.bench, existing_run(db, event, pin.run), event.time_ms, pin.reason)
      .run();
}

void run_withdrawal(Database& db, const Event& event)
{
  const auto change = events::RunWithdrawal::read(event);
  const auto run = existing_run(db, event, change.run);
  db.prepare("INSERT INTO run_withdrawals(event_id, run, time_ms, withdrawn, reason) VALUES (?, ?, ?, ?, ?)")
      .bind_all(event.id, run, event.time_ms, change.restored ? 0 : 1, change.reason)
      .run();
  if (change.restored) {
    db.prepare("DELETE FROM withdrawn_runs WHERE run = ?").bind(1, run).run();
  } else {
    db.prepare("INSERT OR REPLACE INTO withdrawn_runs(run, time_ms, reason) VALUES (?, ?, ?)")
        .bind_all(run, event.time_ms, change.reason)
        .run();
  }
}

// A pin this journal does not have (an export of another plan) changes nothing.
void baseline_explained(Database& db, const Event& event)
{
  const auto explained = events::BaselineExplained::read(event);
  db.prepare("UPDATE baselines SET reason = ? WHERE event_id = ? AND plan = ?")
      .bind_all(explained.reason, explained.pin, explained.plan)
      .run();
}

void step_acknowledged(Database& db, const Event& event)
{
  const auto ack = events::StepAcknowledged::read(event);
  db.prepare("INSERT INTO acknowledgements(event_id, bench, metric, commit_id, reason, time_ms) VALUES (?, "
             "?, ?, ?, ?, ?)")
      .bind_all(event.id, ack.bench, ack.metric, ack.commit, ack.reason, event.time_ms)
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
      .bind_all(event.id, candidate, reference, event.payload.dump())
      .run();
}

// The runs resolved to their numbers here (NULL where this journal lacks them: an export of
// another plan); the answer is kept either way.
void step_located(Database& db, const Event& event)
{
  const auto located = events::StepLocated::read(event);
  const auto run = [&](const events::Ref& ref) {
    return or_null(ref.empty() ? 0 : run_number(db, event, ref));
  };
  db.prepare("INSERT INTO located_steps(event_id, bench, candidate_run, reference_run, payload, "
             "time_ms) VALUES (?, ?, ?, ?, ?, ?)")
      .bind_all(event.id, located.bench, run(located.candidate), run(located.reference), event.payload.dump(),
                event.time_ms)
      .run();
}

} // namespace ej::store::projection
