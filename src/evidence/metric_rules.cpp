#include "evidence/metric_rules.h"

#include "measure/direction.h"

namespace ej::evidence {

measure::Direction MetricRules::direction_of(const std::string& metric, std::string_view unit) const
{
  if (unit_decides.contains(metric)) {
    if (const auto better = measure::better_of_unit(unit)) {
      return *better;
    }
  }
  const auto found = directions.find(metric);
  return found != directions.end() ? found->second : measure::Direction::LowerIsBetter;
}

MetricRules rules_of(const core::BenchDefinition& definition)
{
  MetricRules rules;
  rules.directions["wall_s"] = measure::Direction::LowerIsBetter;
  for (const auto& spec : measure::metric_specs(definition)) {
    rules.directions[spec.name] = spec.better;
    if (!measure::direction_given(spec)) {
      rules.unit_decides.insert(spec.name);
    }
  }
  rules.primary = definition.primary.empty() ? "wall_s" : definition.primary;
  rules.min_effect_pct = definition.min_effect_pct;
  rules.clock_drop_pct = definition.clock_drop_pct;
  rules.exclude_throttled = definition.exclude_throttled;
  rules.same_output = definition.same_output;
  rules.checked = !definition.check.empty();
  rules.check_times = definition.check_times;
  for (const auto& floor : definition.floors) {
    std::string unit = "s"; // wall_s
    for (const auto& spec : measure::metric_specs(definition)) {
      if (spec.name == floor.metric) {
        unit = measure::effective_unit(spec);
      }
    }
    rules.floors.push_back({floor, unit});
  }
  return rules;
}

} // namespace ej::evidence
