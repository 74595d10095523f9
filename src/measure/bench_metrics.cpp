#include "measure/bench_metrics.h"

namespace ej::measure {

std::vector<MetricSpec> metric_specs(const core::BenchDefinition& definition)
{
  std::vector<MetricSpec> specs;
  specs.reserve(definition.metrics.size());
  for (const auto& json : definition.metrics) {
    specs.push_back(metric_spec_from_json(json));
  }
  return specs;
}

} // namespace ej::measure
