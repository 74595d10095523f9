#include "measure/self_report.h"

#include "measure/units.h"

#include <fmt/format.h>

namespace ej::measure {

std::optional<std::string> impossible_time(const std::string& metric, const ValueList& values, double wall_s)
{
  const auto seconds = parse_unit("s");
  // A value that came without a unit has the one its metric's name spells out (time_ms), as its
  // summary and verdicts show it.
  const auto named = unit_in_name(metric);
  for (const auto& run : values.runs()) {
    // A label whose own unit is none (a counter's) is a count, whatever the metric is called.
    const auto unit = run.label.unit.empty() ? (run.label.own_unit ? std::nullopt : named)
                                             : parse_unit(run.label.unit);
    if (run.label.skipped || !unit || unit->dimension != Dimension::Time) {
      continue;
    }
    for (const double value : run.values) {
      if (convert(value, *unit, *seconds) > wall_s * (1 + k_time_slack_share) + k_time_slack_s) {
        return fmt::format("{}{} = {:g} {}, longer than the {:.3g} s the repeat took", metric,
                           run.label.key.empty() ? "" : " [" + run.label.key + "]", value, unit->symbol,
                           wall_s);
      }
    }
  }
  return std::nullopt;
}

} // namespace ej::measure
