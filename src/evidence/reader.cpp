#include "evidence/reader.h"

#include "core/numbering.h"
#include "store/interleaved_queries.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "store/verdict_cache.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <algorithm>

namespace ej::evidence {

namespace {

std::string run_numbers(const std::vector<core::RunRecord>& runs)
{
  std::vector<std::string> parts;
  for (const auto& run : runs) {
    parts.push_back(core::number_label(run.number));
  }
  return util::join(parts, ", ");
}

std::string selector_suffix(const core::ParamValues& selector)
{
  return selector.empty() ? "" : " [" + core::describe(selector) + "]";
}

} // namespace

void Reader::stream_plan(const std::string& plan, const std::vector<core::Attempt>& attempts, Ahead ahead)
{
  std::vector<int> ascending;
  for (const auto& attempt : attempts) {
    m_attempt_plans[attempt.number] = attempt.plan;
    ascending.push_back(attempt.number);
  }
  std::sort(ascending.begin(), ascending.end());
  m_streamed_plan = plan;
  m_streamed_up_to = 0;
  m_prefetch.reset();
  m_stream.reset();
  if (ahead == Ahead::OnThread) {
    m_prefetch = PlanPrefetch::start(m_journal.db(), plan, std::move(ascending));
  }
  if (!m_prefetch) {
    m_stream.emplace(m_journal.db(), plan);
  }
}

bool Reader::read_streamed(int attempt)
{
  if ((!m_stream && !m_prefetch) || attempt <= m_streamed_up_to) {
    return false;
  }
  const auto plan = m_attempt_plans.find(attempt);
  if (plan == m_attempt_plans.end() || plan->second != m_streamed_plan) {
    return false;
  }
  m_streamed_up_to = attempt;
  auto read = m_prefetch ? m_prefetch->take(attempt)
                         : std::make_unique<StreamedAttempt>(read_attempt(*m_stream, attempt));
  if (!read) {
    return false; // (not in the prefetch's order: read directly)
  }
  keep_streamed(attempt, std::move(read));
  return true;
}

void Reader::keep_streamed(int attempt, std::unique_ptr<StreamedAttempt> read)
{
  static const std::vector<SeriesSummary> no_series;
  for (const auto& run : read->runs) {
    m_streamed_series.insert_or_assign(run.number, &no_series); // a run without samples has none
  }
  for (const auto& [run, series] : read->series) {
    m_streamed_series.insert_or_assign(run, &series);
  }
  m_streamed[attempt] = std::move(read);
}

void Reader::read_attempts(const std::vector<core::Attempt>& attempts)
{
  if (m_stream || m_prefetch) {
    return;
  }
  std::vector<int> ascending;
  for (const auto& attempt : attempts) {
    if (!m_streamed.contains(attempt.number) && !m_runs_by_attempt.contains(attempt.number)) {
      m_attempt_plans[attempt.number] = attempt.plan;
      ascending.push_back(attempt.number);
    }
  }
  std::sort(ascending.begin(), ascending.end());
  ascending.erase(std::unique(ascending.begin(), ascending.end()), ascending.end());
  if (ascending.empty()) {
    return;
  }
  auto stream = store::PlanStream::of_attempts(m_journal.db(), ascending);
  for (const int attempt : ascending) {
    keep_streamed(attempt, std::make_unique<StreamedAttempt>(read_attempt(stream, attempt)));
  }
}

Reader::~Reader()
{
  if (m_prefetch) {
    m_streamed_series.clear();
    for (auto& [attempt, streamed] : m_streamed) {
      m_prefetch->dispose(std::move(streamed));
    }
  }
}

void Reader::end_stream()
{
  m_prefetch.reset();
  m_stream.reset();
}

void Reader::forget_attempt(int attempt)
{
  const auto forget_runs = [&](const std::vector<core::RunRecord>& runs) {
    for (const auto& run : runs) {
      m_streamed_series.erase(run.number);
      m_series.erase(run.number);
      m_unthrottled_series.erase(run.number);
      m_throttled.erase(run.number);
    }
  };
  if (const auto streamed = m_streamed.find(attempt); streamed != m_streamed.end()) {
    forget_runs(streamed->second->runs);
    if (m_prefetch) {
      m_prefetch->dispose(std::move(streamed->second));
    }
    m_streamed.erase(streamed);
  }
  if (const auto found = m_runs_by_attempt.find(attempt); found != m_runs_by_attempt.end()) {
    forget_runs(found->second);
    m_runs_by_attempt.erase(found);
  }
}

const std::vector<core::RunRecord>& Reader::runs_of_attempt(int attempt)
{
  if (const auto streamed = m_streamed.find(attempt); streamed != m_streamed.end()) {
    return streamed->second->runs;
  }
  const auto found = m_runs_by_attempt.find(attempt);
  if (found != m_runs_by_attempt.end()) {
    return found->second;
  }
  if (read_streamed(attempt)) {
    return m_streamed[attempt]->runs;
  }
  store::RunFilter filter;
  filter.attempt = attempt;
  return m_runs_by_attempt[attempt] = store::list_runs(m_journal.db(), filter);
}

const std::vector<SeriesSummary>& Reader::series_of_run(int run)
{
  if (const auto streamed = m_streamed_series.find(run); streamed != m_streamed_series.end()) {
    return *streamed->second;
  }
  const auto found = m_series.find(run);
  if (found != m_series.end()) {
    return found->second;
  }
  return m_series[run] = run_series(store::run_samples(m_journal.db(), run));
}

std::vector<SeriesSummary> Reader::selected(const std::vector<SeriesSummary>& series,
                                            const core::ParamValues& selector)
{
  if (selector.empty()) {
    return series;
  }
  std::vector<SeriesSummary> out;
  for (const auto& s : series) {
    if (matches_selector(s.params, selector)) {
      out.push_back(s);
    }
  }
  return out;
}

RunSet Reader::run_set(const core::RunRecord& run, const core::ParamValues& selector)
{
  RunSet set;
  set.label = fmt::format("run {}{}", core::number_label(run.number), selector_suffix(selector));
  set.bench = run.bench;
  set.revision = run.revision;
  set.runs.reserve(1);
  set.runs.push_back(run); // `= {run}` copied the large record twice, through an initializer list
  set.selector = selector;
  set.series = selected(judged_series(run, set), selector);
  if (run.withdrawn()) {
    set.warnings.push_back(withdrawn_text(run) + "; it is not judged against a baseline");
  } else if (!usable(run)) {
    set.warnings.push_back(
        fmt::format("run {} is {}{}; its samples may be incomplete", core::number_label(run.number),
                    core::to_string(run.status),
                    run.reason.empty() ? "" : " (" + util::first_line(run.reason, 80) + ")"));
  }
  if (run.status == core::RunStatus::Imported) {
    set.warnings.push_back(fmt::format("run {} was imported ({}), not measured by ej",
                                       core::number_label(run.number), run.source));
  }
  return set;
}

std::optional<RunSet> Reader::run_set(int number, const core::ParamValues& selector)
{
  const auto run = store::find_run(m_journal.db(), number);
  if (!run) {
    return std::nullopt;
  }
  return run_set(*run, selector);
}

const measure::ThrottleReport& Reader::throttled(const core::RunRecord& run)
{
  const auto found = m_throttled.find(run.number);
  if (found != m_throttled.end()) {
    return found->second;
  }
  std::vector<measure::MeasuredRepeat> measured;
  const auto add = [&](const std::vector<core::RepeatRecord>& repeats) {
    for (const auto& repeat : repeats) {
      measured.push_back({repeat.index, repeat.params, repeat.device});
    }
  };
  const auto streamed = run.attempt ? m_streamed.find(*run.attempt) : m_streamed.end();
  if (streamed != m_streamed.end() && m_streamed_series.contains(run.number)) {
    // Read with the plan: only the repeats that read a GPU were (none: the run has none).
    const auto& by_run = streamed->second->device_repeats;
    if (const auto repeats = by_run.find(run.number); repeats != by_run.end()) {
      add(repeats->second);
    }
  } else {
    add(store::device_repeats(m_journal.db(), run.number));
  }
  auto report = measured.empty()
                    ? measure::ThrottleReport{}
                    : measure::find_throttled(measured, rules(run.bench, run.revision).clock_drop_pct);
  return m_throttled.emplace(run.number, std::move(report)).first->second;
}

const std::vector<SeriesSummary>& Reader::judged_series(const core::RunRecord& run, RunSet& set)
{
  const auto& report = throttled(run);
  set.device_repeats += report.repeats_with_state;
  set.throttled += static_cast<int>(report.throttled.size());
  if (report.throttled.empty()) {
    return series_of_run(run.number);
  }
  const bool by_benchmark = rules(run.bench, run.revision).exclude_throttled;
  const bool exclude = m_exclude_throttled || by_benchmark;
  set.warnings.push_back(fmt::format("run {}: {}; {}", core::number_label(run.number), report.summary(),
                                     !exclude ? "'ej compare --exclude-throttled' judges without them"
                                     : by_benchmark
                                         ? "judged without them (the benchmark's --exclude-throttled)"
                                         : "judged without them (--exclude-throttled)"));
  if (!exclude) {
    return series_of_run(run.number);
  }
  set.throttled_excluded = true;
  auto found = m_unthrottled_series.find(run.number);
  if (found == m_unthrottled_series.end()) {
    const auto left_out = report.indexes();
    auto samples = store::run_samples(m_journal.db(), run.number);
    std::erase_if(samples, [&](const core::SampleRecord& s) { return left_out.contains(s.repeat); });
    found = m_unthrottled_series.emplace(run.number, run_series(samples)).first;
  }
  return found->second;
}

const RunSet* Reader::baseline_set(int run)
{
  auto found = m_baseline_sets.find(run);
  if (found == m_baseline_sets.end()) {
    found = m_baseline_sets.emplace(run, run_set(run)).first;
  }
  return found->second ? &*found->second : nullptr;
}

std::optional<RunSet> Reader::attempt_set(int attempt, const std::string& bench,
                                          const core::ParamValues& selector)
{
  const auto& newest_first = runs_of_attempt(attempt);
  RunSet set;
  set.runs.reserve(newest_first.size()); // a run record is large: never copied twice
  for (const auto& run : newest_first) {
    if (!usable(run) || (!bench.empty() && run.bench != bench)) {
      continue;
    }
    if (set.runs.empty()) {
      set.bench = run.bench;
      set.revision = run.revision;
    }
    if (run.bench == set.bench && measures_alike(set.bench, run.revision, set.revision)) {
      set.runs.push_back(run);
    }
  }
  if (set.runs.empty()) {
    return std::nullopt;
  }
  std::reverse(set.runs.begin(), set.runs.end()); // oldest first
  // The runs' series one after the other: as if their samples were grouped together.
  SeriesBuilder builder;
  for (const auto& run : set.runs) {
    for (const auto& series : judged_series(run, set)) {
      if (matches_selector(series.params, selector)) {
        builder.add_series(series);
      }
    }
  }
  set.series = builder.take();
  set.selector = selector;
  for (const auto& run : set.runs) {
    if (run.status == core::RunStatus::Imported) {
      set.warnings.push_back(fmt::format("run {} was imported ({}), not measured by ej",
                                         core::number_label(run.number), run.source));
    }
  }
  set.label =
      fmt::format("attempt {} ({} {}){}", core::number_label(attempt), set.runs.size() == 1 ? "run" : "runs",
                  run_numbers(set.runs), selector_suffix(selector));
  return set;
}

const MetricRules& Reader::rules(const std::string& bench, int revision)
{
  const auto key = std::make_pair(bench, revision);
  auto found = m_rules.find(key);
  if (found == m_rules.end()) {
    MetricRules rules;
    rules.directions["wall_s"] = measure::Direction::LowerIsBetter;
    if (const auto row = store::find_bench_revision(m_journal.db(), bench, revision)) {
      rules = rules_of(core::readable_bench_definition(row->definition));
    }
    found = m_rules.emplace(key, std::move(rules)).first;
  }
  return found->second;
}

bool Reader::measures_alike(const std::string& bench, int a, int b)
{
  if (a == b) {
    return true;
  }
  const auto key = std::make_tuple(bench, std::min(a, b), std::max(a, b));
  auto found = m_alike.find(key);
  if (found == m_alike.end()) {
    const auto first = store::find_bench_revision(m_journal.db(), bench, a);
    const auto second = store::find_bench_revision(m_journal.db(), bench, b);
    found = m_alike
                .emplace(key, first && second && core::stored_measure_alike(first->definition, second->definition))
                .first;
  }
  return found->second;
}

const std::vector<core::BaselineRecord>& Reader::baselines(const std::string& plan)
{
  auto found = m_baselines.find(plan);
  if (found == m_baselines.end()) {
    found = m_baselines.emplace(plan, store::baseline_history(m_journal.db(), plan)).first;
  }
  return found->second;
}

std::optional<std::string> Reader::plan_of_attempt(int attempt)
{
  auto found = m_attempt_plans.find(attempt);
  if (found == m_attempt_plans.end()) {
    const auto record = store::find_attempt(m_journal.db(), attempt);
    found = m_attempt_plans.emplace(attempt, record ? std::optional(record->plan) : std::nullopt).first;
  }
  return found->second;
}

void Reader::know_attempt(const core::Attempt& attempt)
{
  m_attempt_plans.emplace(attempt.number, attempt.plan);
}

bool Reader::has_verdict_cache()
{
  if (!m_has_verdict_cache) {
    m_has_verdict_cache = store::has_verdict_cache(m_journal.db());
  }
  return *m_has_verdict_cache;
}

const core::Plan* Reader::plan(const std::string& slug)
{
  auto found = m_plans.find(slug);
  if (found == m_plans.end()) {
    found = m_plans.emplace(slug, store::find_plan(m_journal.db(), slug)).first;
  }
  return found->second ? &*found->second : nullptr;
}

const PlanMeasures& Reader::measures(const std::string& slug)
{
  auto found = m_measures.find(slug);
  if (found == m_measures.end()) {
    const auto* record = plan(slug);
    found =
        m_measures.emplace(slug, record ? resolve_measures(m_journal.db(), *record) : PlanMeasures{}).first;
  }
  return found->second;
}

const nlohmann::json* Reader::environment(const std::string& blob)
{
  if (blob.empty()) {
    return nullptr;
  }
  auto found = m_environments.find(blob);
  if (found == m_environments.end()) {
    std::optional<nlohmann::json> parsed;
    if (const auto text = m_journal.blob(blob)) {
      parsed = nlohmann::json::parse(*text);
    }
    found = m_environments.emplace(blob, std::move(parsed)).first;
  }
  return found->second ? &*found->second : nullptr;
}

Quantity Reader::quantity(const std::string& metric, const std::string& unit)
{
  auto& by_unit = m_quantities[metric];
  auto found = by_unit.find(unit);
  if (found == by_unit.end()) {
    found = by_unit.emplace(unit, quantity_of(metric, unit)).first;
  }
  return found->second;
}

std::optional<int> Reader::compared_with(int run)
{
  if (!m_compared) {
    m_compared = store::compared_candidates(m_journal.db());
  }
  const auto found = m_compared->find(run);
  return found == m_compared->end() ? std::nullopt : std::optional<int>(found->second);
}

const Calibration* Reader::calibration(const std::string& bench, const std::string& env_blob, int revision)
{
  auto found = m_calibrations.find(bench);
  if (found == m_calibrations.end()) {
    std::vector<Calibration> read;
    for (const auto& record : store::calibrations_of(m_journal.db(), bench)) {
      if (auto calibration = read_calibration(m_journal.db(), record)) {
        read.push_back(std::move(*calibration));
      }
    }
    found = m_calibrations.emplace(bench, std::move(read)).first;
  }
  for (const auto& calibration : found->second) {
    if (calibration.env_blob == env_blob && measures_alike(bench, calibration.revision, revision)) {
      return &calibration;
    }
  }
  return nullptr;
}

std::optional<int> Reader::newest_free_run(const std::string& bench)
{
  const auto found = m_free_runs.find(bench);
  if (found != m_free_runs.end()) {
    return found->second;
  }
  store::RunFilter filter;
  filter.bench = bench;
  std::optional<int> free;
  for (const auto& run : store::list_runs(m_journal.db(), filter)) {
    if (!run.attempt && usable(run)) {
      free = run.number;
      break;
    }
  }
  m_free_runs.emplace(bench, free);
  return free;
}

} // namespace ej::evidence
