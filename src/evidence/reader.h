#pragma once

#include "core/records.h"
#include "core/run_records.h"
#include "core/target.h"
#include "evidence/metric_rules.h"
#include "evidence/run_set.h"
#include "evidence/series.h"
#include "evidence/wording.h"
#include "measure/throttle.h"
#include "store/journal.h"

#include <nlohmann/json.hpp>

#include <map>
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
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  store::Journal& journal() { return m_journal; }

  // Run sets made from now on leave out the repeats that ran on a throttled GPU (ej compare
  // --exclude-throttled; a benchmark's exclude_throttled option does it for its runs anyway).
  void exclude_throttled(bool on) { m_exclude_throttled = on; }
  // The repeats of a run that ran on a throttled GPU (measure::find_throttled with its benchmark
  // revision's threshold), read once.
  const measure::ThrottleReport& throttled(const core::RunRecord& run);

  // Reads every run and sample of a plan's attempts in two queries (documents judge them all);
  // `attempts` are the plan's attempts, so that those without runs cost nothing either.
  void prefetch_plan(const std::string& plan, const std::vector<core::Attempt>& attempts);

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
  // The plan's baseline history, oldest first.
  const std::vector<core::BaselineRecord>& baselines(const std::string& plan);
  std::optional<std::string> plan_of_attempt(int attempt);
  const std::string& plan_target(const std::string& plan);
  // The plan's target parsed (once per plan); nullopt when it has none.
  const std::optional<core::Target>& parsed_target(const std::string& plan);
  // A stored environment fingerprint; nullptr when the blob is missing.
  const nlohmann::json* environment(const std::string& blob);
  // quantity_of(metric, unit), read once per metric and unit (a document compares 11,000 series).
  Quantity quantity(const std::string& metric, const std::string& unit);

private:
  // The run's series, without its throttled repeats when they are left out; says so in `set`.
  const std::vector<SeriesSummary>& judged_series(const core::RunRecord& run, RunSet& set);
  std::vector<SeriesSummary> selected(const std::vector<SeriesSummary>& series,
                                      const core::ParamValues& selector);

  store::Journal& m_journal;
  std::set<std::string> m_prefetched_plans;
  std::map<int, std::vector<core::RunRecord>> m_runs_by_attempt;
  std::map<int, std::vector<SeriesSummary>> m_series; // by run
  std::map<int, std::vector<SeriesSummary>> m_unthrottled_series;
  std::map<int, measure::ThrottleReport> m_throttled;
  bool m_exclude_throttled = false;
  std::map<int, std::optional<RunSet>> m_baseline_sets;
  std::map<std::pair<std::string, int>, MetricRules> m_rules;
  std::map<std::string, std::vector<core::BaselineRecord>> m_baselines;
  std::map<std::string, std::string> m_targets;
  std::map<std::string, std::optional<core::Target>> m_parsed_targets;
  std::map<int, std::optional<std::string>> m_attempt_plans;
  std::map<std::string, std::optional<nlohmann::json>> m_environments;
  std::map<std::string, std::map<std::string, Quantity>> m_quantities; // by metric, unit
};

} // namespace ej::evidence
