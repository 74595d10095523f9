#pragma once

#include "core/bench_definition.h"
#include "core/run_records.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

// Runs in the formats other tools read: `ej runs --format csv` and `ej show run N --export-json`
// in hyperfine's JSON layout (docs/json.md). Plain figures in, text out: the figures are gathered
// and summarized above (evidence/run_exports.h).
namespace ej::render {

// One series of a run (a metric, for one combination and key) and the summary of its values.
struct SeriesFigures {
  std::string metric;
  std::string params; // "variant=fused" or ""
  std::string key;
  std::string unit;
  std::size_t n = 0;
  double mean = 0;
  std::optional<double> stddev; // empty for a single value
  double median = 0;
  double min = 0;
  double max = 0;
  std::vector<double> values;
};

struct RunFigures {
  core::RunRecord run;
  std::vector<SeriesFigures> series; // those with values, in the run's order
};

// One row per run and series with its summary; a run without series gets one row with the series
// columns empty.
std::string runs_csv(const std::vector<RunFigures>& runs);

// The measured repeats of one combination of a run, as hyperfine reports a command.
struct HyperfineResult {
  std::string command; // the benchmark's command with the combination's values substituted
  core::ParamValues parameters;
  SeriesFigures wall; // wall times in seconds, summarized
  double user = 0;    // mean user and system time, s
  double system = 0;
  std::vector<int> exit_codes;
  std::vector<SeriesFigures> metrics; // ej's other metrics of this combination
};

// {"results": [...]} as `hyperfine --export-json` writes it, one result per combination, with
// ej's other metrics under "metrics" and the run under "ej"; `schema` is ej's JSON schema number.
nlohmann::json hyperfine_json(const core::RunRecord& run, const std::vector<HyperfineResult>& results,
                              int schema);

} // namespace ej::render
