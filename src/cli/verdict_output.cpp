#include "cli/verdict_output.h"

#include "cli/output.h"
#include "evidence/wording.h"
#include "util/time.h"

#include <fmt/format.h>

#include <map>

namespace ej::cli {

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

std::string_view target_name(evidence::TargetMet met)
{
  switch (met) {
  case evidence::TargetMet::Everywhere:
    return "everywhere";
  case evidence::TargetMet::Somewhere:
    return "somewhere";
  case evidence::TargetMet::Nowhere:
    return "nowhere";
  case evidence::TargetMet::NoTarget:
    break;
  }
  return "no-target";
}

nlohmann::json design_json(const evidence::VerdictDesign& design)
{
  const bool interleaved = design.kind == evidence::Design::Interleaved;
  return {{"kind", interleaved ? "interleaved" : "sequential"},
          {"drift_controlled", interleaved},
          {"baseline_earlier_s",
           interleaved ? nlohmann::json() : nlohmann::json(design.baseline_earlier_ms / 1000.0)},
          {"rounds", interleaved ? nlohmann::json(design.rounds) : nlohmann::json()},
          {"text", design.sentence()}};
}

} // namespace

nlohmann::json comparison_json(const evidence::SeriesComparison& s)
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
          {"change", evidence::change_text(c, s.unit)},
          {"interval", evidence::interval_text(c, s.unit)},
          {"factor", evidence::factor_text(c, s.quantity)},
          {"text", evidence::comparison_text(c, s.unit, s.quantity)},
          {"warnings", c.warnings}};
}

nlohmann::json target_json(const evidence::TargetResult& t)
{
  const char* state = t.state == evidence::TargetState::Met      ? "met"
                      : t.state == evidence::TargetState::NotMet ? "not met"
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

nlohmann::json verdict_json(const evidence::Verdict& v)
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
          {"against", v.against == evidence::Against::CurrentBaseline ? "current" : "then"},
          {"design", design_json(v.design)},
          {"calibration", v.calibration
                              ? nlohmann::json{{"detectable", v.calibration->amount},
                                               {"at", v.calibration->n},
                                               {"drift", v.calibration->drift},
                                               {"drift_exceeds_change", v.calibration->drift_exceeds_change},
                                               {"calibrated", util::format_utc(v.calibration->time_ms)}}
                              : nlohmann::json()},
          {"candidate", v.candidate.label},
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
          {"warnings", v.warnings}};
}

std::string painted_outcome(measure::Outcome outcome)
{
  return paint(std::string(measure::to_string(outcome)), outcome == measure::Outcome::Improved ? Colour::Green
                                                         : outcome == measure::Outcome::Regressed
                                                             ? Colour::Red
                                                             : Colour::Yellow);
}

std::set<std::string> shared_warnings(const std::vector<evidence::SeriesComparison>& series)
{
  std::map<std::string, int> count;
  for (const auto& s : series) {
    for (const auto& warning : s.comparison.warnings) {
      ++count[warning];
    }
  }
  std::set<std::string> shared;
  for (const auto& [warning, n] : count) {
    if (n > 1) {
      shared.insert(warning);
    }
  }
  return shared;
}

void print_comparison(const evidence::SeriesComparison& s, const std::set<std::string>& said_once)
{
  const auto& c = s.comparison;
  fmt::print("\n{}\n", paint(s.label(), Colour::Bold));
  fmt::print("  median     {} -> {}  (n = {} vs {})\n", evidence::value_text(c.reference_median, s.unit),
             evidence::value_text(c.candidate_median, s.unit), c.n_reference, c.n_candidate);
  auto change = evidence::change_text(c, s.unit);
  if (const auto factor = evidence::factor_text(c, s.quantity); !factor.empty()) {
    change += "  (" + factor + ")";
  }
  fmt::print("  change     {}\n", change);
  if (c.basis == measure::Basis::Test) {
    fmt::print("  interval   {}  ({:.0f}%, {})\n", evidence::interval_text(c, s.unit), c.confidence * 100,
               c.estimate == measure::Estimate::Ratio ? "Hodges-Lehmann ratio" : "Hodges-Lehmann shift");
    fmt::print("  test       {} (Mann-Whitney U, {})\n", evidence::basis_text(c),
               c.exact ? "exact" : "normal approximation");
    fmt::print("  outcome    {}\n", painted_outcome(c.outcome));
  } else {
    fmt::print("  outcome    {}: {}\n", painted_outcome(c.outcome), evidence::basis_text(c));
  }
  for (const auto& warning : c.warnings) {
    if (said_once.count(warning) == 0) {
      fmt::print("  warning    {}\n", warning);
    }
  }
}

} // namespace ej::cli
