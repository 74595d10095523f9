#pragma once

#include "cli/run_support.h"
#include "core/run_records.h"
#include "measure/comparison.h"
#include "store/journal.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

// Results judged against their baseline: what compare, judge, show, log, runs and documents say.
namespace ej::cli {

// One series of two runs (or two attempts' pooled runs) compared.
struct SeriesComparison {
  std::string metric;
  std::string params; // "concurrency=8" for a sweep, "" otherwise
  std::string key;
  std::string unit;
  measure::Comparison comparison;
};

// A set of runs that stand together: one run, or an attempt's runs of one benchmark revision.
struct RunSet {
  std::string label; // "run #5", "attempt #12 (runs #5, #6)"
  std::string bench;
  int revision = 0;
  std::vector<core::RunRecord> runs;
  std::vector<SeriesSummary> series; // of the runs' samples, as run_series groups them
  std::vector<std::string> warnings; // failed or interrupted runs included, imported runs...
};

RunSet run_set_of_run(store::Journal& journal, int run);
// The attempt's runs of `bench` (its latest-used benchmark when empty), of the newest revision used.
struct VerdictCache;
RunSet run_set_of_attempt(store::Journal& journal, int attempt, const std::string& bench = "",
                          VerdictCache* cache = nullptr);

struct ComparisonReport {
  std::vector<SeriesComparison> series; // in a fixed order: metric, params, key
  std::vector<std::string> warnings;
  std::vector<std::string> env_changes; // empty when the environments are identical
  std::string crossover;                // for sweeps: where the candidate stops winning
};

// Compares candidate against reference for every metric (or only `metric`). Refuses runs of
// different benchmarks, the same run twice, and different revisions unless force.
ComparisonReport compare_sets(store::Journal& journal, const RunSet& reference, const RunSet& candidate,
                              const std::string& metric, bool force);

// The baseline run pinned for a plan and benchmark, if any.
std::optional<int> current_baseline(store::Journal& journal, const std::string& plan,
                                    const std::string& bench);

// The headline verdict of an attempt against its plan's baseline: the primary metric of the
// benchmark it ran. Empty when there is no baseline or no usable run.
struct Verdict {
  int baseline_run = 0;
  RunSet candidate;
  SeriesComparison headline;
  std::optional<bool> meets_target; // the plan's target on the candidate median, when it names the metric
  std::string text;                 // "+3.5% improved [2.9, 4.1] p=0.002 vs run #3"
};

// Direction and minimum effect of every metric of a benchmark revision.
struct MetricRules {
  std::map<std::string, measure::Direction> directions;
  std::string primary = "wall_s";
  double min_effect_pct = 0;
};

// What verdicts read again and again (a plan's baselines and target, the baseline's run set,
// a benchmark revision's rules, parsed environments), kept for a command that judges many runs
// at once (a plan document: thousands of runs against one baseline). Only while the journal is
// not written.
struct VerdictCache {
  std::map<std::string, std::vector<core::BaselineRecord>> m_baselines; // by plan
  std::map<std::string, std::string> m_targets;                         // by plan
  std::map<int, RunSet> m_run_sets;                                     // baseline runs
  std::map<std::pair<std::string, int>, MetricRules> m_rules;           // by benchmark revision
  std::map<std::string, nlohmann::json> m_environments;                 // by blob hash
  std::map<int, std::string> m_attempt_plans;                           // by attempt
  // Filled by prefetch_plan: every run (newest first) of a plan's attempts, and each run's series.
  bool m_prefetched = false;
  std::map<int, std::vector<core::RunRecord>> m_runs_by_attempt;
  std::map<int, std::vector<SeriesSummary>> m_series; // by run
};

// Reads all runs and samples of a plan's attempts in two queries, for commands that judge them all
// (documents): without it each attempt and run costs queries of its own. Keeps the samples only as
// each run's series.
void prefetch_plan(store::Journal& journal, const std::string& plan, VerdictCache& cache);
// A run's series from the cache when prefetched (not copied), else read into `storage`.
const std::vector<SeriesSummary>& series_of_run(store::Journal& journal, int run, VerdictCache* cache,
                                                std::vector<SeriesSummary>& storage);
// The attempt's runs, newest first, as prefetched (none when it has no runs).
const std::vector<core::RunRecord>& prefetched_runs(const VerdictCache& cache, int attempt);
// The attempt's runs, newest first, from the cache when it was prefetched.
std::vector<core::RunRecord> runs_of_attempt(store::Journal& journal, int attempt, VerdictCache* cache);

std::optional<Verdict> attempt_verdict(store::Journal& journal, int attempt, VerdictCache* cache = nullptr);
// The verdict of one run tied to an attempt, against its plan's baseline.
std::optional<Verdict> run_verdict(store::Journal& journal, const core::RunRecord& run,
                                   VerdictCache* cache = nullptr);

// Median of the primary metric of a set (first series), for targets and documents.
std::optional<double> primary_median(store::Journal& journal, const RunSet& set, std::string* unit = nullptr);

} // namespace ej::cli
