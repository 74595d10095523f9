#pragma once

#include "core/records.h"
#include "evidence/evaluation.h"
#include "evidence/proposal.h"
#include "evidence/reader.h"
#include "measuring/workspace.h"

#include <nlohmann/json.hpp>

#include <string>

// `ej judge ID` (and the judge tool of `ej mcp`): the status an attempt's evidence proposes, every
// benchmark's verdict and the plan's targets behind it, recorded on request.
namespace ej::evidence {

struct StatusJudgement {
  core::Attempt attempt;
  Evaluation evaluation;
  Proposal proposal;
};

// "then" (or empty: the baseline pinned when the runs were made) or "current"; a usage error else.
Against parse_against(const std::string& text);

// The proposal; throws ej::Error naming why when the attempt cannot be judged (no runs, no
// baseline).
StatusJudgement judge_attempt_status(Reader& reader, int number, Against against);

// `ej judge --json`: {attempt, title, status, proposed_status, reason, applied, verdict, verdicts,
// targets, not_judged} (docs/json.md).
nlohmann::json judgement_json(const StatusJudgement& judgement, bool applied);

// Records the proposed status with its reason (ej judge --apply).
void apply_judgement(const measuring::Workspace& workspace, store::Journal& journal,
                     const StatusJudgement& judgement);

} // namespace ej::evidence
