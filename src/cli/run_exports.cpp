#include "cli/run_exports.h"

#include "cli/output.h"
#include "core/bench_definition.h"
#include "evidence/reader.h"
#include "evidence/series.h"
#include "measure/statistics.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "util/csv.h"
#include "util/error.h"
#include "util/shell_quote.h"
#include "util/time.h"

#include <fmt/format.h>

#include <algorithm>

namespace ej::cli {

namespace {

std::string number_text(double value)
{
  return fmt::format("{}", value); // the shortest text that reads back to the same double
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

nlohmann::json stats_json(const std::vector<double>& values)
{
  const auto s = measure::summarize(values);
  return {{"mean", s.mean},
          {"stddev", s.n > 1 ? nlohmann::json(s.stddev) : nlohmann::json()},
          {"median", s.median},
          {"min", s.min},
          {"max", s.max}};
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

std::string runs_csv(evidence::Reader& reader, const std::vector<core::RunRecord>& runs)
{
  std::string out = util::csv_line({"run",   "bench", "revision", "status", "attempt", "label",  "started",
                                    "ended", "host",  "commit",   "dirty",  "metric",  "params", "key",
                                    "unit",  "n",     "mean",     "stddev", "median",  "min",    "max"});
  for (const auto& run : runs) {
    const std::vector<std::string> head = {std::to_string(run.number),
                                           run.bench,
                                           std::to_string(run.revision),
                                           std::string(core::to_string(run.status)),
                                           run.attempt ? std::to_string(*run.attempt) : "",
                                           run.label,
                                           util::format_utc(run.started_ms),
                                           run.ended_ms > 0 ? util::format_utc(run.ended_ms) : "",
                                           run.host,
                                           run.git.commit,
                                           run.git.dirty ? "true" : "false"};
    const auto& series = reader.series_of_run(run.number);
    bool any = false;
    for (const auto& s : series) {
      if (s.values.empty()) {
        continue;
      }
      any = true;
      const auto summary = measure::summarize(s.values);
      auto row = head;
      row.insert(row.end(),
                 {s.metric, s.params, s.key, s.unit, std::to_string(summary.n), number_text(summary.mean),
                  summary.n > 1 ? number_text(summary.stddev) : "", number_text(summary.median),
                  number_text(summary.min), number_text(summary.max)});
      out += util::csv_line(row);
    }
    if (!any) {
      auto row = head;
      row.resize(row.size() + 10);
      out += util::csv_line(row);
    }
  }
  return out;
}

nlohmann::json hyperfine_json(evidence::Reader& reader, const core::RunRecord& run)
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
  auto results = nlohmann::json::array();
  for (const auto& c : combinations) {
    const auto values = nlohmann::json::parse(c.params_json).get<core::ParamValues>();
    auto result = stats_json(c.times);
    result["command"] = command_of(definition, values);
    result["user"] = mean_of(c.user);
    result["system"] = mean_of(c.system);
    result["times"] = c.times;
    result["exit_codes"] = c.exit_codes;
    result["parameters"] = values;
    const auto label = core::describe(values);
    auto metrics = nlohmann::json::array();
    for (const auto& s : series) {
      if (s.params == label && s.metric != "wall_s" && !s.values.empty()) {
        auto metric = stats_json(s.values);
        metric["metric"] = s.metric;
        metric["key"] = s.key;
        metric["unit"] = s.unit;
        metric["values"] = s.values;
        metrics.push_back(std::move(metric));
      }
    }
    result["metrics"] = std::move(metrics);
    results.push_back(std::move(result));
  }
  return {{"schema", k_json_schema},
          {"results", std::move(results)},
          {"ej",
           {{"run", run.number},
            {"bench", run.bench},
            {"revision", run.revision},
            {"status", core::to_string(run.status)}}}};
}

} // namespace ej::cli
