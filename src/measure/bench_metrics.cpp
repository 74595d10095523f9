#include "measure/bench_metrics.h"

#include "util/error.h"

namespace ej::measure {

std::vector<MetricSpec> metric_specs(const core::BenchDefinition& definition)
{
  if (!definition.metrics_damage.empty()) {
    throw Error(definition.metrics_damage);
  }
  std::vector<MetricSpec> specs;
  specs.reserve(definition.metrics.size());
  for (const auto& spec : definition.metrics) {
    specs.push_back(checked_stored_spec(spec));
  }
  return specs;
}

} // namespace ej::measure
