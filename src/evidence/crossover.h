#pragma once

#include "evidence/compare_sets.h"

#include <string>
#include <vector>

namespace ej::evidence {

// Where a candidate wins and loses over a sweep, in words: "wins at concurrency <= 2, no change at
// 4, loses at 8", "wins at variant = fused, loses at naive". One axis that varies is told by its
// values in order (numeric values by value, a run of them from either end as "<= 2" or ">= 4");
// several axes by their combinations. Only the series of `metric` count; "" with fewer than two
// combinations.
std::string crossover_words(const std::vector<SeriesComparison>& series, const std::string& metric);

} // namespace ej::evidence
