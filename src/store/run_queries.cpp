#include "store/run_queries.h"

#include "core/numbering.h"
#include "store/events.h"
#include "store/git_columns.h"
#include "store/newest_first.h"
#include "util/strings.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace ej::store {

namespace {

core::BenchRevision read_revision(const Statement& row)
{
  return {row.text(0), static_cast<int>(row.integer(1)), nlohmann::json::parse(row.text(2)), row.integer(3),
          row.text(4)};
}

constexpr std::string_view k_run_columns =
    "number, id, bench, revision, attempt, status, reason, label, params, started_ms, ended_ms, git_commit, "
    "git_branch, git_dirty, git_diff_blob, env_blob, env_readings, host, pid, boot_id, source, outputs";

// The same of runs r with NULL for the columns judging never reads (RunDetail::ForJudging): SQLite
// loads every column a query names, however long, whether or not it is read. Then the withdrawal,
// joined (withdrawn_runs w): two look-ups a run in subqueries were a tenth of reading a plan's runs.
constexpr std::string_view k_run_columns_for_judging =
    "r.number, r.id, r.bench, r.revision, r.attempt, r.status, r.reason, r.label, r.params, r.started_ms, "
    "r.ended_ms, r.git_commit, r.git_branch, r.git_dirty, r.git_diff_blob, r.env_blob, NULL, r.host, r.pid, "
    "r.boot_id, r.source, NULL, coalesce(w.time_ms, 0), coalesce(w.reason, '')";

// Then a run's withdrawal (core::RunRecord::withdrawn_ms, withdrawn_reason), from its own table: few
// runs are withdrawn, and a look-up for one that is not finds nothing at once.
constexpr std::string_view k_withdrawal_columns =
    "coalesce((SELECT w.time_ms FROM withdrawn_runs w WHERE w.run = runs.number), 0), "
    "coalesce((SELECT w.reason FROM withdrawn_runs w WHERE w.run = runs.number), '')";

const std::string& run_columns()
{
  static const std::string columns = fmt::format("{}, {}", k_run_columns, k_withdrawal_columns);
  return columns;
}

// Most runs have no parameters, readings or outputs: "{}" needs no parser (a plan document reads
// ten thousand runs).
nlohmann::json parse_column(const Statement& row, int column)
{
  auto text = row.text(column);
  if (text == "{}") {
    return nlohmann::json::object();
  }
  return nlohmann::json::parse(text);
}

// Which columns a reader needs parsed: judging and documents never look at a run's volatile
// readings or captured outputs, and parsing them was a tenth of a large plan's render.
enum class RunDetail { All, ForJudging };

core::RunRecord read_run(const Statement& row, RunDetail detail = RunDetail::All)
{
  core::RunRecord run;
  run.number = static_cast<int>(row.integer(0));
  run.id = row.text(1);
  run.bench = row.text(2);
  run.revision = static_cast<int>(row.integer(3));
  if (!row.is_null(4)) {
    run.attempt = static_cast<int>(row.integer(4));
  }
  run.status = events::read_run_status(row.text(5));
  run.reason = row.text(6);
  run.label = row.text(7);
  run.params = parse_column(row, 8);
  run.started_ms = row.integer(9);
  run.ended_ms = row.integer(10);
  run.git = read_git_columns(row, 11);
  run.env_blob = row.text(15);
  if (detail == RunDetail::All) {
    run.env_readings = parse_column(row, 16);
  }
  run.host = row.text(17);
  run.pid = row.integer(18);
  run.boot_id = row.text(19);
  run.source = row.text(20);
  if (detail == RunDetail::All) {
    run.outputs = parse_column(row, 21);
  }
  run.withdrawn_ms = row.integer(22);
  run.withdrawn_reason = row.text(23);
  return run;
}

std::vector<core::RunRecord> read_runs(Statement& select)
{
  std::vector<core::RunRecord> runs;
  while (select.step()) {
    runs.push_back(read_run(select));
  }
  return runs;
}

} // namespace

std::vector<core::BenchRevision> list_benchmarks(Database& db)
{
  auto select =
      db.prepare("SELECT r.name, r.revision, r.definition, r.created_ms, r.event_id FROM benchmarks b "
                 "JOIN bench_revisions r ON r.name = b.name AND r.revision = b.revision ORDER BY b.name");
  return select.rows(read_revision);
}

std::optional<core::BenchRevision> find_benchmark(Database& db, const std::string& name)
{
  auto select =
      db.prepare("SELECT r.name, r.revision, r.definition, r.created_ms, r.event_id FROM benchmarks b "
                 "JOIN bench_revisions r ON r.name = b.name AND r.revision = b.revision WHERE b.name = ?");
  select.bind(1, name);
  if (!select.step()) {
    return std::nullopt;
  }
  return read_revision(select);
}

std::optional<core::BenchRevision> find_bench_revision(Database& db, const std::string& name, int revision)
{
  auto select = db.prepare("SELECT name, revision, definition, created_ms, event_id FROM bench_revisions "
                           "WHERE name = ? AND revision = ?");
  select.bind(1, name).bind(2, revision);
  if (!select.step()) {
    return std::nullopt;
  }
  return read_revision(select);
}

std::vector<core::BenchRevision> bench_revisions(Database& db, const std::string& name)
{
  auto select = db.prepare("SELECT name, revision, definition, created_ms, event_id FROM bench_revisions "
                           "WHERE name = ? ORDER BY revision");
  select.bind(1, name);
  return select.rows(read_revision);
}

int next_run_number(Database& db)
{
  return static_cast<int>(db.query_integer(fmt::format(
      "SELECT coalesce(max(number), 0) + 1 FROM runs WHERE number < {}", core::k_provisional_base)));
}

std::optional<core::RunRecord> find_run(Database& db, int number)
{
  auto select = db.prepare(fmt::format("SELECT {} FROM runs WHERE number = ?", run_columns()));
  select.bind(1, number);
  auto runs = read_runs(select);
  if (runs.empty() && core::is_provisional(number)) {
    // run @k3f9qx keeps naming the run after the remote gave it its number.
    auto by_id = db.prepare(fmt::format("SELECT {} FROM runs WHERE substr(id, 11, 6) = ?", run_columns()));
    by_id.bind(1, *core::provisional_id_part(core::number_label(number)));
    runs = read_runs(by_id);
  }
  if (runs.empty()) {
    return std::nullopt;
  }
  return runs.front();
}

int number_of_run(Database& db, const std::string& id)
{
  auto select = db.prepare("SELECT number FROM runs WHERE id = ?");
  select.bind(1, id);
  return select.step() ? static_cast<int>(select.integer(0)) : 0;
}

std::vector<core::RunRecord> list_runs(Database& db, const RunFilter& filter)
{
  SqlFilter where;
  if (!filter.bench.empty()) {
    where.add("bench = ?", filter.bench);
  }
  if (filter.attempt) {
    where.add("attempt = ?", std::int64_t{*filter.attempt});
  }
  if (!filter.plan.empty()) {
    where.add("attempt IN (SELECT number FROM attempts WHERE plan = ?)", filter.plan);
  }
  return list_newest_first<core::RunRecord>(
      db, fmt::format("SELECT {} FROM runs WHERE 1 = 1", run_columns()), "", where, filter.limit,
      [](Statement& select, std::vector<core::RunRecord>& runs) {
        auto part = read_runs(select);
        runs.insert(runs.end(), std::make_move_iterator(part.begin()), std::make_move_iterator(part.end()));
      });
}

std::string most_run_bench(Database& db, const std::string& plan)
{
  // Counted in SQL: a plan of 100,000 runs is not read whole to name one benchmark.
  auto select =
      db.prepare("SELECT bench FROM runs WHERE attempt IN (SELECT number FROM attempts WHERE plan = ?) "
                 "GROUP BY bench ORDER BY count(*) DESC, bench LIMIT 1");
  select.bind(1, plan);
  return select.step() ? select.text(0) : std::string();
}

std::vector<core::RunRecord> runs_with_status(Database& db, core::RunStatus status)
{
  // Every reading command asks for the runs left started, and almost always there is none: a look-up
  // in runs_by_status first, since compiling the query of whole runs cost 2% of an `ej show`.
  auto any = db.prepare("SELECT 1 FROM runs WHERE status = ? LIMIT 1");
  any.bind(1, core::to_string(status));
  if (!any.step()) {
    return {};
  }
  auto select =
      db.prepare(fmt::format("SELECT {} FROM runs WHERE status = ? ORDER BY number", run_columns()));
  select.bind(1, core::to_string(status));
  return read_runs(select);
}

RunTimes run_times(Database& db, int run)
{
  auto select =
      db.prepare("SELECT COALESCE(SUM(wall_s), 0), COALESCE(SUM(user_s + sys_s), 0) FROM run_repeats "
                 "WHERE run = ? AND warmup = 0");
  select.bind(1, run);
  RunTimes times;
  if (select.step()) {
    times.wall_s = select.real(0);
    times.cpu_s = select.real(1);
  }
  return times;
}

std::optional<nlohmann::json> run_started_payload(Database& db, const std::string& event_id)
{
  auto select = db.prepare("SELECT payload FROM events WHERE id = ? AND type = 'run.started'");
  select.bind(1, event_id);
  if (!select.step()) {
    return std::nullopt;
  }
  return nlohmann::json::parse(select.text(0));
}

namespace {

constexpr const char* k_repeat_columns =
    "idx, params, warmup, ending, exit_code, signal, wall_s, user_s, sys_s, max_rss_kb, device";

// The same columns of run_repeats named `alias`, for a query that joins other tables.
std::string repeat_columns_of(std::string_view alias)
{
  std::string out;
  for (const auto& column : util::split(k_repeat_columns, ',')) {
    out += fmt::format("{}{}.{}", out.empty() ? "" : ", ", alias, util::trim(column));
  }
  return out;
}

core::RepeatRecord read_repeat(const Statement& row)
{
  core::RepeatRecord repeat;
  repeat.index = static_cast<int>(row.integer(0));
  repeat.params = row.text(1);
  repeat.warmup = row.integer(2) != 0;
  repeat.ending = events::read_repeat_ending(row.text(3));
  repeat.exit_code = static_cast<int>(row.integer(4));
  repeat.signal = static_cast<int>(row.integer(5));
  repeat.wall_s = row.real(6);
  repeat.user_s = row.real(7);
  repeat.sys_s = row.real(8);
  repeat.max_rss_kb = row.integer(9);
  if (const auto device = row.text(10); !device.empty()) {
    repeat.device = events::device_from_json(nlohmann::json::parse(device));
  }
  return repeat;
}

// The repeats of a run that `condition` (SQL, "" for all) lets through, in order.
std::vector<core::RepeatRecord> repeats_where(Database& db, int run, std::string_view condition)
{
  auto select = db.prepare(
      fmt::format("SELECT {} FROM run_repeats WHERE run = ? {} ORDER BY idx", k_repeat_columns, condition));
  select.bind(1, run);
  return select.rows(read_repeat);
}

} // namespace

std::vector<core::RepeatRecord> run_repeats(Database& db, int run)
{
  return repeats_where(db, run, "");
}

std::vector<core::RepeatRecord> device_repeats(Database& db, int run)
{
  return repeats_where(db, run, "AND warmup = 0 AND device <> ''");
}

std::vector<core::SampleRecord> run_samples(Database& db, int run)
{
  auto select =
      db.prepare("SELECT repeat_idx, params, metric, key, value, unit, kind FROM samples WHERE run = ? "
                 "ORDER BY repeat_idx, ordinal");
  select.bind(1, run);
  return select.rows([](const Statement& row) {
    return core::SampleRecord{static_cast<int>(row.integer(0)),
                              row.text(1),
                              row.text(2),
                              row.text(3),
                              row.real(4),
                              row.text(5),
                              events::read_sample_kind(row.text_view(6))};
  });
}

std::optional<std::string> newest_sample_unit(Database& db, const std::string& bench,
                                              const std::string& metric)
{
  auto select =
      db.prepare("SELECT s.unit FROM runs r JOIN samples s ON s.run = r.number WHERE r.bench = ? AND "
                 "s.metric = ? AND s.kind = 'sample' AND s.unit <> '' ORDER BY r.number DESC LIMIT 1");
  select.bind(1, bench);
  select.bind(2, metric);
  if (!select.step()) {
    return std::nullopt;
  }
  return select.text(0);
}

void visit_run_samples(Database& db, int run, const std::function<void(const SampleView&)>& visit)
{
  auto select = db.prepare("SELECT params, metric, key, value, unit, kind FROM samples WHERE run = ? "
                           "ORDER BY repeat_idx, ordinal");
  select.bind(1, run);
  SampleView view;
  view.run = run;
  std::string params;
  std::string metric;
  std::string key;
  std::string unit;
  while (select.step()) {
    params = select.text(0);
    metric = select.text(1);
    key = select.text(2);
    unit = select.text(4);
    view.params = params;
    view.metric = metric;
    view.key = key;
    view.value = select.real(3);
    view.unit = unit;
    view.kind = events::read_sample_kind(select.text_view(5));
    visit(view);
  }
}

void visit_series_values(Database& db, const SeriesId& series, ValueOrder order, double from,
                         const std::function<void(double)>& visit)
{
  // Recorded order is the order of samples_by_metric itself (its rows end with the primary key).
  // INDEXED BY: left to itself the planner reads every sample of the run by the primary key for
  // each series, and a run of 60,000 small series took minutes.
  const char* sql =
      order == ValueOrder::Recorded
          ? "SELECT value FROM samples INDEXED BY samples_by_metric WHERE run = ?1 AND metric = ?2 "
            "AND params = ?3 AND key = ?4 AND kind NOT IN ('skipped', 'aggregate') ORDER BY repeat_idx, "
            "ordinal"
      : order == ValueOrder::Ascending
          ? "SELECT value FROM samples INDEXED BY samples_by_metric WHERE run = ?1 AND metric = ?2 AND "
            "params = "
            "?3 AND key = ?4 AND kind NOT IN ('skipped', 'aggregate') ORDER BY value"
          : "SELECT abs(value - ?5) AS d FROM samples INDEXED BY samples_by_metric WHERE run = ?1 AND metric "
            "= "
            "?2 AND params = ?3 AND key = ?4 AND kind NOT IN ('skipped', 'aggregate') ORDER BY d";
  auto select = db.prepare(sql);
  select.bind_all(series.run, series.metric, series.params, series.key);
  if (order == ValueOrder::ByDistance) {
    select.bind(5, from);
  }
  while (select.step()) {
    visit(select.real(0));
  }
}

namespace {

// The plan's repeats that read a GPU, through their own index (schema 7) when the journal has it:
// a journal opened read-only at version 6 was never migrated, and there the table serves.
std::string device_repeats_sql(Database& db, std::string_view chosen)
{
  const bool indexed = db.query_integer("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = "
                                        "'run_repeats_with_device'") > 0;
  return fmt::format("SELECT {}, rr.run, a.number FROM attempts a JOIN runs r ON r.attempt = a.number JOIN "
                     "run_repeats rr {} ON rr.run = r.number WHERE {} AND rr.warmup = 0 AND "
                     "rr.device <> '' ORDER BY a.number, r.number, rr.idx",
                     repeat_columns_of("rr"), indexed ? "INDEXED BY run_repeats_with_device" : "", chosen);
}

} // namespace

PlanStream::PlanStream(Database& db, const std::string& plan)
    : PlanStream(db, "SELECT number FROM attempts WHERE plan = ?", "a.plan = ?", plan)
{
}

PlanStream PlanStream::of_attempts(Database& db, const std::vector<int>& attempts)
{
  return {db, "SELECT value FROM json_each(?)", "a.number IN (SELECT value FROM json_each(?))",
          nlohmann::json(attempts).dump()};
}

PlanStream::PlanStream(Database& db, std::string_view numbers, std::string_view chosen,
                       const std::string& value)
    // Each statement's rows come in attempt order straight from the indexes (runs_by_attempt, the
    // primary key of samples, run_repeats_with_device): nothing is sorted, nothing read ahead. The
    // attempt's number is the last column of each. numbers: the attempts' numbers (SQL, one
    // parameter); chosen: the same as a condition on attempts a.
    : m_runs(db.prepare(fmt::format("SELECT {}, r.attempt FROM runs r LEFT JOIN withdrawn_runs w ON w.run = "
                                    "r.number WHERE r.attempt IN ({}) ORDER BY r.attempt, r.number",
                                    k_run_columns_for_judging, numbers)),
             24),
      m_samples(db.prepare(fmt::format(
                    "SELECT s.run, s.params, s.metric, s.key, s.value, s.unit, s.kind, a.number "
                    "FROM attempts a JOIN runs r ON r.attempt = a.number JOIN samples s ON s.run = "
                    "r.number WHERE {} ORDER BY a.number, r.number, s.repeat_idx, s.ordinal",
                    chosen)),
                7),
      m_devices(db.prepare(device_repeats_sql(db, chosen)), 12)
{
  m_runs.select.bind(1, value);
  m_samples.select.bind(1, value);
  m_devices.select.bind(1, value);
}

bool PlanStream::Cursor::at(int attempt)
{
  if (!started) {
    started = true;
    has_row = select.step();
  }
  while (has_row && select.integer(attempt_column) < attempt) {
    has_row = select.step();
  }
  return has_row && select.integer(attempt_column) == attempt;
}

void PlanStream::Cursor::next()
{
  has_row = select.step();
}

std::vector<core::RunRecord> PlanStream::runs(int attempt)
{
  std::vector<core::RunRecord> out;
  for (; m_runs.at(attempt); m_runs.next()) {
    out.push_back(read_run(m_runs.select, RunDetail::ForJudging));
  }
  std::reverse(out.begin(), out.end()); // newest first, as list_runs
  return out;
}

void PlanStream::samples(int attempt, const std::function<void(const SampleView&)>& visit)
{
  // The texts as SQLite holds them, valid until the next row: a sample costs no copy.
  auto& row = m_samples.select;
  for (; m_samples.at(attempt); m_samples.next()) {
    visit({static_cast<int>(row.integer(0)), row.text_view(1), row.text_view(2), row.text_view(3),
           row.real(4), row.text_view(5), events::read_sample_kind(row.text_view(6))});
  }
}

std::map<int, std::vector<core::RepeatRecord>> PlanStream::device_repeats(int attempt)
{
  std::map<int, std::vector<core::RepeatRecord>> out;
  for (; m_devices.at(attempt); m_devices.next()) {
    out[static_cast<int>(m_devices.select.integer(11))].push_back(read_repeat(m_devices.select));
  }
  return out;
}

std::vector<std::pair<std::string, nlohmann::json>> list_probes(Database& db)
{
  auto select = db.prepare("SELECT name, definition FROM probes ORDER BY name");
  return select.rows(
      [](const Statement& row) { return std::pair(row.text(0), nlohmann::json::parse(row.text(1))); });
}

std::vector<core::BaselineRecord> baseline_history(Database& db, const std::string& plan)
{
  auto select = db.prepare("SELECT plan, bench, run, time_ms, reason, event_id FROM baselines WHERE plan = ? "
                           "ORDER BY time_ms, event_id");
  select.bind(1, plan);
  return select.rows([](const Statement& row) {
    return core::BaselineRecord{row.text(0),    row.text(1), static_cast<int>(row.integer(2)),
                                row.integer(3), row.text(4), row.text(5)};
  });
}

std::vector<core::Withdrawal> run_withdrawals(Database& db, int run)
{
  auto select = db.prepare(
      "SELECT time_ms, withdrawn, reason FROM run_withdrawals WHERE run = ? ORDER BY time_ms, event_id");
  select.bind(1, run);
  return select.rows([](const Statement& row) {
    return core::Withdrawal{row.integer(0), row.integer(1) != 0, row.text(2)};
  });
}

std::vector<core::RunHead> bench_run_heads(Database& db, const std::string& bench)
{
  // The withdrawn runs first, apart: few runs are withdrawn, and a look-up of each run in their
  // table cost a sixth of the query.
  std::vector<int> withdrawn;
  auto select_withdrawn = db.prepare("SELECT run FROM withdrawn_runs WHERE time_ms != 0 ORDER BY run");
  while (select_withdrawn.step()) {
    withdrawn.push_back(static_cast<int>(select_withdrawn.integer(0)));
  }
  auto select =
      db.prepare("SELECT number, revision, status, git_commit, git_branch, git_dirty, git_diff_blob, "
                 "env_blob FROM runs WHERE bench = ? ORDER BY number");
  select.bind(1, bench);
  std::vector<core::RunHead> out;
  while (select.step()) {
    auto& run = out.emplace_back();
    run.number = static_cast<int>(select.integer(0));
    run.revision = static_cast<int>(select.integer(1));
    run.status = events::read_run_status(select.text_view(2));
    run.withdrawn = std::binary_search(withdrawn.begin(), withdrawn.end(), run.number);
    run.git = read_git_columns(select, 3);
    run.env_blob = select.text(7);
  }
  return out;
}

std::vector<std::string> plans_with_current_baseline(Database& db, int run)
{
  // The current pin of a plan and benchmark is its last, in baseline_history's order.
  auto select = db.prepare(R"sql(
    SELECT DISTINCT b.plan FROM baselines b WHERE b.run = ?1 AND NOT EXISTS (
      SELECT 1 FROM baselines later WHERE later.plan = b.plan AND later.bench = b.bench
        AND (later.time_ms, later.event_id) > (b.time_ms, b.event_id))
    ORDER BY b.plan)sql");
  select.bind(1, run);
  return select.rows([](const Statement& row) { return row.text(0); });
}

std::vector<std::string> plan_benchmarks(Database& db, const std::string& plan)
{
  auto select =
      db.prepare("SELECT bench FROM runs WHERE attempt IN (SELECT number FROM attempts WHERE plan = ?) "
                 "UNION SELECT bench FROM baselines WHERE plan = ? ORDER BY 1");
  select.bind(1, plan).bind(2, plan);
  return select.rows([](const Statement& row) { return row.text(0); });
}

bool measured_any_repeat(Database& db, int run)
{
  auto select = db.prepare("SELECT EXISTS (SELECT 1 FROM run_repeats WHERE run = ?)");
  select.bind(1, run);
  return select.step() && select.integer(0) != 0;
}

std::vector<core::Acknowledgement> acknowledgements(Database& db, const std::string& bench)
{
  auto select = db.prepare("SELECT event_id, bench, metric, commit_id, reason, time_ms FROM acknowledgements "
                           "WHERE ? = '' OR bench = ? ORDER BY time_ms, event_id");
  select.bind(1, bench).bind(2, bench);
  return select.rows([](const Statement& row) {
    return core::Acknowledgement{row.text(0), row.text(1), row.text(2),
                                 row.text(3), row.text(4), row.integer(5)};
  });
}

void visit_runs_samples(Database& db, std::span<const int> runs, const std::string& metric,
                        const std::function<void(const SampleView&)>& visit)
{
  auto select = db.prepare("SELECT run, params, key, value, unit, kind FROM samples "
                           "WHERE run BETWEEN ?1 AND ?2 AND metric = ?3 ORDER BY run, repeat_idx, ordinal");
  for (std::size_t first = 0; first < runs.size();) {
    auto last = first;
    while (last + 1 < runs.size() && runs[last + 1] == runs[last] + 1) {
      ++last;
    }
    select.reset();
    select.bind(1, runs[first]).bind(2, runs[last]).bind(3, metric);
    // Views of SQLite's own copies, valid through the visit (until the next step): no copy per sample.
    while (select.step()) {
      visit({static_cast<int>(select.integer(0)), select.text_view(1), metric, select.text_view(2),
             select.real(3), select.text_view(4), events::read_sample_kind(select.text_view(5))});
    }
    first = last + 1;
  }
}

} // namespace ej::store
