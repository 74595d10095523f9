#pragma once

#include "core/status.h"
#include "evidence/verdict.h"

#include <string>

namespace ej::evidence {

// The status `ej judge` proposes for an attempt, with a reason made of the numbers:
// improved (and the plan's target met wherever it was evaluated, when the plan has one) ->
// adopted; improved but the target missed somewhere -> rejected, as the break-even rule says;
// regressed or no change -> rejected; mixed or inconclusive -> inconclusive.
struct Proposal {
  core::Status status = core::Status::Inconclusive;
  std::string reason;
};

Proposal propose_status(const Verdict& verdict, const std::string& target_text);

} // namespace ej::evidence
