#include "measure/self_report.h"

#include "measure/units.h"

#include <fmt/format.h>

namespace ej::measure {

std::optional<std::string> impossible_time(const std::string& metric, const ValueList& values, double wall_s)
{
  const auto seconds = parse_unit("s");
  for (const auto& run : values.runs()) {
    const auto unit = parse_unit(run.label.unit);
    if (run.label.skipped || !unit || unit->dimension != Dimension::Time) {
      continue;
    }
    for (const double value : run.values) {
      // The clocks differ (the benchmark's own, ej's monotonic one) but both count forward from
      // moments inside the repeat: a value past the wall time by any margin is not a rounding.
      if (convert(value, *unit, *seconds) > wall_s) {
        return fmt::format("{}{} = {:g} {}, longer than the {:.3g} s the repeat took", metric,
                           run.label.key.empty() ? "" : " [" + run.label.key + "]", value, run.label.unit,
                           wall_s);
      }
    }
  }
  return std::nullopt;
}

} // namespace ej::measure
