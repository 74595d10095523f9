#pragma once

#include "core/records.h"
#include "core/run_records.h"
#include "evidence/reader.h"
#include "evidence/verdict.h"
#include "store/verdict_cache.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// The one-line verdict of an attempt that listings print (ej log, ej search): the line a
// render kept (store/verdict_cache.h) while the journal still holds what it was judged from, else
// judged now. Either way the same text as judge_attempt's against the baseline then.
namespace ej::evidence {

// One line (or none) per attempt, in order. maker: this build's identity (cli::build_identity); a
// line kept by another build is judged again, and with an empty maker every line is.
std::vector<std::optional<std::string>>
verdict_lines(Reader& reader, const std::vector<core::Attempt>& attempts, std::string_view maker);

// The inputs of an attempt's line that a render may keep, the same as store::verdict_inputs_of_plan
// gives, from what the plan's attempts share (store::plan_verdict_inputs) and the attempt's runs as
// the render read them; nullopt when one of them is still running or misses its environment
// snapshot. has_snapshot: whether the journal holds a snapshot.
std::optional<store::VerdictInputs>
attempt_verdict_inputs(const store::VerdictInputs& plan, const std::vector<core::RunRecord>& runs,
                       const std::function<bool(const std::string&)>& has_snapshot);

// What lets the line of an attempt outlive a baseline pinned after it (store::LaterPins): `lead`
// its verdict (nullptr: none), `pins` the plan's, `runs` the attempt's.
store::LaterPins later_pins(const Verdict* lead, const std::vector<core::BaselineRecord>& pins,
                            const std::vector<core::RunRecord>& runs);

} // namespace ej::evidence
