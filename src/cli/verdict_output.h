#pragma once

#include "evidence/compare_sets.h"
#include "evidence/verdict.h"
#include "evidence/verdict_json.h"

#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <vector>

// How comparisons and verdicts print, in the terminal and as JSON (fields in docs/json.md).
namespace ej::cli {

using evidence::comparison_json; // the JSON is built a floor down, where `ej mcp` builds it too
using evidence::target_json;
using evidence::verdict_json;
// The outcome word coloured: green improved, red regressed, yellow otherwise.
std::string painted_outcome(measure::Outcome outcome);
// The lines `ej compare` prints for one series, indented under its name; its warnings among
// `said_once` are left to the report (shared_warnings).
void print_comparison(const evidence::SeriesComparison& series, const std::set<std::string>& said_once = {});
// The warnings more than one series has ("the reference has only 5 samples" for every metric and
// combination of a sweep): said once for the whole comparison rather than under each series.
std::set<std::string> shared_warnings(const std::vector<evidence::SeriesComparison>& series);

} // namespace ej::cli
