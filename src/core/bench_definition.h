#pragma once

#include "core/metric_spec.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ej::core {

struct ParamAxis {
  std::string name;
  std::vector<std::string> values;
};

// How many times a benchmark runs: a fixed count, or adaptive (stop once the primary metric's
// relative noise is under max_noise_pct, between min and max repeats, never over the budget).
struct RepeatPolicy {
  int warmup = 0;
  int repeat = 10; // fixed count when not adaptive
  bool adaptive = false;
  int min_repeats = 5;
  int max_repeats = 30;
  double max_noise_pct = 0; // 0: no noise target
  double budget_s = 0;      // 0: no budget
};

// A registered benchmark revision: what `ej run` executes and how it reads the results.
struct BenchDefinition {
  std::vector<std::string> argv; // run without a shell...
  std::string shell;             // ...or this string with /bin/sh -c
  std::string cwd;               // relative to the work tree root; empty: the root
  std::vector<std::pair<std::string, std::string>> env;
  std::vector<ParamAxis> params;
  RepeatPolicy policy;
  double timeout_s = 0;            // per repeat; 0: none
  std::vector<MetricSpec> metrics; // read once from the stored specs (core/metric_spec.h)
  // The first stored metric spec that could not be read, said as metric_spec_from_json says it;
  // empty when all were. The definition is still listed and shown; measure::metric_specs refuses
  // it, so that nothing is run or judged without that metric.
  std::string metrics_damage;
  std::string primary;       // the metric verdicts are about
  double min_effect_pct = 0; // smallest change that matters
  std::string build;         // shell command run in the work tree before the repeats, untimed
  std::string host;          // default `--on` (a host added with `ej host add`); empty: here
  // GPU runs: a repeat is throttled when its SM clock is this far below its combination's median
  // (or a slowdown reason was active); exclude_throttled makes comparisons judge without them.
  double clock_drop_pct = 10;
  bool exclude_throttled = false;
  bool ci = false; // `ej ci` measures it (ej bench add --ci)
};

nlohmann::json to_json(const BenchDefinition& definition);
// Throws ej::Error naming what is damaged (a number stored as null, a field of the wrong type).
BenchDefinition bench_definition_from_json(const nlohmann::json& json);
// Tolerant: damaged fields take their defaults and are described in `problems`, so that a bad
// stored revision can still be listed, shown and repaired by `ej bench edit`.
BenchDefinition bench_definition_from_json(const nlohmann::json& json, std::vector<std::string>& problems);
// Tolerant, for readers of metrics and verdict settings: damage is reported where the benchmark is
// listed, shown or run, not by every reader of results.
BenchDefinition readable_bench_definition(const nlohmann::json& json);

// One combination of axis values, e.g. {variant: fused, hidden: 4096}.
using ParamValues = std::map<std::string, std::string>;

// Every combination of the axes (first axis slowest), with some axes restricted to chosen values.
std::vector<ParamValues> param_combinations(const std::vector<ParamAxis>& axes,
                                            const std::map<std::string, std::vector<std::string>>& chosen);
// Replaces {AXIS} by the axis value; unknown placeholders are left as they are.
std::string substitute(std::string_view text, const ParamValues& values);
// "variant=fused,hidden=4096", or "" when there are no axes.
std::string describe(const ParamValues& values);

} // namespace ej::core
