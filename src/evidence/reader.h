#pragma once

#include "core/bench_definition.h"
#include "core/records.h"
#include "core/run_records.h"
#include "core/target.h"
#include "evidence/calibration.h"
#include "evidence/metric_rules.h"
#include "evidence/plan_measures.h"
#include "evidence/plan_prefetch.h"
#include "evidence/run_set.h"
#include "evidence/series.h"
#include "evidence/wording.h"
#include "measure/throttle.h"
#include "store/journal.h"
#include "store/run_queries.h"

#include <nlohmann/json.hpp>

#include <map>
#include <tuple>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ej::evidence {

// Reads the journal for judging and keeps what it read: a plan document judges thousands of runs
// against one baseline, with one benchmark revision's rules and a handful of environments. Every
// command that judges uses one; it is valid while the journal is only read (write after, then
// make a new one). Errors of the store (a corrupt or busy journal) are never swallowed here.
class Reader {
public:
  explicit Reader(store::Journal& journal) : m_journal(journal) {}
  ~Reader(); // gives what the read-ahead thread read back to it, to be freed there
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  store::Journal& journal() { return m_journal; }

  // Run sets made from now on leave out the repeats that ran on a throttled GPU (ej compare
  // --exclude-throttled; a benchmark's exclude_throttled option does it for its runs anyway).
  void exclude_throttled(bool on) { m_exclude_throttled = on; }
  // The repeats of a run that ran on a throttled GPU (measure::find_throttled with its benchmark
  // revision's threshold), read once.
  const measure::ThrottleReport& throttled(const core::RunRecord& run);

  // Reads the runs, samples and device repeats of a plan's attempts through one PlanStream
  // (documents and plan show judge them all) instead of queries per attempt and run: each attempt
  // when it is first asked for, in ascending order. `attempts` are the plan's attempts.
  // Ahead::OnThread reads them on a thread of its own (PlanPrefetch), when the journal allows; the
  // caller is then inside a ReadTransaction that has read, and destroys this Reader before it writes.
  enum class Ahead { No, OnThread };
  void stream_plan(const std::string& plan, const std::vector<core::Attempt>& attempts,
                   Ahead ahead = Ahead::No);
  // Reads the runs, samples and device repeats of a few attempts of any plans at once (a listing
  // that judges them): three statements instead of three per run. Kept until forgotten; nothing
  // when a plan is streamed.
  void read_attempts(const std::vector<core::Attempt>& attempts);
  // Closes the stream (its statements hold a read transaction until they are done): before a
  // command prints, so that a slow reader of its output keeps no other ej waiting.
  void end_stream();
  // Drops what was read for the attempt and its runs: a document of 100,000 runs, done with an
  // attempt, keeps none of it. Asked for again, it is read again.
  void forget_attempt(int attempt);

  // One run (only the combinations the selector names); nullopt when there is no such run.
  std::optional<RunSet> run_set(int run, const core::ParamValues& selector = {});
  RunSet run_set(const core::RunRecord& run, const core::ParamValues& selector = {});
  // The attempt's usable runs of `bench` (empty: the benchmark of its newest usable run), of the
  // newest revision used; nullopt when it has none.
  std::optional<RunSet> attempt_set(int attempt, const std::string& bench = "",
                                    const core::ParamValues& selector = {});
  // The baseline's run set, read once for all the verdicts against it; nullptr: no such run.
  const RunSet* baseline_set(int run);

  // The attempt's runs, newest first.
  const std::vector<core::RunRecord>& runs_of_attempt(int attempt);
  const std::vector<SeriesSummary>& series_of_run(int run);
  const MetricRules& rules(const std::string& bench, int revision);
  // Whether two revisions of `bench` measure the same thing (core::measures_alike): their runs are
  // compared. False when either revision is missing.
  bool measures_alike(const std::string& bench, int a, int b);
  // The plan's baseline history, oldest first.
  const std::vector<core::BaselineRecord>& baselines(const std::string& plan);
  std::optional<std::string> plan_of_attempt(int attempt);
  // Tells the reader an attempt a listing already read: plan_of_attempt need not read it again.
  void know_attempt(const core::Attempt& attempt);
  // Whether the journal keeps verdict lines (store/verdict_cache.h), asked once.
  bool has_verdict_cache();
  // The plan as stored (read once); nullptr when there is no such plan.
  const core::Plan* plan(const std::string& slug);
  // The plan's measures, with their units, directions and headline combinations (resolved once).
  const PlanMeasures& measures(const std::string& plan);
  // A stored environment fingerprint; nullptr when the blob is missing.
  const nlohmann::json* environment(const std::string& blob);
  // quantity_of(metric, unit), read once per metric and unit (a document compares 11,000 series).
  Quantity quantity(const std::string& metric, const std::string& unit);
  // The newest calibration (ej calibrate) of the benchmark measured in that environment, of a
  // revision that measures alike `revision`; nullptr when there is none. Read once a benchmark.
  const Calibration* calibration(const std::string& bench, const std::string& env_blob, int revision);
  // The reference run an `ej run --against` session measured alongside `run` when `run` was its
  // candidate; nullopt for a run measured on its own. Every comparison is read once.
  std::optional<int> compared_with(int run);
  // The newest usable run of the benchmark that belongs to no attempt: what a plan without a
  // baseline would pin (evidence/next_step.h). Read once per benchmark.
  std::optional<int> newest_free_run(const std::string& bench);

private:
  // The run's series, without its throttled repeats when they are left out; says so in `set`.
  const std::vector<SeriesSummary>& judged_series(const core::RunRecord& run, RunSet& set);
  std::vector<SeriesSummary> selected(const std::vector<SeriesSummary>& series,
                                      const core::ParamValues& selector);

  // Reads the attempt from the stream when it is an attempt of the streamed plan not passed yet.
  bool read_streamed(int attempt);
  void keep_streamed(int attempt, std::unique_ptr<StreamedAttempt> read);

  store::Journal& m_journal;
  std::optional<store::PlanStream> m_stream;
  std::unique_ptr<PlanPrefetch> m_prefetch; // when it reads ahead on a thread (instead of m_stream)
  std::string m_streamed_plan;
  int m_streamed_up_to = 0; // the last attempt read from it
  // What was read from the stream stays as it was read, until forgotten (and then freed by the
  // thread that read it): by attempt, and its runs' series by run.
  std::map<int, std::unique_ptr<StreamedAttempt>> m_streamed;
  std::map<int, const std::vector<SeriesSummary>*> m_streamed_series;
  std::map<int, std::vector<core::RunRecord>> m_runs_by_attempt; // not streamed
  std::map<int, std::vector<SeriesSummary>> m_series;            // by run, not streamed
  std::map<int, std::vector<SeriesSummary>> m_unthrottled_series;
  std::map<int, measure::ThrottleReport> m_throttled;
  bool m_exclude_throttled = false;
  std::map<int, std::optional<RunSet>> m_baseline_sets;
  std::map<std::pair<std::string, int>, MetricRules> m_rules;
  std::map<std::tuple<std::string, int, int>, bool> m_alike; // bench, lower and higher revision
  std::map<std::string, std::vector<core::BaselineRecord>> m_baselines;
  std::map<std::string, std::optional<core::Plan>> m_plans;
  std::map<std::string, PlanMeasures> m_measures;
  std::map<int, std::optional<std::string>> m_attempt_plans;
  std::optional<bool> m_has_verdict_cache;
  std::map<std::string, std::optional<nlohmann::json>> m_environments;
  std::map<std::string, std::map<std::string, Quantity>> m_quantities; // by metric, unit
  std::map<std::string, std::vector<Calibration>> m_calibrations;      // by bench, newest first
  std::optional<std::map<int, int>> m_compared;                        // candidate run -> reference run
  std::map<std::string, std::optional<int>> m_free_runs;               // by bench
};

} // namespace ej::evidence
