#pragma once

#include "evidence/compare_sets.h"
#include "evidence/verdict.h"

#include <nlohmann/json.hpp>

#include <string>

// How comparisons and verdicts print, in the terminal and as JSON (fields in docs/json.md).
namespace ej::cli {

nlohmann::json comparison_json(const evidence::SeriesComparison& series);
nlohmann::json verdict_json(const evidence::Verdict& verdict);
// The outcome word coloured: green improved, red regressed, yellow otherwise.
std::string painted_outcome(measure::Outcome outcome);
// The lines `ej compare` prints for one series, indented under its name.
void print_comparison(const evidence::SeriesComparison& series);

} // namespace ej::cli
