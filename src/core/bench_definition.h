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

// --same-output: what of a run must equal the reference's for a verdict between them to stand
// (docs/benchmarks.md, "Checks"): a digest of stdout or of a file the benchmark writes, or a
// metric's value within a relative tolerance.
struct SameOutput {
  enum class Kind { None, Stdout, File, Metric };
  Kind kind = Kind::None;
  std::string name;         // File: the path, relative to the benchmark's directory; Metric: its name
  double tolerance_pct = 0; // Metric: how far the candidate's median may be from the reference's

  bool operator==(const SameOutput&) const = default;
};

// --same-output's text: "stdout", "@FILE" or a metric's name; a usage error for an empty one.
SameOutput parse_same_output(const std::string& text);
// The text again ("stdout", "@out.bin", "checksum within 0.1%").
std::string describe(const SameOutput& same);

// --floor METRIC=VALUE: a physical bound on a metric (the time to move the bytes at peak bandwidth,
// in the metric's unit); a value beyond it, on the metric's better side, is implausible.
struct MetricFloor {
  std::string metric;
  double value = 0;

  bool operator==(const MetricFloor&) const = default;
};

// --floor's "METRIC=VALUE"; a usage error with an example for anything else.
MetricFloor parse_floor(const std::string& text);

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
  // Guards against results that are not what they seem (docs/benchmarks.md, "Checks"): a
  // correctness command after every check_every-th measured repeat, an output that must equal the
  // reference's, physical bounds on metrics.
  std::string check;
  int check_every = 1;
  SameOutput same_output;
  std::vector<MetricFloor> floors;
  // A time the benchmark reports that is longer than its repeat's wall time makes the run invalid;
  // --no-check-times turns it off for a metric that sums time across GPUs or threads.
  bool check_times = true;
};

// Whether runs of two revisions measure the same thing, checked the same way: the same command,
// directory, environment, axes, warm-up, build step, metric readers, the checks made while it runs
// (--check, --same-output, --check-times) and the throttling rules (read run by run). They may differ
// in how runs are counted and judged (repeats, timeout, primary metric, min effect, floors, default
// host, --ci): as asv versions a benchmark by its code, not by its repeat settings, runs of such
// revisions are compared. Never alike when either has a metric spec this build cannot read.
bool measures_alike(const BenchDefinition& a, const BenchDefinition& b);

nlohmann::json to_json(const BenchDefinition& definition);
// Throws ej::Error naming what is damaged (a number stored as null, a field of the wrong type).
BenchDefinition bench_definition_from_json(const nlohmann::json& json);
// Tolerant: damaged fields take their defaults and are described in `problems`, so that a bad
// stored revision can still be listed, shown and repaired by `ej bench edit`.
BenchDefinition bench_definition_from_json(const nlohmann::json& json, std::vector<std::string>& problems);
// Tolerant, for readers of metrics and verdict settings: damage is reported where the benchmark is
// listed, shown or run, not by every reader of results.
BenchDefinition readable_bench_definition(const nlohmann::json& json);
// Whether the revisions stored as `a` and `b` measure alike (measures_alike); false when either is
// damaged, since what could not be read may be where they differ.
bool stored_measure_alike(const nlohmann::json& a, const nlohmann::json& b);

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
