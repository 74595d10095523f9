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
  for (auto& commit : git::first_parent_history(workspace.work_tree, revision.empty() ? "HEAD" : revision,
                                                workspace.ej_dir / "first-parents.cache")) {
    line.push_back({std::move(commit.id), std::move(commit.subject)});
  }
  return line;
}

std::optional<HistoryInput> read_history_input(Reader& reader, const std::string& bench, int revision,
                                               const std::string& metric, std::span<const LineCommit> line)
{
  auto& db = reader.journal().db();
  HistoryInput input;
  input.bench = bench;
  auto heads = store::bench_run_heads(db, bench); // newest first
  std::set<int> revisions;
  for (const auto& run : heads) {
    if (usable(run)) {
      if (revision == 0) {
        revision = run.revision;
      }
      if (run.revision != revision) {
        revisions.insert(run.revision);
      }
    }
  }
  if (revision == 0 || std::none_of(heads.begin(), heads.end(), [&](const core::RunRecord& run) {
        return usable(run) && run.revision == revision;
      })) {
    return std::nullopt;
  }
  input.revision = revision;
  input.other_revisions.assign(revisions.begin(), revisions.end());
  input.rules = reader.rules(bench, revision);
  input.line = line;
  input.acknowledgements = store::acknowledgements(db, bench);
  input.located = store::located_steps(db, bench);
  const std::string wanted = metric.empty() ? input.rules.primary : metric;

  std::map<int, std::vector<SeriesSummary>> series; // by run
  SeriesBuilder builder;
  int current = 0;
  store::visit_bench_samples(db, bench, revision, wanted, [&](const store::SampleView& sample) {
    if (sample.run != current) {
      if (current != 0) {
        series[current] = builder.take();
      }
      current = sample.run;
    }
    builder.add(sample.params, sample.metric, sample.key, sample.value, sample.unit, sample.kind);
  });
  if (current != 0) {
    series[current] = builder.take();
  }
  // Oldest first, each run moved once: a RunRecord is large, and a history reads 10,000 of them.
  input.runs.reserve(heads.size());
  for (auto run = heads.rbegin(); run != heads.rend(); ++run) {
    if (!usable(*run) || run->revision != revision) {
      continue;
    }
    auto found = series.find(run->number);
    input.runs.push_back(
        {std::move(*run), found != series.end() ? std::move(found->second) : std::vector<SeriesSummary>{}});
  }
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
