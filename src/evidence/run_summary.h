#pragma once

#include "evidence/metric_rules.h"
#include "evidence/series.h"
#include "evidence/wording.h"
#include "measure/statistics.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

// What `ej run` prints once the repeats are done, modelled on hyperfine: per series mean ± σ,
// median, min … max in a readable unit; a table by combination for a sweep, with how each value
// of an axis compares with the axis's first value ("variant=blocked ran 2.42 ± 0.10 times faster
// than variant=naive"); and, for the primary metric, warnings for outliers, a slow first repeat
// and high noise. The primary metric comes first.
namespace ej::evidence {

// A coefficient of variation above this gets a high-noise warning.
inline constexpr double k_high_noise_cv = 0.10;

// The text, every line indented by two spaces and ended by a newline; empty without series.
std::string run_summary_text(const std::vector<SeriesSummary>& series, const MetricRules& rules);
// The same, each series summarized by `summarize` (nullopt: it has no measured value), for series
// whose values are not held (SeriesSummary::values empty): ej run summarizes from the journal.
using Summarizer = std::function<std::optional<measure::Summary>(const SeriesSummary&, measure::Direction)>;
std::string run_summary_text(const std::vector<SeriesSummary>& series, const MetricRules& rules,
                             const Summarizer& summarize);

// The warnings for one series' summary, hyperfine's wording; `what` names the series.
std::vector<std::string> summary_warnings(const measure::Summary& summary, const std::string& what,
                                          const std::string& unit);

// "2.42 ± 0.10 times faster than" of a candidate against a reference (mean and σ of each), for a
// metric of `quantity` that improves in `direction`: hyperfine's ratio of means, its σ from both
// relative σs; the "± ..." is left out when neither side has a σ.
std::string relative_text(const measure::Summary& candidate, const measure::Summary& reference,
                          measure::Direction direction, Quantity quantity, const std::string& metric);

} // namespace ej::evidence
