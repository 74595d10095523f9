#include "render/run_exports.h"

#include "util/csv.h"
#include "util/time.h"

#include <fmt/format.h>

namespace ej::render {

namespace {

std::string number_text(double value)
{
  return fmt::format("{}", value); // the shortest text that reads back to the same double
}

nlohmann::json stats_json(const SeriesFigures& s)
{
  return {{"mean", s.mean},
          {"stddev", s.stddev ? nlohmann::json(*s.stddev) : nlohmann::json()},
          {"median", s.median},
          {"min", s.min},
          {"max", s.max}};
}

} // namespace

std::string runs_csv(const std::vector<RunFigures>& runs)
{
  std::string out = util::csv_line({"run",   "bench", "revision", "status", "attempt", "label",  "started",
                                    "ended", "host",  "commit",   "dirty",  "metric",  "params", "key",
                                    "unit",  "n",     "mean",     "stddev", "median",  "min",    "max"});
  for (const auto& [run, series] : runs) {
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
    for (const auto& s : series) {
      auto row = head;
      row.insert(row.end(), {s.metric, s.params, s.key, s.unit, std::to_string(s.n), number_text(s.mean),
                             s.stddev ? number_text(*s.stddev) : "", number_text(s.median),
                             number_text(s.min), number_text(s.max)});
      out += util::csv_line(row);
    }
    if (series.empty()) {
      auto row = head;
      row.resize(row.size() + 10);
      out += util::csv_line(row);
    }
  }
  return out;
}

nlohmann::json hyperfine_json(const core::RunRecord& run, const std::vector<HyperfineResult>& results,
                              int schema)
{
  auto out = nlohmann::json::array();
  for (const auto& r : results) {
    auto result = stats_json(r.wall);
    result["command"] = r.command;
    result["user"] = r.user;
    result["system"] = r.system;
    result["times"] = r.wall.values;
    result["exit_codes"] = r.exit_codes;
    result["parameters"] = r.parameters;
    auto metrics = nlohmann::json::array();
    for (const auto& s : r.metrics) {
      auto metric = stats_json(s);
      metric["metric"] = s.metric;
      metric["key"] = s.key;
      metric["unit"] = s.unit;
      metric["values"] = s.values;
      metrics.push_back(std::move(metric));
    }
    result["metrics"] = std::move(metrics);
    out.push_back(std::move(result));
  }
  return {{"schema", schema},
          {"results", std::move(out)},
          {"ej",
           {{"run", run.number},
            {"bench", run.bench},
            {"revision", run.revision},
            {"status", core::to_string(run.status)}}}};
}

} // namespace ej::render
