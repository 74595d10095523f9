#pragma once

#include "core/run_records.h"
#include "evidence/integrity.h"
#include "evidence/interleaved_verdict.h"
#include "evidence/metric_rules.h"
#include "store/database.h"

#include <string>
#include <vector>

// Whether an interleaved comparison's figures can be believed: the checks of a sequential verdict
// (evidence/integrity.h), held between the session's two runs. A cheat measured alongside the
// reference is no less a cheat: the candidate's output against the reference's, both runs' values
// against their floors, and the benchmark's timer against wall_s on the pairs.
namespace ej::evidence {

// Combinations where the primary metric (a time) improved decisively on the pairs while wall_s
// regressed decisively on the same rounds (timer_disagreements, on the paired figures).
std::vector<std::string> paired_timer_disagreements(const std::vector<PairedVerdict>& series,
                                                    const std::string& primary);

// The integrity of the session between `candidate` and `reference`, whose paired series are
// `series`. Reads the runs' samples only when a floor or a --same-output METRIC asks for them.
Integrity paired_integrity(store::Database& db, const core::RunRecord& candidate,
                           const core::RunRecord& reference, const std::vector<PairedVerdict>& series,
                           const std::string& primary, const MetricRules& rules);

} // namespace ej::evidence
