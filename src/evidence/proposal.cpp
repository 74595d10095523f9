#include "evidence/proposal.h"

#include "util/strings.h"

#include <fmt/format.h>

namespace ej::evidence {

namespace {

std::string outcome_words(measure::Outcome outcome, const std::string& metric)
{
  switch (outcome) {
  case measure::Outcome::Improved:
    return "improved " + metric;
  case measure::Outcome::Regressed:
    return "regressed " + metric;
  case measure::Outcome::NoChange:
    return "no change in " + metric;
  case measure::Outcome::Mixed:
    return "mixed " + metric;
  case measure::Outcome::Inconclusive:
    break;
  }
  return "inconclusive on " + metric;
}

} // namespace

std::vector<std::string> evidence_lines(const Verdict& v)
{
  std::vector<std::string> lines;
  for (const auto& s : v.combinations) {
    const auto& c = s.comparison;
    auto text = fmt::format("{} {} -> {}, {}", s.label(), value_text(c.reference_median, s.unit),
                            value_text(c.candidate_median, s.unit), comparison_text(c, s.unit, s.quantity));
    if (c.basis == measure::Basis::Test) {
      text += fmt::format(", n = {} vs {}", c.n_reference, c.n_candidate);
    }
    lines.push_back(std::move(text));
  }
  return lines;
}

std::string decisive_phrase(const Verdict& v)
{
  const auto* s = v.headline_comparison();
  if (s == nullptr) {
    // A sweep without a headline: the outcome over it, and where it wins and loses.
    auto text =
        fmt::format("{} over {} combinations", outcome_words(v.outcome, v.metric), v.combinations.size());
    return v.crossover.empty() ? text : text + " (" + v.crossover + ")";
  }
  const auto& c = s->comparison;
  auto text = outcome_words(c.outcome, v.metric) + " " + change_text(c, s->unit);
  if (!s->where().empty()) {
    text += " at " + s->where();
  }
  text +=
      fmt::format(" ({} -> {}", value_text(c.reference_median, ""), value_text(c.candidate_median, s->unit));
  if (c.basis != measure::Basis::Test) {
    text += "; " + basis_text(c);
  }
  return text + ")";
}

std::optional<Proposal> propose_status(const Evaluation& evaluation)
{
  const auto* lead = evaluation.lead_verdict();
  if (lead == nullptr) {
    return std::nullopt;
  }
  std::vector<std::string> parts{decisive_phrase(*lead)};
  if (lead->against == Against::CurrentBaseline) {
    parts.front() += " against the current baseline";
  }
  for (const auto& target : evaluation.targets) {
    if (target.state != TargetState::NotMeasured) { // the summary's target column says which were not
      parts.push_back(target.text());
    }
  }
  for (const auto& missing : evaluation.missing) {
    parts.push_back(missing.no_baseline ? "no baseline for " + missing.bench : missing.bench + " not judged");
  }
  if (!lead->environment_fields.empty()) {
    parts.push_back("environments differ: " + util::join(lead->environment_fields, ", "));
  }
  Proposal proposal;
  proposal.reason = util::join(parts, "; ");
  switch (lead->decisive_outcome()) {
  case measure::Outcome::Improved:
    proposal.status = evaluation.any_target_missed() ? core::Status::Rejected : core::Status::Adopted;
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
  // Figures that cannot be believed decide nothing (evidence/integrity.h): an output that differs from
  // the baseline's is not the same work done faster, so it is rejected; a flagged verdict is
  // looked into before anything is adopted.
  if (lead->integrity.validity == Validity::Invalid) {
    proposal.status = core::Status::Rejected;
    proposal.reason = "invalid: " + lead->integrity.invalid_reason + "; " + proposal.reason;
    return proposal;
  }
  if (lead->integrity.validity == Validity::Suspect && proposal.status == core::Status::Adopted) {
    proposal.status = core::Status::Inconclusive;
    proposal.reason += "; flagged: " + util::join(lead->integrity.flags, "; ");
  }
  // Two moments of a machine that drifts more than the change cannot decide it; the same two code
  // states measured together can.
  if (lead->design.kind == Design::Sequential && lead->calibration &&
      lead->calibration->drift_exceeds_change && proposal.status != core::Status::Inconclusive) {
    const auto attempt = lead->candidate.runs.empty() ? std::nullopt : lead->candidate.runs.front().attempt;
    proposal.status = core::Status::Inconclusive;
    proposal.reason += fmt::format("; the machine drifted {} in its calibration, more than the change: "
                                   "measure both sides together with 'ej run {} --against baseline{}', whose "
                                   "paired verdict then decides",
                                   lead->calibration->drift, lead->candidate.bench,
                                   attempt ? fmt::format(" --attempt {}", *attempt) : std::string());
  }
  return proposal;
}

} // namespace ej::evidence
