#include "evidence/proposal.h"

#include "core/numbering.h"
#include "util/strings.h"

#include <fmt/format.h>

namespace ej::evidence {

namespace {

std::string combination_evidence(const SeriesComparison& s)
{
  const auto& c = s.comparison;
  auto text = fmt::format("{} {} -> {}, {}", s.label(), value_text(c.reference_median, s.unit),
                          value_text(c.candidate_median, s.unit), comparison_text(c, s.unit, s.quantity));
  if (c.basis == measure::Basis::Test) {
    text += fmt::format(", n = {} vs {}", c.n_reference, c.n_candidate);
  }
  return text;
}

std::string target_evidence(const Verdict& v, const std::string& target_text)
{
  switch (v.target_met) {
  case TargetMet::NoTarget:
    return "";
  case TargetMet::Everywhere:
    return fmt::format("; meets the target {}", target_text);
  case TargetMet::Nowhere:
    return fmt::format("; does not meet the target {}", target_text);
  case TargetMet::Somewhere:
    break;
  }
  return fmt::format("; meets the target {} only at {}", target_text, util::join(v.target_met_at, "; "));
}

} // namespace

Proposal propose_status(const Verdict& v, const std::string& target_text)
{
  Proposal proposal;
  std::vector<std::string> each;
  for (const auto& s : v.combinations) {
    each.push_back(combination_evidence(s));
  }
  proposal.reason = fmt::format(
      "judged from {} against baseline run {}{}: {}", v.candidate.label, core::number_label(v.baseline_run),
      v.against == Against::CurrentBaseline ? " (the current baseline)" : "", util::join(each, "; "));
  if (v.sweep()) {
    proposal.reason += fmt::format("; overall {}", measure::to_string(v.outcome));
    if (!v.crossover.empty()) {
      proposal.reason += ": " + v.crossover;
    }
  }
  proposal.reason += target_evidence(v, target_text);
  if (!v.environment_fields.empty()) {
    proposal.reason += "; environments differ: " + util::join(v.environment_fields, ", ");
  }
  switch (v.outcome) {
  case measure::Outcome::Improved:
    proposal.status = v.target_met == TargetMet::NoTarget || v.target_met == TargetMet::Everywhere
                          ? core::Status::Adopted
                          : core::Status::Rejected;
    break;
  case measure::Outcome::Regressed:
  case measure::Outcome::NoChange:
    proposal.status = core::Status::Rejected;
    break;
  case measure::Outcome::Mixed:
  case measure::Outcome::Inconclusive:
    proposal.status = core::Status::Inconclusive;
    break;
  }
  return proposal;
}

} // namespace ej::evidence
