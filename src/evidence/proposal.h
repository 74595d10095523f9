#pragma once

#include "core/status.h"
#include "evidence/evaluation.h"

#include <optional>
#include <string>

namespace ej::evidence {

// The status `ej judge` proposes for an attempt, with a reason of one sentence: the figures that
// decided, at the headline combination, and the plan's targets the attempt measured. The lead verdict (the
// headline measure's) decides at its headline combination (over the whole sweep without one): improved (and
// every target the attempt measured met) -> adopted; improved but a target missed -> rejected, as the
// break-even rule says; regressed or no change -> rejected; mixed or inconclusive
// -> inconclusive. A sequential verdict whose change the calibrated drift of the machine (ej calibrate)
// exceeds proposes inconclusive, with the --against command that would decide. An invalid verdict
// (its output differs from the baseline's) proposes rejected; a suspect one (flagged) never
// adopted (evidence/integrity.h). The full evidence is the attempt's, not the reason's.
struct Proposal {
  core::Status status = core::Status::Inconclusive;
  std::string reason;
};

// nullopt when the evaluation has no verdict to decide on.
std::optional<Proposal> propose_status(const Evaluation& evaluation);

// A verdict's evidence, one line per combination: "x [size=2] 14.50 ms -> 11.00 ms, -24.3% [-42.3%,
// -3.57%] 1.32x faster, improved (p=0.029), n = 10 vs 10".
std::vector<std::string> evidence_lines(const Verdict& verdict);

// The lead verdict in a phrase: "improved tok_s +3.78% at concurrency=1 (92.60 -> 96.10 tok/s)".
std::string decisive_phrase(const Verdict& verdict);

} // namespace ej::evidence
