#include "evidence/history.h"

#include "evidence/run_set.h"
#include "measure/statistics.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace ej::evidence {

namespace {

// A run's series of the metric at a commit of the line: what a point pools.
struct Measured {
  std::size_t position = 0; // in the line
  const HistoryRun* run = nullptr;
  const SeriesSummary* series = nullptr;
};

// Everything measured for one series (combination and key) of the metric, as the runs come.
struct SeriesRuns {
  std::string params;
  std::string key;
  std::string unit;
  std::vector<Measured> measured; // in the order of the runs
  std::vector<RunApart> apart;
};

// Commits by id, the ids those of the line (kept alive by the caller).
using Positions = std::unordered_map<std::string_view, std::size_t>;

// The median, leaving `values` sorted for the interval around it.
double sort_for_median(std::vector<double>& values)
{
  std::sort(values.begin(), values.end());
  return measure::quantile_sorted(values, 0.5);
}

// The newest acknowledgement of the benchmark and metric whose commit lies in (good, bad].
std::optional<core::Acknowledgement> acknowledgement_in(const std::vector<core::Acknowledgement>& acks,
                                                        const Positions& position, const std::string& metric,
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
                                            const Positions& position, const std::string& metric,
                                            std::size_t good, std::size_t bad)
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
                    const measure::ChangePoint& point, const HistoryInput& input, const Positions& position)
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

// The points of a series, in line order: the runs at each commit pooled. `scratch` holds a point's
// values while they are sorted, one vector for every point.
std::vector<HistoryPoint> points_of(SeriesRuns& series, std::span<const LineCommit> line,
                                    std::vector<double>& scratch)
{
  const auto by_position = [](const Measured& a, const Measured& b) { return a.position < b.position; };
  if (!std::is_sorted(series.measured.begin(), series.measured.end(), by_position)) { // most often they are
    std::stable_sort(series.measured.begin(), series.measured.end(), by_position);
  }
  std::vector<HistoryPoint> points;
  points.reserve(series.measured.size());
  for (auto first = series.measured.begin(); first != series.measured.end();) {
    const auto last = std::find_if(first, series.measured.end(),
                                   [&](const Measured& m) { return m.position != first->position; });
    HistoryPoint point;
    point.position = first->position;
    point.commit = line[first->position].id;
    point.subject = line[first->position].subject;
    scratch.clear();
    int newest = 0;
    for (auto m = first; m != last; ++m) {
      const auto& run = m->run->run;
      if (point.runs.empty() || run.number > newest) {
        newest = run.number;
        point.environment = run.env_blob;
      }
      point.runs.push_back(run.number);
      scratch.insert(scratch.end(), m->series->values.begin(), m->series->values.end());
    }
    std::sort(point.runs.begin(), point.runs.end());
    point.n = scratch.size();
    point.median = sort_for_median(scratch); // sorts them
    point.interval = measure::median_interval(scratch);
    points.push_back(std::move(point));
    first = last;
  }
  return points;
}

} // namespace

std::vector<History> build_histories(const HistoryInput& input, const HistoryOptions& options)
{
  const std::string metric = options.metric.empty() ? input.rules.primary : options.metric;
  Positions position;
  position.reserve(input.line.size());
  for (std::size_t i = 0; i < input.line.size(); ++i) {
    position.emplace(input.line[i].id, i);
  }
  std::vector<SeriesRuns> found;
  for (const auto& history_run : input.runs) {
    const auto& run = history_run.run;
    if (!usable(run) || (run.revision != input.revision &&
                         !std::binary_search(input.alike_revisions.begin(), input.alike_revisions.end(),
                                             run.revision))) {
      continue;
    }
    for (const auto& s : history_run.series) {
      if (s.metric != metric || s.values.empty() || !matches_selector(s.params, options.selector)) {
        continue;
      }
      auto it = std::find_if(found.begin(), found.end(),
                             [&](const SeriesRuns& f) { return f.params == s.params && f.key == s.key; });
      if (it == found.end()) {
        found.push_back({s.params, s.key, s.unit, {}, {}});
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
      it->measured.push_back({at->second, &history_run, &s});
    }
  }

  std::vector<History> out;
  std::vector<double> scratch;
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
    history.points = points_of(series, input.line, scratch);
    std::vector<double> medians;
    medians.reserve(history.points.size());
    for (const auto& point : history.points) {
      medians.push_back(point.median);
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
