#include "evidence/history_reading.h"

#include "evidence/run_set.h"
#include "git/history.h"
#include "store/run_queries.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace ej::evidence {

std::vector<LineCommit> read_line(const std::filesystem::path& repo_dir, const std::string& revision)
{
  std::vector<LineCommit> line;
  for (auto& commit : git::first_parent_history(repo_dir, revision.empty() ? "HEAD" : revision)) {
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
  std::set<int> revisions;
  std::vector<core::RunRecord> runs;
  for (auto& run : store::bench_run_heads(db, bench)) { // newest first
    if (!usable(run)) {
      continue;
    }
    if (revision == 0) {
      revision = run.revision;
    }
    if (run.revision == revision) {
      runs.push_back(std::move(run));
    } else {
      revisions.insert(run.revision);
    }
  }
  if (runs.empty()) {
    return std::nullopt;
  }
  input.revision = revision;
  input.other_revisions.assign(revisions.begin(), revisions.end());
  input.rules = reader.rules(bench, revision);
  input.line = line;
  input.acknowledgements = store::acknowledgements(db, bench);
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
  std::reverse(runs.begin(), runs.end()); // oldest first
  input.runs.reserve(runs.size());
  for (auto& run : runs) {
    auto found = series.find(run.number);
    input.runs.push_back(
        {std::move(run), found != series.end() ? std::move(found->second) : std::vector<SeriesSummary>{}});
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
