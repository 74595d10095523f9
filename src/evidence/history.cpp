#include "evidence/history.h"

#include "evidence/run_set.h"
#include "measure/statistics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>
#include <utility>

namespace ej::evidence {

namespace {

// Everything measured for one series (combination and key) of the metric, as the runs come.
struct SeriesRuns {
  std::string params;
  std::string key;
  std::string unit;
  std::map<std::size_t, HistoryPoint> points; // by position in the line
  std::map<std::size_t, std::vector<double>> values;
  std::vector<RunApart> apart;
};

// The median, leaving `values` sorted for the interval around it.
double sort_for_median(std::vector<double>& values)
{
  std::sort(values.begin(), values.end());
  return measure::quantile_sorted(values, 0.5);
}

// The newest acknowledgement of the benchmark and metric whose commit lies in (good, bad].
std::optional<core::Acknowledgement>
acknowledgement_in(const std::vector<core::Acknowledgement>& acks,
                   const std::unordered_map<std::string, std::size_t>& position, const std::string& metric,
                   std::size_t good, std::size_t bad)
{
  std::optional<core::Acknowledgement> found;
  for (const auto& ack : acks) { // oldest first: the last match is the newest
    const auto at = position.find(ack.commit);
    if ((ack.metric.empty() || ack.metric == metric) && at != position.end() && at->second > good &&
        at->second <= bad) {
      found = ack;
    }
  }
  return found;
}

// The newest ej bisect answer of the metric whose commit lies in (good, bad].
std::optional<core::LocatedStep> located_in(const std::vector<core::LocatedStep>& located,
                                            const std::unordered_map<std::string, std::size_t>& position,
                                            const std::string& metric, std::size_t good, std::size_t bad)
{
  std::optional<core::LocatedStep> found;
  for (const auto& answer : located) { // oldest first: the last match is the newest
    const auto at = position.find(located_commit(answer));
    if (answer.metric == metric && at != position.end() && at->second > good && at->second <= bad) {
      found = answer;
    }
  }
  return found;
}

HistoryStep step_at(const History& history, const std::vector<double>& medians,
                    const measure::ChangePoint& point, const HistoryInput& input,
                    const std::unordered_map<std::string, std::size_t>& position)
{
  HistoryStep step;
  step.point = point.index;
  const auto& before = history.points[point.index - 1];
  const auto& after = history.points[point.index];
  step.good = before.commit;
  step.bad = after.commit;
  step.commits = after.position - before.position;
  const std::vector<double> old_level(medians.begin() + static_cast<std::ptrdiff_t>(point.before),
                                      medians.begin() + static_cast<std::ptrdiff_t>(point.index));
  const std::vector<double> new_level(medians.begin() + static_cast<std::ptrdiff_t>(point.index),
                                      medians.begin() + static_cast<std::ptrdiff_t>(point.after));
  measure::CompareOptions compare;
  compare.direction = history.direction;
  compare.min_effect_pct = history.min_effect_pct;
  step.change = measure::compare(old_level, new_level, compare);
  step.z = point.z;
  step.p_value = point.p_value;
  const bool higher = point.z > 0;
  step.worse = higher == (history.direction == measure::Direction::LowerIsBetter);
  const auto& c = step.change;
  double moved_pct = 0;
  if (c.change_pct) {
    moved_pct = std::abs(*c.change_pct);
  } else if (c.reference_median != 0) {
    moved_pct = std::abs((c.candidate_median - c.reference_median) / c.reference_median) * 100;
  }
  step.regression = step.worse && moved_pct >= history.min_effect_pct;
  step.acknowledged =
      acknowledgement_in(input.acknowledgements, position, history.metric, before.position, after.position);
  step.located = located_in(input.located, position, history.metric, before.position, after.position);
  return step;
}

} // namespace

std::vector<History> build_histories(const HistoryInput& input, const HistoryOptions& options)
{
  const std::string metric = options.metric.empty() ? input.rules.primary : options.metric;
  std::unordered_map<std::string, std::size_t> position;
  for (std::size_t i = 0; i < input.line.size(); ++i) {
    position.emplace(input.line[i].id, i);
  }
  std::vector<SeriesRuns> found;
  for (const auto& [run, series] : input.runs) {
    if (!usable(run) || run.revision != input.revision) {
      continue;
    }
    for (const auto& s : series) {
      if (s.metric != metric || s.values.empty() || !matches_selector(s.params, options.selector)) {
        continue;
      }
      auto it = std::find_if(found.begin(), found.end(),
                             [&](const SeriesRuns& f) { return f.params == s.params && f.key == s.key; });
      if (it == found.end()) {
        found.push_back({s.params, s.key, s.unit, {}, {}, {}});
        it = std::prev(found.end());
      }
      const auto at = position.find(run.git.commit);
      if (run.git.commit.empty() || run.git.dirty || at == position.end()) {
        auto values = s.values;
        const auto why = run.git.commit.empty() ? RunApart::Why::NoCommit
                         : run.git.dirty        ? RunApart::Why::Dirty
                                                : RunApart::Why::OtherCommit;
        it->apart.push_back({run.number, run.git, why, values.size(), sort_for_median(values)});
        continue;
      }
      auto& point = it->points[at->second];
      point.position = at->second;
      point.commit = input.line[at->second].id;
      point.subject = input.line[at->second].subject;
      if (std::all_of(point.runs.begin(), point.runs.end(),
                      [&number = run.number](int other) { return other < number; })) {
        point.environment = run.env_blob; // the newest run's
      }
      point.runs.push_back(run.number);
      auto& values = it->values[at->second];
      values.insert(values.end(), s.values.begin(), s.values.end());
    }
  }

  std::vector<History> out;
  for (auto& series : found) {
    History history;
    history.bench = input.bench;
    history.revision = input.revision;
    history.metric = metric;
    history.params = series.params;
    history.key = series.key;
    history.unit = series.unit;
    history.direction = input.rules.direction_of(metric, series.unit);
    history.min_effect_pct = input.rules.min_effect_pct;
    std::vector<double> medians;
    for (auto& [at, point] : series.points) {
      auto& values = series.values[at];
      point.n = values.size();
      point.median = sort_for_median(values); // sorts them
      point.interval = measure::median_interval(values);
      std::sort(point.runs.begin(), point.runs.end());
      medians.push_back(point.median);
      history.points.push_back(std::move(point));
    }
    for (const auto& change_point : measure::find_change_points(medians, options.detection)) {
      history.steps.push_back(step_at(history, medians, change_point, input, position));
    }
    std::sort(series.apart.begin(), series.apart.end(),
              [](const RunApart& a, const RunApart& b) { return a.run < b.run; });
    history.apart = std::move(series.apart);
    for (const auto& answer : input.located) {
      if (answer.metric == metric && position.count(located_commit(answer)) != 0) {
        history.located.push_back(answer);
      }
    }
    out.push_back(std::move(history));
  }
  return out;
}

const std::string& located_commit(const core::LocatedStep& located)
{
  static const std::string none;
  return !located.first_bad.empty()    ? located.first_bad
         : !located.candidates.empty() ? located.candidates.back()
                                       : none;
}

std::string describe_step(const HistoryStep& step)
{
  if (!step.worse) {
    return "improvement";
  }
  return step.regression ? "regression" : "worse, within the minimum effect";
}

std::string describe(RunApart::Why why)
{
  switch (why) {
  case RunApart::Why::Dirty:
    return "dirty tree";
  case RunApart::Why::OtherCommit:
    return "not on the line";
  case RunApart::Why::NoCommit:
    return "no commit recorded";
  }
  return "";
}

} // namespace ej::evidence
