#pragma once

#include "evidence/compare_sets.h"
#include "evidence/interleaved_verdict.h"
#include "evidence/reader.h"
#include "evidence/run_set.h"

#include <optional>
#include <vector>

// An attempt measured with `ej run --against` against its baseline's code state is judged on that
// session's pairs, not on two moments of the machine (docs/statistics.md, "Comparing code, not
// moments"): this finds the session and turns its paired verdict into a verdict's comparisons.
namespace ej::evidence {

struct PairedSides {
  RunSet candidate; // the candidate's run of the session
  RunSet reference; // the run of the baseline's code state measured alongside it
  InterleavedVerdict verdict;
};

// The newest session in which one of `candidate`'s runs was measured alongside a run of the same code
// state as `baseline` (its commit and recorded diff); nullopt when there is none, or when the session
// failed or its reference run was withdrawn.
std::optional<PairedSides> paired_against(Reader& reader, const RunSet& candidate,
                                          const core::RunRecord& baseline);

// The paired figures of `v` on a comparison's scale: a log ratio as a ratio and percentages, a
// difference as a shift; its rounds, p-value and outcome. The medians are left as they are.
void put_paired(measure::Comparison& c, const PairedVerdict& v);

// Each series the session judged on its pairs takes the paired estimate, interval, p-value and
// outcome; the medians, units and warnings stay those of the two runs. `selector`: the combinations
// the series were chosen by (ej compare 2:n=1), whose axes their labels leave out.
void use_paired(std::vector<SeriesComparison>& series, const InterleavedVerdict& verdict,
                const core::ParamValues& selector = {});

} // namespace ej::evidence
