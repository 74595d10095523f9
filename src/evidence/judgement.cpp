#include "evidence/judgement.h"

#include "core/numbering.h"
#include "evidence/attempt_changes.h"
#include "evidence/verdict.h"
#include "evidence/verdict_json.h"
#include "store/queries.h"
#include "util/error.h"
#include "util/strings.h"

namespace ej::evidence {

Against parse_against(const std::string& text)
{
  if (text == "then" || text.empty()) {
    return Against::BaselineThen;
  }
  if (text == "current") {
    return Against::CurrentBaseline;
  }
  throw UsageError(
      "--against takes 'then' (the baseline pinned when the run was made) or 'current', not '{}'", text);
}

StatusJudgement judge_attempt_status(Reader& reader, int number, Against against)
{
  auto attempt = store::find_attempt(reader.journal().db(), number);
  if (!attempt) {
    throw Error("there is no attempt {}; see 'ej log'", core::number_label(number));
  }
  auto evaluation = evaluate_attempt(reader, number, against);
  const auto proposal = evaluation ? propose_status(*evaluation) : std::nullopt;
  if (!proposal) {
    std::vector<std::string> why;
    if (evaluation) {
      for (const auto& missing : evaluation->missing) {
        why.push_back(missing.why);
      }
    }
    throw Error("attempt {} cannot be judged: {}", core::number_label(number),
                why.empty() ? judge_attempt(reader, number, against).why_not : util::join(why, "; "));
  }
  return {std::move(*attempt), std::move(*evaluation), *proposal};
}

nlohmann::json judgement_json(const StatusJudgement& judgement, bool applied)
{
  const auto& evaluation = judgement.evaluation;
  auto verdicts = nlohmann::json::array();
  for (const auto& verdict : evaluation.verdicts) {
    verdicts.push_back(verdict_json(verdict));
  }
  auto targets = nlohmann::json::array();
  for (const auto& target : evaluation.targets) {
    targets.push_back(target_json(target));
  }
  auto missing = nlohmann::json::array();
  for (const auto& m : evaluation.missing) {
    missing.push_back({{"bench", m.bench}, {"why", m.why}, {"next", next_json(m.next)}});
  }
  return {{"attempt", judgement.attempt.number},
          {"title", judgement.attempt.title},
          {"status", core::to_string(judgement.attempt.status)},
          {"proposed_status", core::to_string(judgement.proposal.status)},
          {"reason", judgement.proposal.reason},
          {"applied", applied},
          {"verdict", verdict_json(*evaluation.lead_verdict())},
          {"verdicts", verdicts},
          {"targets", targets},
          {"not_judged", missing}};
}

void apply_judgement(const measuring::Workspace& workspace, store::Journal& journal,
                     const StatusJudgement& judgement)
{
  change_status(workspace, journal, judgement.attempt.number, judgement.proposal.status,
                judgement.proposal.reason);
}

} // namespace ej::evidence
