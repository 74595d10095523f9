#include "evidence/run_exports.h"

#include "core/bench_definition.h"
#include "evidence/reader.h"
#include "evidence/series.h"
#include "measure/statistics.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/shell_quote.h"

#include <algorithm>

namespace ej::evidence {

namespace {

render::SeriesFigures figures(const SeriesSummary& series)
{
  const auto s = measure::summarize(series.values);
  return {series.metric,
          series.params,
          series.key,
          series.unit,
          s.n,
          s.mean,
          s.n > 1 ? std::optional(s.stddev) : std::nullopt,
          s.median,
          s.min,
          s.max,
          series.values};
}

// The benchmark's command line with one combination's values, as hyperfine names a result.
std::string command_of(const core::BenchDefinition& definition, const core::ParamValues& values)
{
  if (!definition.shell.empty()) {
    return core::substitute(definition.shell, values);
  }
  std::vector<std::string> argv;
  for (const auto& arg : definition.argv) {
    argv.push_back(core::substitute(arg, values));
  }
  return util::shell_join(argv);
}

double mean_of(const std::vector<double>& values)
{
  double sum = 0;
  for (const double v : values) {
    sum += v;
  }
  return values.empty() ? 0 : sum / static_cast<double>(values.size());
}

// The measured repeats of one combination.
struct Combination {
  std::string params_json;
  std::vector<double> times, user, system;
  std::vector<int> exit_codes;
};

} // namespace

std::vector<render::RunFigures> run_figures(Reader& reader, const std::vector<core::RunRecord>& runs)
{
  std::vector<render::RunFigures> out;
  for (const auto& run : runs) {
    render::RunFigures figured{run, {}};
    for (const auto& s : reader.series_of_run(run.number)) {
      if (!s.values.empty()) {
        figured.series.push_back(figures(s));
      }
    }
    out.push_back(std::move(figured));
  }
  return out;
}

std::vector<render::HyperfineResult> hyperfine_results(Reader& reader, const core::RunRecord& run)
{
  auto& db = reader.journal().db();
  const auto bench = store::find_bench_revision(db, run.bench, run.revision);
  const auto definition =
      bench ? core::readable_bench_definition(bench->definition) : core::BenchDefinition{};
  std::vector<Combination> combinations;
  for (const auto& repeat : store::run_repeats(db, run.number)) {
    if (repeat.warmup) {
      continue;
    }
    auto found = std::find_if(combinations.begin(), combinations.end(),
                              [&](const Combination& c) { return c.params_json == repeat.params; });
    if (found == combinations.end()) {
      combinations.push_back({repeat.params, {}, {}, {}, {}});
      found = combinations.end() - 1;
    }
    found->times.push_back(repeat.wall_s);
    found->user.push_back(repeat.user_s);
    found->system.push_back(repeat.sys_s);
    found->exit_codes.push_back(repeat.ending == core::RepeatEnding::Exited ? repeat.exit_code
                                                                            : 128 + repeat.signal);
  }
  if (combinations.empty()) {
    throw Error("run {} has no measured repeats to export{}", run.number,
                run.status == core::RunStatus::Imported ? " (an imported run holds figures, not repeats)"
                                                        : "");
  }
  const auto& series = reader.series_of_run(run.number);
  std::vector<render::HyperfineResult> results;
  for (const auto& c : combinations) {
    render::HyperfineResult result;
    result.parameters = nlohmann::json::parse(c.params_json).get<core::ParamValues>();
    result.command = command_of(definition, result.parameters);
    result.wall = figures({"wall_s", "", "", "s", c.times});
    result.user = mean_of(c.user);
    result.system = mean_of(c.system);
    result.exit_codes = c.exit_codes;
    const auto label = core::describe(result.parameters);
    for (const auto& s : series) {
      if (s.params == label && s.metric != "wall_s" && !s.values.empty()) {
        result.metrics.push_back(figures(s));
      }
    }
    results.push_back(std::move(result));
  }
  return results;
}

} // namespace ej::evidence
