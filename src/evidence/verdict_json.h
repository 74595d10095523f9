#pragma once

#include "evidence/compare_sets.h"
#include "evidence/verdict.h"

#include <nlohmann/json.hpp>

#include <string>

// The documented JSON of comparisons and verdicts (docs/json.md, Comparisons and Verdicts): what
// `ej compare --json`, `ej judge --json` and `ej show --json` print and `ej mcp` returns.
namespace ej::evidence {

nlohmann::json comparison_json(const SeriesComparison& series);
nlohmann::json verdict_json(const Verdict& verdict);
// {kind, drift_controlled, baseline_earlier_s, rounds, text}: how the two sides were measured.
nlohmann::json design_json(const VerdictDesign& design);
nlohmann::json target_json(const TargetResult& target);
// `ej compare --json` of one benchmark: both sides' labels, every series, and the outcome decided
// (ComparisonJudgement::outcome).
nlohmann::json comparison_report_json(const std::string& reference, const std::string& candidate,
                                      const std::string& bench, const ComparisonReport& report,
                                      measure::Outcome outcome);

} // namespace ej::evidence
