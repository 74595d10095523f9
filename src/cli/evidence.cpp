#include "cli/evidence.h"

#include "cli/run_support.h"
#include "core/bench_definition.h"
#include "core/target.h"
#include "run/env_diff.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace ej::cli {

namespace {

bool usable(const core::RunRecord& run)
{
  return run.status == "finished" || run.status == "imported";
}

std::string run_numbers(const std::vector<core::RunRecord>& runs)
{
  std::vector<std::string> parts;
  for (const auto& run : runs) {
    parts.push_back(fmt::format("#{}", run.number));
  }
  return util::join(parts, ", ");
}

MetricRules rules_for(store::Journal& journal, const std::string& bench, int revision)
{
  MetricRules rules;
  rules.directions["wall_s"] = measure::Direction::LowerIsBetter;
  const auto definition_row = store::find_bench_revision(journal.db(), bench, revision);
  if (!definition_row) {
    return rules;
  }
  const auto definition = core::bench_definition_from_json(definition_row->definition);
  for (const auto& spec : metric_specs(definition)) {
    rules.directions[spec.name] = spec.better == measure::Better::Higher ? measure::Direction::HigherIsBetter
                                                                         : measure::Direction::LowerIsBetter;
  }
  rules.primary = definition.primary.empty() ? "wall_s" : definition.primary;
  rules.min_effect_pct = definition.min_effect_pct;
  return rules;
}

// The rules from the cache (read once per revision), or read into `storage` without one.
const MetricRules& rules_for(store::Journal& journal, const std::string& bench, int revision,
                             VerdictCache* cache, MetricRules& storage)
{
  if (cache == nullptr) {
    return storage = rules_for(journal, bench, revision);
  }
  const auto key = std::make_pair(bench, revision);
  const auto found = cache->m_rules.find(key);
  if (found != cache->m_rules.end()) {
    return found->second;
  }
  return cache->m_rules[key] = rules_for(journal, bench, revision);
}

std::optional<nlohmann::json> environment_of(store::Journal& journal, const RunSet& set, VerdictCache* cache)
{
  for (const auto& run : set.runs) {
    if (run.env_blob.empty()) {
      continue;
    }
    if (cache != nullptr) {
      const auto found = cache->m_environments.find(run.env_blob);
      if (found != cache->m_environments.end()) {
        return found->second;
      }
    }
    if (const auto text = journal.blob(run.env_blob)) {
      auto environment = nlohmann::json::parse(*text);
      if (cache != nullptr) {
        cache->m_environments[run.env_blob] = environment;
      }
      return environment;
    }
  }
  return std::nullopt;
}

bool single_combination(const std::vector<SeriesSummary>& series)
{
  for (const auto& s : series) {
    if (s.params != series.front().params) {
      return false;
    }
  }
  return !series.empty();
}

std::string crossover_of(const std::vector<SeriesComparison>& series, const std::string& primary)
{
  std::vector<const SeriesComparison*> sweep;
  for (const auto& s : series) {
    if (s.metric == primary && !s.params.empty() && s.key.empty()) {
      sweep.push_back(&s);
    }
  }
  if (sweep.size() < 2) {
    return "";
  }
  std::vector<std::string> wins;
  for (std::size_t i = 0; i < sweep.size(); ++i) {
    const bool won = sweep[i]->comparison.outcome == measure::Outcome::Improved;
    if (won) {
      wins.push_back(sweep[i]->params);
      continue;
    }
    if (wins.empty()) {
      return fmt::format("the candidate does not win at {} (the first value: {})", sweep[i]->params,
                         measure::to_string(sweep[i]->comparison.outcome));
    }
    return fmt::format("the candidate wins at {} and stops winning at {} ({})", util::join(wins, "; "),
                       sweep[i]->params, measure::to_string(sweep[i]->comparison.outcome));
  }
  return fmt::format("the candidate wins at every value ({})", util::join(wins, "; "));
}

} // namespace

void prefetch_plan(store::Journal& journal, const std::string& plan, VerdictCache& cache)
{
  cache.m_runs_by_attempt = store::plan_runs(journal.db(), plan);
  for (const auto& [attempt, runs] : cache.m_runs_by_attempt) {
    cache.m_attempt_plans[attempt] = plan;
  }
  // Each run's samples come together: its series are complete when the next run's begin.
  SeriesBuilder builder;
  std::optional<int> current;
  const auto finish_run = [&] {
    if (current) {
      cache.m_series.emplace_hint(cache.m_series.end(), *current, builder.take());
    }
  };
  store::for_each_plan_sample(journal.db(), plan, [&](const store::SampleView& sample) {
    if (sample.run != current) {
      finish_run();
      current = sample.run;
    }
    builder.add(sample.params, sample.metric, sample.key, sample.value, sample.unit, sample.kind);
  });
  finish_run();
  cache.m_prefetched = true;
}

const std::vector<core::RunRecord>& prefetched_runs(const VerdictCache& cache, int attempt)
{
  static const std::vector<core::RunRecord> none;
  const auto it = cache.m_runs_by_attempt.find(attempt);
  return it != cache.m_runs_by_attempt.end() ? it->second : none;
}

std::vector<core::RunRecord> runs_of_attempt(store::Journal& journal, int attempt, VerdictCache* cache)
{
  if (cache != nullptr && cache->m_prefetched) {
    return prefetched_runs(*cache, attempt);
  }
  store::RunFilter filter;
  filter.attempt = attempt;
  return store::list_runs(journal.db(), filter);
}

const std::vector<SeriesSummary>& series_of_run(store::Journal& journal, int run, VerdictCache* cache,
                                                std::vector<SeriesSummary>& storage)
{
  if (cache != nullptr && cache->m_prefetched) {
    const auto it = cache->m_series.find(run);
    if (it != cache->m_series.end()) {
      return it->second;
    }
  }
  return storage = run_series(store::run_samples(journal.db(), run));
}

namespace {

RunSet run_set_of_record(store::Journal& journal, const core::RunRecord* run, VerdictCache* cache = nullptr)
{
  const int number = run->number;
  RunSet set;
  set.label = fmt::format("run #{}", number);
  set.bench = run->bench;
  set.revision = run->revision;
  set.runs = {*run};
  std::vector<SeriesSummary> storage;
  const auto& series = series_of_run(journal, number, cache, storage);
  set.series = &series == &storage ? std::move(storage) : series;
  if (!usable(*run)) {
    set.warnings.push_back(
        fmt::format("run #{} is {}{}; its samples may be incomplete", number, run->status,
                    run->reason.empty() ? "" : " (" + util::first_line(run->reason, 80) + ")"));
  }
  if (run->status == "imported") {
    set.warnings.push_back(fmt::format("run #{} was imported ({}), not measured by ej", number, run->source));
  }
  return set;
}

} // namespace

RunSet run_set_of_run(store::Journal& journal, int number)
{
  const auto run = store::find_run(journal.db(), number);
  if (!run) {
    throw Error("there is no run #{}; see 'ej runs'", number);
  }
  return run_set_of_record(journal, &*run);
}

RunSet run_set_of_attempt(store::Journal& journal, int attempt, const std::string& bench, VerdictCache* cache)
{
  const bool prefetched =
      cache != nullptr && cache->m_prefetched && cache->m_attempt_plans.count(attempt) > 0;
  if (!prefetched && !store::find_attempt(journal.db(), attempt)) {
    throw Error("there is no attempt #{}; see 'ej log'", attempt);
  }
  std::vector<core::RunRecord> read;
  const auto& runs = prefetched ? prefetched_runs(*cache, attempt) // newest first
                                : (read = runs_of_attempt(journal, attempt, nullptr));
  RunSet set;
  for (const auto& run : runs) {
    if (!usable(run) || (!bench.empty() && run.bench != bench)) {
      continue;
    }
    if (set.runs.empty()) {
      set.bench = run.bench;
      set.revision = run.revision;
    }
    if (run.bench == set.bench && run.revision == set.revision) {
      set.runs.push_back(run);
    }
  }
  std::reverse(set.runs.begin(), set.runs.end()); // oldest first
  if (set.runs.empty()) {
    throw Error("attempt #{} has no finished runs{}; run one with 'ej run BENCH --attempt {}'", attempt,
                bench.empty() ? "" : " of " + bench, attempt);
  }
  // The runs' series one after the other: as if their samples were grouped together.
  SeriesBuilder builder;
  for (const auto& run : set.runs) {
    std::vector<SeriesSummary> storage;
    for (const auto& series : series_of_run(journal, run.number, cache, storage)) {
      builder.add_series(series);
    }
  }
  set.series = builder.take();
  for (const auto& run : set.runs) {
    if (run.status == "imported") {
      set.warnings.push_back(
          fmt::format("run #{} was imported ({}), not measured by ej", run.number, run.source));
    }
  }
  set.label = fmt::format("attempt #{} ({} {})", attempt, set.runs.size() == 1 ? "run" : "runs",
                          run_numbers(set.runs));
  return set;
}

namespace {

ComparisonReport compare_with(store::Journal& journal, const RunSet& reference, const RunSet& candidate,
                              const std::string& metric, bool force, VerdictCache* cache)
{
  if (reference.bench != candidate.bench) {
    throw Error("{} ran benchmark {} and {} ran {}: results of different benchmarks are not comparable",
                reference.label, reference.bench, candidate.label, candidate.bench);
  }
  if (reference.runs.size() == 1 && candidate.runs.size() == 1 &&
      reference.runs.front().number == candidate.runs.front().number) {
    throw Error("{} compared with itself says nothing; compare it with another run or attempt",
                reference.label);
  }
  ComparisonReport report;
  if (reference.revision != candidate.revision) {
    if (!force) {
      throw Error(
          "{} used revision {} of {} and {} used revision {}: the benchmark changed in between; compare "
          "anyway with --force",
          reference.label, reference.revision, reference.bench, candidate.label, candidate.revision);
    }
    report.warnings.push_back(
        fmt::format("benchmark revisions differ ({} vs {}): compared because of --force", reference.revision,
                    candidate.revision));
  }
  for (const auto* set : {&reference, &candidate}) {
    report.warnings.insert(report.warnings.end(), set->warnings.begin(), set->warnings.end());
  }
  MetricRules rules_storage;
  const auto& rules = rules_for(journal, candidate.bench, candidate.revision, cache, rules_storage);
  const auto& reference_series = reference.series;
  std::vector<const SeriesSummary*> candidate_series;
  candidate_series.reserve(candidate.series.size());
  for (const auto& s : candidate.series) {
    candidate_series.push_back(&s);
  }
  // The primary metric first, then the others in the order the benchmark defines them.
  std::stable_sort(candidate_series.begin(), candidate_series.end(), [&](const auto* a, const auto* b) {
    return (a->metric == rules.primary) > (b->metric == rules.primary);
  });
  bool metric_found = metric.empty();
  bool paired_note_added = false;
  for (const auto* candidate_one : candidate_series) {
    const auto& c = *candidate_one;
    if (!metric.empty() && c.metric != metric) {
      continue;
    }
    metric_found = true;
    auto r = std::find_if(reference_series.begin(), reference_series.end(), [&](const auto& s) {
      return s.metric == c.metric && s.params == c.params && s.key == c.key;
    });
    // Two runs of one parameter combination each (variant=naive against variant=blocked) are
    // compared with each other: there the parameter is what the attempt changed.
    if (r == reference_series.end() && single_combination(reference_series) &&
        single_combination(candidate.series)) {
      r = std::find_if(reference_series.begin(), reference_series.end(),
                       [&](const auto& s) { return s.metric == c.metric && s.key == c.key; });
      if (r != reference_series.end() && !paired_note_added) {
        report.warnings.push_back(fmt::format("compared {} with {}", r->params, c.params));
        paired_note_added = true;
      }
    }
    if (r == reference_series.end() || r->values.empty() || c.values.empty()) {
      report.warnings.push_back(fmt::format("{}{}: no samples on {} side", c.metric,
                                            c.params.empty() ? "" : " [" + c.params + "]",
                                            c.values.empty() ? "the candidate's" : "the reference's"));
      continue;
    }
    measure::CompareOptions options;
    const auto direction = rules.directions.find(c.metric);
    options.direction =
        direction != rules.directions.end() ? direction->second : measure::Direction::LowerIsBetter;
    options.min_effect_pct = rules.min_effect_pct;
    report.series.push_back(
        {c.metric, c.params, c.key, c.unit, measure::compare(r->values, c.values, options)});
  }
  if (!metric_found) {
    throw Error("no samples of metric '{}' in {}; see 'ej show run N' for the metrics", metric,
                candidate.label);
  }
  if (report.series.empty()) {
    throw Error("{} and {} have no metric with samples on both sides{}", reference.label, candidate.label,
                report.warnings.empty() ? "" : " (" + util::join(report.warnings, "; ") + ")");
  }
  const auto env_a = environment_of(journal, reference, cache);
  const auto env_b = environment_of(journal, candidate, cache);
  if (env_a && env_b && *env_a != *env_b) {
    report.env_changes = run::format_changes(run::diff_environments(*env_a, *env_b));
    if (!report.env_changes.empty()) {
      report.warnings.push_back("the two sides ran in different environments: the comparison mixes them");
    }
  }
  report.crossover = crossover_of(report.series, rules.primary);
  return report;
}

} // namespace

ComparisonReport compare_sets(store::Journal& journal, const RunSet& reference, const RunSet& candidate,
                              const std::string& metric, bool force)
{
  return compare_with(journal, reference, candidate, metric, force, nullptr);
}

std::optional<int> current_baseline(store::Journal& journal, const std::string& plan,
                                    const std::string& bench)
{
  std::optional<int> run;
  for (const auto& baseline : store::baseline_history(journal.db(), plan)) {
    if (baseline.bench == bench) {
      run = baseline.run;
    }
  }
  return run;
}

namespace {

const std::vector<core::BaselineRecord>& baselines_of(store::Journal& journal, const std::string& plan,
                                                      VerdictCache& cache)
{
  const auto found = cache.m_baselines.find(plan);
  if (found != cache.m_baselines.end()) {
    return found->second;
  }
  return cache.m_baselines[plan] = store::baseline_history(journal.db(), plan);
}

std::optional<int> cached_baseline(store::Journal& journal, const std::string& plan, const std::string& bench,
                                   VerdictCache* cache)
{
  if (cache == nullptr) {
    return current_baseline(journal, plan, bench);
  }
  std::optional<int> run;
  for (const auto& baseline : baselines_of(journal, plan, *cache)) {
    if (baseline.bench == bench) {
      run = baseline.run;
    }
  }
  return run;
}

// The baseline's run set from the cache (not copied: thousands of verdicts share it), or read into
// `storage` without one.
const RunSet& baseline_set(store::Journal& journal, int run, VerdictCache* cache, RunSet& storage)
{
  if (cache == nullptr) {
    return storage = run_set_of_run(journal, run);
  }
  const auto found = cache->m_run_sets.find(run);
  if (found != cache->m_run_sets.end()) {
    return found->second;
  }
  return cache->m_run_sets[run] = run_set_of_run(journal, run);
}

std::string plan_target(store::Journal& journal, const std::string& plan_slug, VerdictCache* cache)
{
  if (cache != nullptr) {
    const auto found = cache->m_targets.find(plan_slug);
    if (found != cache->m_targets.end()) {
      return found->second;
    }
  }
  const auto plan = store::find_plan(journal.db(), plan_slug);
  const auto target = plan ? plan->target : std::string();
  if (cache != nullptr) {
    cache->m_targets[plan_slug] = target;
  }
  return target;
}

std::optional<Verdict> verdict_for(store::Journal& journal, const std::string& plan_slug, RunSet candidate,
                                   VerdictCache* cache)
{
  const auto baseline = cached_baseline(journal, plan_slug, candidate.bench, cache);
  if (!baseline) {
    return std::nullopt;
  }
  for (const auto& run : candidate.runs) {
    if (run.number == *baseline) {
      return std::nullopt; // the baseline itself
    }
  }
  RunSet reference_storage;
  const auto& reference = baseline_set(journal, *baseline, cache, reference_storage);
  if (reference.revision != candidate.revision) {
    return std::nullopt;
  }
  MetricRules rules_storage;
  const auto& rules = rules_for(journal, candidate.bench, candidate.revision, cache, rules_storage);
  ComparisonReport report;
  try {
    report = compare_with(journal, reference, candidate, rules.primary, false, cache);
  } catch (const Error&) {
    return std::nullopt;
  }
  if (report.series.empty()) {
    return std::nullopt;
  }
  Verdict verdict;
  verdict.baseline_run = *baseline;
  verdict.headline = report.series.front();
  verdict.candidate = std::move(candidate);
  verdict.text = fmt::format("{} vs run #{}", measure::short_verdict(verdict.headline.comparison), *baseline);
  const auto target_text = plan_target(journal, plan_slug, cache);
  if (!target_text.empty()) {
    const auto target = core::parse_target(target_text);
    if (target.metric == verdict.headline.metric) {
      verdict.meets_target = core::meets(target, verdict.headline.comparison.candidate_median);
    }
  }
  return verdict;
}

} // namespace

std::optional<Verdict> attempt_verdict(store::Journal& journal, int attempt, VerdictCache* cache)
{
  std::string plan;
  if (cache != nullptr && cache->m_prefetched) {
    const auto known = cache->m_attempt_plans.find(attempt);
    if (known == cache->m_attempt_plans.end()) {
      return std::nullopt; // no runs
    }
    plan = known->second;
  } else {
    const auto record = store::find_attempt(journal.db(), attempt);
    if (!record) {
      return std::nullopt;
    }
    plan = record->plan;
  }
  RunSet candidate;
  try {
    candidate = run_set_of_attempt(journal, attempt, "", cache);
  } catch (const Error&) {
    return std::nullopt;
  }
  return verdict_for(journal, plan, std::move(candidate), cache);
}

std::optional<Verdict> run_verdict(store::Journal& journal, const core::RunRecord& run, VerdictCache* cache)
{
  if (!run.attempt || !usable(run)) {
    return std::nullopt;
  }
  std::optional<std::string> plan;
  if (cache != nullptr) {
    if (const auto known = cache->m_attempt_plans.find(*run.attempt); known != cache->m_attempt_plans.end()) {
      plan = known->second;
    }
  }
  if (!plan) {
    const auto record = store::find_attempt(journal.db(), *run.attempt);
    if (!record) {
      return std::nullopt;
    }
    plan = record->plan;
    if (cache != nullptr) {
      cache->m_attempt_plans[*run.attempt] = *plan;
    }
  }
  return verdict_for(journal, *plan, run_set_of_record(journal, &run, cache), cache);
}

std::optional<double> primary_median(store::Journal& journal, const RunSet& set, std::string* unit)
{
  const auto rules = rules_for(journal, set.bench, set.revision);
  for (const auto& series : set.series) {
    if (series.metric == rules.primary && !series.values.empty()) {
      if (unit != nullptr) {
        *unit = series.unit;
      }
      return measure::summarize(series.values).median;
    }
  }
  return std::nullopt;
}

} // namespace ej::cli
