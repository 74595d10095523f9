#pragma once

#include "evidence/reader.h"
#include "evidence/run_set.h"
#include "evidence/wording.h"
#include "measure/comparison.h"

#include <optional>
#include <string>
#include <vector>

namespace ej::evidence {

// One series of two run sets compared: a metric at one combination (and key) on both sides.
struct SeriesComparison {
  std::string metric;
  std::string params;           // the combination ("size=2"), without the axes the selectors chose
  std::string reference_params; // each side's own combination, when selectors made them differ
  std::string candidate_params;
  std::string key; // nvbench state, gbench row, hyperfine command, or ""
  std::string unit;
  Quantity quantity = Quantity::Other;
  measure::Comparison comparison;

  // "time_ms [size=2] BM_Sum", the metric alone when there is one combination and no key.
  std::string label() const;
  // "size=2 BM_Sum" or "" for a run without axes or keys: where it was measured.
  std::string where() const;
};

struct ComparisonReport {
  std::vector<SeriesComparison> series; // the primary metric first, then the benchmark's order
  std::vector<std::string> warnings;
  std::vector<std::string> env_changes; // "CUDA driver: 12.8 -> 13.0"; empty when identical
  std::vector<std::string> env_fields;  // what changed, in short: "CUDA driver", "GPU 0 name"
  std::string crossover;                // for sweeps: where the candidate wins and loses, in words
};

struct CompareRequest {
  std::string metric;        // only this metric; empty for all (the primary metric first)
  bool force = false;        // compare across benchmark revisions
  bool read_repeats = false; // warn when wall time far exceeds CPU time (reads every repeat)
};

// Compares candidate against reference metric by metric, combination with the same combination
// (after the axes each side's selector chose). Refuses, giving the reason in `why_not`: runs of
// different benchmarks, the same combinations of one run twice, different revisions unless
// forced, a metric neither side has, no combination in common.
std::optional<ComparisonReport> try_compare(Reader& reader, const RunSet& reference, const RunSet& candidate,
                                            const CompareRequest& request, std::string& why_not);
// The same, throwing ej::Error with the reason.
ComparisonReport compare_sets(Reader& reader, const RunSet& reference, const RunSet& candidate,
                              const CompareRequest& request);

// The environment differences of two sets (their first runs with a snapshot).
void add_environment_changes(Reader& reader, const RunSet& reference, const RunSet& candidate,
                             ComparisonReport& report);

} // namespace ej::evidence
