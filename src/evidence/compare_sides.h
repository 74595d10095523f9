#pragma once

#include "evidence/compare_sets.h"
#include "evidence/interleaved_verdict.h"
#include "evidence/reader.h"
#include "evidence/run_set.h"
#include "evidence/verdict.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

// `ej compare A [B]` (and the compare tool of `ej mcp`): the sides named, resolved against the
// journal and compared; one side alone against its plan's baseline, benchmark by benchmark.
namespace ej::evidence {

struct CompareQuery {
  std::string a;       // the reference, or the candidate when b is empty: r5, 12, r5:AXIS=V
  std::string b;       // the candidate; empty: a against its plan's baseline
  std::string metric;  // only this metric
  std::string bench;   // for attempts: the benchmark
  std::string against; // with one side: "then" (or empty) or "current"
  bool force = false;  // across benchmark revisions
  bool exclude_throttled = false;
};

// One benchmark's comparison of the two sides.
struct Compared {
  RunSet reference;
  RunSet candidate;
  ComparisonReport report; // an invalid comparison's series are all inconclusive
  ComparisonJudgement judged;
};

struct CompareAnswer {
  // Two runs measured together (ej run --against), judged on their pairs: the rest is empty.
  std::optional<InterleavedVerdict> interleaved;
  std::vector<Compared> compared;        // at least one otherwise
  std::vector<std::string> not_compared; // an attempt alone: "verify: plan p has no baseline ..."
  bool every_bench = false;              // an attempt alone: each benchmark it ran
};

// Throws ej::Error (a side that names nothing, nothing to compare) or UsageError saying what to do.
CompareAnswer compare_sides(Reader& reader, const CompareQuery& query);

// `ej compare --json` (docs/json.md, Comparisons).
nlohmann::json compare_json(const CompareAnswer& answer);

} // namespace ej::evidence
