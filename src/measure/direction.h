#pragma once

// Which way a metric improves, inferred from its unit or its name when --better does not say:
// rates and throughput are higher-is-better, times, latencies and sizes lower-is-better.

#include "measure/metric_spec.h"

#include <string>
#include <utility>
#include <vector>

namespace ej::measure {

struct InferredBetter {
  Better better = Better::Lower;
  std::string reason; // "unit tok/s", "the word 'throughput' in its name"; empty: the default
};

InferredBetter infer_better(const MetricSpec& spec);

// "tok_s: higher is better (inferred from unit tok/s; --better tok_s=lower to change)"
std::string describe_inference(const std::string& metric, const InferredBetter& inferred);

// Sets each spec's direction: as an option "NAME=higher|lower" says, else inferred. Returns the
// inferences, in spec order, for the specs no option names. Throws ej::UsageError for a bad option.
std::vector<std::pair<std::string, InferredBetter>>
settle_directions(std::vector<MetricSpec>& specs, const std::vector<std::string>& options);

} // namespace ej::measure
