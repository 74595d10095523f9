#pragma once

#include "core/bench_definition.h"
#include "measure/metric_spec.h"

#include <vector>

namespace ej::measure {

// The metric specs a benchmark revision stores, in its order, each checked_stored_spec: for running
// a benchmark and for judging its runs alike. Throws ej::Error on a damaged spec.
std::vector<MetricSpec> metric_specs(const core::BenchDefinition& definition);

} // namespace ej::measure
