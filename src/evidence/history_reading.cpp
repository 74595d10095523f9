#include "evidence/history_reading.h"

#include "evidence/run_set.h"
#include "git/history.h"
#include "store/located_queries.h"
#include "store/run_queries.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace ej::evidence {

std::vector<LineCommit> read_line(const measuring::Workspace& workspace, const std::string& revision)
{
  std::vector<LineCommit> line;
  auto commits = git::first_parent_history(workspace.work_tree, revision.empty() ? "HEAD" : revision,
                                           workspace.ej_dir / "first-parents.cache");
  line.reserve(commits.size());
  for (auto& commit : commits) {
    line.push_back({std::move(commit.id), std::move(commit.subject)});
  }
  return line;
}

std::optional<HistoryInput> read_history_input(Reader& reader, const std::string& bench, int revision,
                                               const std::string& metric, std::span<const LineCommit> line)
{
  auto& db = reader.journal().db();
  auto heads = store::bench_run_heads(db, bench); // oldest first
  if (revision == 0) {                            // the newest usable run's
    const auto newest =
        std::find_if(heads.rbegin(), heads.rend(), [](const auto& run) { return usable(run); });
    revision = newest != heads.rend() ? newest->revision : 0;
  }
  // Runs of a revision that differs only in how runs are judged (a --ci mark, a min effect) are the
  // same series: editing those must not cut a benchmark's history short.
  const auto in_series = [&](const auto& run) {
    return usable(run) && reader.measures_alike(bench, run.revision, revision);
  };
  std::set<int> revisions;
  std::set<int> alike;
  HistoryInput input;
  input.runs.reserve(static_cast<std::size_t>(std::count_if(heads.begin(), heads.end(), in_series)));
  for (auto& run : heads) {
    if (!usable(run)) {
      continue;
    }
    if (in_series(run)) {
      if (run.revision != revision) {
        alike.insert(run.revision);
      }
      input.runs.push_back({std::move(run), {}});
    } else {
      revisions.insert(run.revision);
    }
  }
  input.alike_revisions.assign(alike.begin(), alike.end());
  if (input.runs.empty()) {
    return std::nullopt;
  }
  input.bench = bench;
  input.revision = revision;
  input.other_revisions.assign(revisions.begin(), revisions.end());
  input.rules = reader.rules(bench, revision);
  input.line = line;
  input.acknowledgements = store::acknowledgements(db, bench);
  input.located = store::located_steps(db, bench);
  const std::string wanted = metric.empty() ? input.rules.primary : metric;

  // The samples come run by run in ascending order, as the runs are: each run's series are built
  // as its samples pass.
  std::vector<int> numbers;
  numbers.reserve(input.runs.size());
  for (const auto& run : input.runs) {
    numbers.push_back(run.run.number);
  }
  SeriesBuilder builder;
  auto current = input.runs.begin();
  store::visit_runs_samples(db, numbers, wanted, [&](const store::SampleView& sample) {
    if (current->run.number != sample.run) {
      current->series = builder.take();
      while (current->run.number != sample.run) {
        ++current;
      }
    }
    builder.add(sample.params, sample.metric, sample.key, sample.value, sample.unit, sample.kind);
  });
  current->series = builder.take();
  return input;
}

std::vector<Regression> find_regressions(Reader& reader, const std::vector<std::string>& benches,
                                         std::span<const LineCommit> line, std::optional<std::size_t> since,
                                         const measure::ChangePointOptions& detection)
{
  std::vector<Regression> out;
  HistoryOptions options;
  options.detection = detection;
  for (const auto& bench : benches) {
    const auto input = read_history_input(reader, bench, 0, "", line);
    if (!input) {
      continue;
    }
    for (auto& history : build_histories(*input, options)) {
      for (auto& step : history.steps) {
        const auto& good = history.points[step.point - 1];
        const auto& bad = history.points[step.point];
        if (!step.regression || step.acknowledged || (since && bad.position <= *since)) {
          continue;
        }
        out.push_back({history.bench, history.revision, history.metric, history.params, history.key,
                       history.unit, good.position, bad.position, bad.subject, std::move(step)});
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const Regression& a, const Regression& b) {
    return std::tie(b.bad_position, a.bench, a.params, a.key) <
           std::tie(a.bad_position, b.bench, b.params, b.key);
  });
  return out;
}

} // namespace ej::evidence
