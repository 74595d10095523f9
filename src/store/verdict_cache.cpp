#include "store/verdict_cache.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace ej::store {

namespace {

// The plan's targets, measures and headline, as stored: a change to any of them changes the count
// of nothing, yet may change every verdict.
constexpr std::string_view k_target_text =
    "p.target || coalesce(char(10) || m.targets || char(10) || m.measures || char(10) || m.headline, '')";

// The cached line (verdict_cache c) and what it was judged from; then, for its LaterPins, how many
// of the plan's pins are no later than its through_ms, whether a later one pins a benchmark none of
// those did, and the newest pin of its benchmark.
constexpr std::string_view k_cached_columns = R"sql(,
      c.attempt, c.maker, c.plan, c.target, c.runs, c.baselines, c.bench_revisions, c.withdrawals, c.text,
      c.through_ms, c.bench, c.baseline_run, c.note_at, c.note_length,
      (SELECT count(*) FROM baselines b WHERE b.plan = a.plan AND b.time_ms <= c.through_ms),
      EXISTS (SELECT 1 FROM baselines later WHERE later.plan = a.plan AND later.time_ms > c.through_ms
        AND NOT EXISTS (SELECT 1 FROM baselines b WHERE b.plan = a.plan AND b.bench = later.bench
                          AND b.time_ms <= c.through_ms)),
      (SELECT b.run FROM baselines b WHERE b.plan = a.plan AND b.bench = c.bench
        ORDER BY b.time_ms DESC, b.event_id DESC LIMIT 1))sql";

// The inputs of the attempts `chosen` names (an SQL condition on a), then, with `cached`, the
// cached line's (from column 7 on).
std::string inputs_select(std::string_view chosen, bool cached)
{
  return fmt::format(R"sql(
    SELECT a.number, a.plan, {},
      (SELECT count(*) FROM runs r WHERE r.attempt = a.number),
      (SELECT count(*) FROM baselines b WHERE b.plan = a.plan),
      (SELECT count(*) FROM bench_revisions),
      (SELECT count(*) FROM run_withdrawals) + (SELECT count(*) FROM interleaved_comparisons){}
    FROM attempts a JOIN plans p ON p.slug = a.plan LEFT JOIN plan_measures m ON m.plan = a.plan{}
    WHERE {})sql",
                     k_target_text, cached ? k_cached_columns : "",
                     cached ? " LEFT JOIN verdict_cache c ON c.attempt = a.number" : "", chosen);
}

// The plans of which a baseline run is still running or misses its environment snapshot.
constexpr std::string_view k_unsettled_plans =
    R"sql((SELECT b.plan FROM baselines b JOIN runs r ON r.number = b.run
        WHERE r.status = 'started' OR (r.env_blob <> ''
          AND NOT EXISTS (SELECT 1 FROM blobs WHERE hash = r.env_blob))))sql";

// Whether the line of attempt a may be kept: no run of the attempt, nor a baseline run of its plan,
// is still running or misses its environment snapshot (an export without blobs, a sync that has
// not brought it: once it arrives, the line may say "environments differ"). Running runs are few:
// the attempts they belong to are found once, through runs_by_status. Followed by
// k_unsettled_plans.
constexpr std::string_view k_settled = R"sql(
      a.number NOT IN (SELECT attempt FROM runs WHERE status = 'started' AND attempt IS NOT NULL)
        AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.attempt = a.number AND r.env_blob <> ''
                        AND NOT EXISTS (SELECT 1 FROM blobs WHERE hash = r.env_blob))
        AND a.plan NOT IN )sql";

// The inputs in six columns from `first` on: what they are now, or what a cached verdict was made of.
VerdictInputs read_inputs(const Statement& row, int first)
{
  VerdictInputs inputs;
  inputs.plan = row.text(first);
  inputs.target = row.text(first + 1);
  inputs.runs = row.integer(first + 2);
  inputs.baselines = row.integer(first + 3);
  inputs.bench_revisions = row.integer(first + 4);
  inputs.withdrawals = row.integer(first + 5);
  return inputs;
}

} // namespace

bool has_verdict_cache(Database& db)
{
  return db.query_integer(
             "SELECT count(*) FROM pragma_table_info('verdict_cache') WHERE name = 'note_length'") > 0;
}

std::map<int, VerdictLookup> look_up_verdicts(Database& db, const std::vector<int>& attempts)
{
  // One statement for a listing's attempts: what they share (the benchmarks) is read once.
  auto select = db.prepare(inputs_select("a.number IN (SELECT value FROM json_each(?))", true));
  select.bind(1, nlohmann::json(attempts).dump());
  std::map<int, VerdictLookup> out;
  while (select.step()) {
    const auto attempt = static_cast<int>(select.integer(0));
    auto& lookup = out[attempt];
    lookup.now = read_inputs(select, 1);
    if (select.is_null(7)) {
      continue;
    }
    CachedVerdict cached;
    cached.attempt = attempt;
    lookup.maker = select.text(8);
    cached.inputs = read_inputs(select, 9);
    if (!select.is_null(15)) {
      cached.text = select.text(15);
    }
    if (!select.is_null(16)) {
      cached.later_pins = LaterPins{select.integer(16), select.text(17), static_cast<int>(select.integer(18)),
                                    select.integer(19), select.integer(20)};
      lookup.pinned_after_only = select.integer(21) == cached.inputs.baselines && select.integer(22) == 0;
      if (!select.is_null(23)) {
        lookup.baseline_now = static_cast<int>(select.integer(23));
      }
    }
    lookup.cached = std::move(cached);
  }
  return out;
}

std::map<int, VerdictInputs> verdict_inputs_of_plan(Database& db, const std::string& plan)
{
  auto select =
      db.prepare(inputs_select(fmt::format("a.plan = ? AND {}{}", k_settled, k_unsettled_plans), false));
  select.bind(1, plan);
  std::map<int, VerdictInputs> out;
  while (select.step()) {
    out.emplace(static_cast<int>(select.integer(0)), read_inputs(select, 1));
  }
  return out;
}

std::optional<VerdictInputs> plan_verdict_inputs(Database& db, const std::string& plan)
{
  auto select = db.prepare(fmt::format(R"sql(
    SELECT p.slug, {}, 0,
      (SELECT count(*) FROM baselines b WHERE b.plan = p.slug),
      (SELECT count(*) FROM bench_revisions),
      (SELECT count(*) FROM run_withdrawals) + (SELECT count(*) FROM interleaved_comparisons)
    FROM plans p LEFT JOIN plan_measures m ON m.plan = p.slug
    WHERE p.slug = ? AND p.slug NOT IN {})sql",
                                       k_target_text, k_unsettled_plans));
  select.bind(1, plan);
  if (!select.step()) {
    return std::nullopt;
  }
  return read_inputs(select, 0); // runs 0: the render counts each attempt's own
}

std::size_t keep_verdicts(Database& db, std::string_view maker, const std::vector<CachedVerdict>& verdicts)
{
  if (maker.empty()) {
    return 0; // a build that cannot be told from another keeps nothing
  }
  // A row that holds the same already is left alone: a render of an unchanged plan then writes
  // nothing, and its caller need not commit (a commit and its checkpoint sync the journal).
  auto upsert = db.prepare(R"sql(
    INSERT INTO verdict_cache(attempt, maker, plan, target, runs, baselines, bench_revisions, withdrawals,
      text, through_ms, bench, baseline_run, note_at, note_length)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT(attempt) DO UPDATE SET maker = excluded.maker, plan = excluded.plan,
      target = excluded.target, runs = excluded.runs, baselines = excluded.baselines,
      bench_revisions = excluded.bench_revisions, withdrawals = excluded.withdrawals, text = excluded.text,
      through_ms = excluded.through_ms, bench = excluded.bench, baseline_run = excluded.baseline_run,
      note_at = excluded.note_at, note_length = excluded.note_length
    WHERE maker IS NOT excluded.maker OR plan IS NOT excluded.plan OR target IS NOT excluded.target
      OR runs IS NOT excluded.runs OR baselines IS NOT excluded.baselines
      OR bench_revisions IS NOT excluded.bench_revisions OR withdrawals IS NOT excluded.withdrawals
      OR text IS NOT excluded.text OR through_ms IS NOT excluded.through_ms OR bench IS NOT excluded.bench
      OR baseline_run IS NOT excluded.baseline_run OR note_at IS NOT excluded.note_at
      OR note_length IS NOT excluded.note_length)sql");
  std::size_t changed = 0;
  for (const auto& verdict : verdicts) {
    upsert.reset();
    upsert.bind_all(verdict.attempt, maker, verdict.inputs.plan, verdict.inputs.target, verdict.inputs.runs,
                    verdict.inputs.baselines, verdict.inputs.bench_revisions, verdict.inputs.withdrawals,
                    verdict.text);
    if (const auto& later = verdict.later_pins) {
      upsert.bind(10, later->through_ms)
          .bind(11, later->bench)
          .bind(12, later->baseline_run)
          .bind(13, later->note_at)
          .bind(14, later->note_length);
    }
    upsert.run();
    changed += static_cast<std::size_t>(db.changes());
  }
  return changed;
}

void forget_verdicts(Database& db)
{
  db.exec("DELETE FROM verdict_cache");
}

} // namespace ej::store
