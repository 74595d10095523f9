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

// Direction and minimum effect of every metric of a benchmark revision.
struct MetricRules {
  std::map<std::string, measure::Direction> directions;
  std::string primary = "wall_s";
  double min_effect_pct = 0;
};

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

std::optional<nlohmann::json> environment_of(store::Journal& journal, const RunSet& set)
{
  for (const auto& run : set.runs) {
    if (!run.env_blob.empty()) {
      if (const auto text = journal.blob(run.env_blob)) {
        return nlohmann::json::parse(*text);
      }
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

RunSet run_set_of_run(store::Journal& journal, int number)
{
  const auto run = store::find_run(journal.db(), number);
  if (!run) {
    throw Error("there is no run #{}; see 'ej runs'", number);
  }
  RunSet set;
  set.label = fmt::format("run #{}", number);
  set.bench = run->bench;
  set.revision = run->revision;
  set.runs = {*run};
  set.samples = store::run_samples(journal.db(), number);
  if (!usable(*run)) {
    set.warnings.push_back(fmt::format("run #{} is {}{}; its samples may be incomplete", number, run->status,
                                       run->reason.empty() ? "" : " (" + util::first_line(run->reason, 80) + ")"));
  }
  if (run->status == "imported") {
    set.warnings.push_back(fmt::format("run #{} was imported ({}), not measured by ej", number, run->source));
  }
  return set;
}

RunSet run_set_of_attempt(store::Journal& journal, int attempt, const std::string& bench)
{
  if (!store::find_attempt(journal.db(), attempt)) {
    throw Error("there is no attempt #{}; see 'ej log'", attempt);
  }
  store::RunFilter filter;
  filter.attempt = attempt;
  filter.bench = bench;
  const auto runs = store::list_runs(journal.db(), filter); // newest first
  RunSet set;
  for (const auto& run : runs) {
    if (!usable(run)) {
      continue;
    }
    if (set.runs.empty()) {
      set.bench = run.bench;
      set.revision = run.revision;
    }
    if (run.bench == set.bench && run.revision == set.revision) {
      set.runs.insert(set.runs.begin(), run);
    }
  }
  if (set.runs.empty()) {
    throw Error("attempt #{} has no finished runs{}; run one with 'ej run BENCH --attempt {}'", attempt,
                bench.empty() ? "" : " of " + bench, attempt);
  }
  for (const auto& run : set.runs) {
    auto samples = store::run_samples(journal.db(), run.number);
    set.samples.insert(set.samples.end(), samples.begin(), samples.end());
    if (run.status == "imported") {
      set.warnings.push_back(fmt::format("run #{} was imported ({}), not measured by ej", run.number, run.source));
    }
  }
  set.label = fmt::format("attempt #{} ({} {})", attempt, set.runs.size() == 1 ? "run" : "runs", run_numbers(set.runs));
  return set;
}

ComparisonReport compare_sets(store::Journal& journal, const RunSet& reference, const RunSet& candidate,
                              const std::string& metric, bool force)
{
  if (reference.bench != candidate.bench) {
    throw Error("{} ran benchmark {} and {} ran {}: results of different benchmarks are not comparable",
                reference.label, reference.bench, candidate.label, candidate.bench);
  }
  if (reference.runs.size() == 1 && candidate.runs.size() == 1 &&
      reference.runs.front().number == candidate.runs.front().number) {
    throw Error("{} compared with itself says nothing; compare it with another run or attempt", reference.label);
  }
  ComparisonReport report;
  if (reference.revision != candidate.revision) {
    if (!force) {
      throw Error("{} used revision {} of {} and {} used revision {}: the benchmark changed in between; compare "
                  "anyway with --force",
                  reference.label, reference.revision, reference.bench, candidate.label, candidate.revision);
    }
    report.warnings.push_back(fmt::format("benchmark revisions differ ({} vs {}): compared because of --force",
                                          reference.revision, candidate.revision));
  }
  for (const auto* set : {&reference, &candidate}) {
    report.warnings.insert(report.warnings.end(), set->warnings.begin(), set->warnings.end());
  }
  const auto rules = rules_for(journal, candidate.bench, candidate.revision);
  const auto reference_series = run_series(reference.samples);
  auto candidate_series = run_series(candidate.samples);
  // The primary metric first, then the others in the order the benchmark defines them.
  std::stable_sort(candidate_series.begin(), candidate_series.end(), [&](const auto& a, const auto& b) {
    return (a.metric == rules.primary) > (b.metric == rules.primary);
  });
  bool metric_found = metric.empty();
  bool paired_note_added = false;
  for (const auto& c : candidate_series) {
    if (!metric.empty() && c.metric != metric) {
      continue;
    }
    metric_found = true;
    auto r = std::find_if(reference_series.begin(), reference_series.end(), [&](const auto& s) {
      return s.metric == c.metric && s.params == c.params && s.key == c.key;
    });
    // Two runs of one parameter combination each (variant=naive against variant=blocked) are
    // compared with each other: there the parameter is what the attempt changed.
    if (r == reference_series.end() && single_combination(reference_series) && single_combination(candidate_series)) {
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
    options.direction = direction != rules.directions.end() ? direction->second : measure::Direction::LowerIsBetter;
    options.min_effect_pct = rules.min_effect_pct;
    report.series.push_back({c.metric, c.params, c.key, c.unit, measure::compare(r->values, c.values, options)});
  }
  if (!metric_found) {
    throw Error("no samples of metric '{}' in {}; see 'ej show run N' for the metrics", metric, candidate.label);
  }
  if (report.series.empty()) {
    throw Error("{} and {} have no metric with samples on both sides{}", reference.label, candidate.label,
                report.warnings.empty() ? "" : " (" + util::join(report.warnings, "; ") + ")");
  }
  const auto env_a = environment_of(journal, reference);
  const auto env_b = environment_of(journal, candidate);
  if (env_a && env_b && *env_a != *env_b) {
    report.env_changes = run::format_changes(run::diff_environments(*env_a, *env_b));
    if (!report.env_changes.empty()) {
      report.warnings.push_back("the two sides ran in different environments: the comparison mixes them");
    }
  }
  report.crossover = crossover_of(report.series, rules.primary);
  return report;
}

std::optional<int> current_baseline(store::Journal& journal, const std::string& plan, const std::string& bench)
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

std::optional<Verdict> verdict_for(store::Journal& journal, const std::string& plan_slug, RunSet candidate)
{
  const auto baseline = current_baseline(journal, plan_slug, candidate.bench);
  if (!baseline) {
    return std::nullopt;
  }
  for (const auto& run : candidate.runs) {
    if (run.number == *baseline) {
      return std::nullopt; // the baseline itself
    }
  }
  const auto reference = run_set_of_run(journal, *baseline);
  if (reference.revision != candidate.revision) {
    return std::nullopt;
  }
  const auto rules = rules_for(journal, candidate.bench, candidate.revision);
  ComparisonReport report;
  try {
    report = compare_sets(journal, reference, candidate, rules.primary, false);
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
  const auto plan = store::find_plan(journal.db(), plan_slug);
  if (plan && !plan->target.empty()) {
    const auto target = core::parse_target(plan->target);
    if (target.metric == verdict.headline.metric) {
      verdict.meets_target = core::meets(target, verdict.headline.comparison.candidate_median);
    }
  }
  return verdict;
}

} // namespace

std::optional<Verdict> attempt_verdict(store::Journal& journal, int attempt)
{
  const auto record = store::find_attempt(journal.db(), attempt);
  if (!record) {
    return std::nullopt;
  }
  RunSet candidate;
  try {
    candidate = run_set_of_attempt(journal, attempt);
  } catch (const Error&) {
    return std::nullopt;
  }
  return verdict_for(journal, record->plan, std::move(candidate));
}

std::optional<Verdict> run_verdict(store::Journal& journal, const core::RunRecord& run)
{
  if (!run.attempt || !usable(run)) {
    return std::nullopt;
  }
  const auto record = store::find_attempt(journal.db(), *run.attempt);
  if (!record) {
    return std::nullopt;
  }
  return verdict_for(journal, record->plan, run_set_of_run(journal, run.number));
}

std::optional<double> primary_median(store::Journal& journal, const RunSet& set, std::string* unit)
{
  const auto rules = rules_for(journal, set.bench, set.revision);
  for (const auto& series : run_series(set.samples)) {
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
