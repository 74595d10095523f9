#pragma once

#include "core/bench_definition.h"
#include "evidence/series.h"
#include "evidence/verdict.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

// What the parts of a plan document share: escaping, numbers and where a measure is read.
namespace ej::evidence::document {

std::string inline_text(std::string_view text); // for a paragraph or list item
std::string cell(std::string_view text);        // for a table cell
std::string number(double value);               // 4 significant digits: "27.80"
std::string short_commit(const std::string& commit, std::size_t length = 10);
// "size=2 BM_Sum": where a series was measured, "" without axes or keys.
std::string series_where(const SeriesSummary& series);

// The series of `metric` that stands for a run set at the headline combination: the one at the
// headline when the set measured it, or the only one; nullptr for a sweep without a headline, or
// when the set lacks the metric.
const SeriesSummary* series_at(const std::vector<SeriesSummary>& series, const std::string& metric,
                               const core::ParamValues& headline);
// Its median ("96.10"), or the range of the medians over a sweep without a headline
// ("11.50 … 27.80"); "" without samples.
std::string value_text(const std::vector<SeriesSummary>& series, const std::string& metric,
                       const core::ParamValues& headline);
// The median of series_at, when there is one.
std::optional<double> value_at(const std::vector<SeriesSummary>& series, const std::string& metric,
                               const core::ParamValues& headline);

// A verdict's change at its headline combination ("+3.78%"), or its range over a sweep without
// one ("-60.0% … +0.50%").
std::string change_of(const Verdict& verdict);
// Its outcome where it decides, "no test" without one (single figures, too few samples).
std::string outcome_of(const Verdict& verdict);
// Short words held together with no-break spaces (U+00A0): a browser never wraps them in a cell.
std::string unbreakable(const std::string& text);

} // namespace ej::evidence::document
