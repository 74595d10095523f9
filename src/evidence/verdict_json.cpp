#include "evidence/verdict_json.h"

#include "evidence/wording.h"
#include "util/time.h"

namespace ej::evidence {

namespace {

nlohmann::json optional_json(const std::optional<double>& value)
{
  return value ? nlohmann::json(*value) : nlohmann::json();
}

std::string_view basis_name(measure::Basis basis)
{
  switch (basis) {
  case measure::Basis::SingleFigures:
    return "single-figures";
  case measure::Basis::TooFewSamples:
    return "too-few-samples";
  case measure::Basis::Test:
    break;
  }
  return "test";
}

std::string_view target_name(TargetMet met)
{
  switch (met) {
  case TargetMet::Everywhere:
    return "everywhere";
  case TargetMet::Somewhere:
    return "somewhere";
  case TargetMet::Nowhere:
    return "nowhere";
  case TargetMet::NoTarget:
    break;
  }
  return "no-target";
}

} // namespace

nlohmann::json design_json(const VerdictDesign& design)
{
  const bool interleaved = design.kind == Design::Interleaved;
  return {{"kind", interleaved ? "interleaved" : "sequential"},
          {"drift_controlled", interleaved},
          {"baseline_earlier_s",
           interleaved ? nlohmann::json() : nlohmann::json(design.baseline_earlier_ms / 1000.0)},
          {"rounds", interleaved ? nlohmann::json(design.rounds) : nlohmann::json()},
          {"text", design.sentence()}};
}

nlohmann::json comparison_json(const SeriesComparison& s)
{
  const auto& c = s.comparison;
  return {{"metric", s.metric},
          {"params", s.params},
          {"reference_params", s.reference_params},
          {"candidate_params", s.candidate_params},
          {"key", s.key},
          {"label", s.label()},
          {"unit", s.unit},
          {"reference_median", c.reference_median},
          {"candidate_median", c.candidate_median},
          {"n_reference", c.n_reference},
          {"n_candidate", c.n_candidate},
          {"basis", basis_name(c.basis)},
          {"estimate", c.estimate == measure::Estimate::Ratio ? "ratio" : "shift"},
          {"ratio", optional_json(c.ratio)},
          {"ratio_low", optional_json(c.ratio_low)},
          {"ratio_high", optional_json(c.ratio_high)},
          {"change_pct", optional_json(c.change_pct)},
          {"change_low_pct", optional_json(c.change_low_pct)},
          {"change_high_pct", optional_json(c.change_high_pct)},
          {"median_ratio", optional_json(c.median_ratio)},
          {"shift", optional_json(c.shift)},
          {"shift_low", optional_json(c.shift_low)},
          {"shift_high", optional_json(c.shift_high)},
          {"confidence", c.confidence},
          {"u", optional_json(c.u)},
          {"p_value", optional_json(c.p_value)},
          {"exact", c.exact},
          {"outcome", measure::to_string(c.outcome)},
          {"change", change_text(c, s.unit)},
          {"interval", interval_text(c, s.unit)},
          {"factor", factor_text(c, s.quantity)},
          {"text", comparison_text(c, s.unit, s.quantity)},
          {"warnings", c.warnings}};
}

nlohmann::json target_json(const TargetResult& t)
{
  const char* state = t.state == TargetState::Met      ? "met"
                      : t.state == TargetState::NotMet ? "not met"
                                                       : "not measured";
  return {{"target", core::to_string(t.target)},
          {"bench", t.bench.empty() ? t.target.bench : t.bench},
          {"state", state},
          {"value", t.value ? nlohmann::json(*t.value) : nlohmann::json()},
          {"unit", t.unit},
          {"at", t.where},
          {"at_headline", t.at_headline},
          {"met_at", t.met_at},
          {"text", t.text()}};
}

nlohmann::json verdict_json(const Verdict& v)
{
  auto combinations = nlohmann::json::array();
  for (const auto& s : v.combinations) {
    combinations.push_back(comparison_json(s));
  }
  const auto meets = v.meets_target();
  auto targets = nlohmann::json::array();
  for (const auto& t : v.targets) {
    targets.push_back(target_json(t));
  }
  return {{"text", v.text},
          {"bench", v.candidate.bench},
          {"headline", core::describe(v.headline)},
          {"headline_outcome", measure::to_string(v.decisive_outcome())},
          {"targets", targets},
          {"baseline_run", v.baseline_run},
          {"baseline_now", v.baseline_now ? nlohmann::json(*v.baseline_now) : nlohmann::json()},
          {"reference_run", v.reference_run ? nlohmann::json(*v.reference_run) : nlohmann::json()},
          {"against", v.against == Against::CurrentBaseline ? "current" : "then"},
          {"design", design_json(v.design)},
          {"calibration", v.calibration
                              ? nlohmann::json{{"detectable", v.calibration->amount},
                                               {"at", v.calibration->n},
                                               {"drift", v.calibration->drift},
                                               {"drift_exceeds_change", v.calibration->drift_exceeds_change},
                                               {"calibrated", util::format_utc(v.calibration->time_ms)}}
                              : nlohmann::json()},
          {"candidate", v.candidate.label},
          {"validity", to_string(v.integrity.validity)},
          {"invalid_reason", v.integrity.invalid_reason.empty() ? nlohmann::json()
                                                                : nlohmann::json(v.integrity.invalid_reason)},
          {"flags", v.integrity.flags},
          {"imported", v.imported},
          {"metric", v.metric},
          {"unit", v.unit},
          {"outcome", measure::to_string(v.outcome)},
          {"crossover", v.crossover},
          {"meets_target", meets ? nlohmann::json(*meets) : nlohmann::json()},
          {"target", target_name(v.target_met)},
          {"target_met_at", v.target_met_at},
          {"environments_differ", !v.environment_changes.empty()},
          {"environment_changes", v.environment_changes},
          {"combinations", combinations},
          {"warnings", v.warnings},
          {"next", next_json(v.next)}};
}

nlohmann::json comparison_report_json(const std::string& reference, const std::string& candidate,
                                      const std::string& bench, const ComparisonReport& report,
                                      measure::Outcome outcome)
{
  auto series = nlohmann::json::array();
  for (const auto& s : report.series) {
    series.push_back(comparison_json(s));
  }
  return {{"reference", reference},
          {"candidate", candidate},
          {"bench", bench},
          {"series", series},
          {"outcome", measure::to_string(outcome)},
          {"crossover", report.crossover},
          {"environment_changes", report.env_changes},
          {"warnings", report.warnings}};
}

} // namespace ej::evidence
