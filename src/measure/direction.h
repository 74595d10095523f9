#pragma once

// Which way a metric improves, inferred from its unit or its name when --better does not say:
// rates and throughput are higher-is-better, times, latencies and sizes lower-is-better.

#include "measure/metric_spec.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ej::measure {

struct InferredBetter {
  Direction better = Direction::LowerIsBetter;
  std::string reason; // "unit tok/s", "the word 'throughput' in its name"; empty: the default
};

InferredBetter infer_better(const MetricSpec& spec);
// The same once the values have been seen in `seen_unit` (what the output printed, as a run stores
// it): that unit comes right after the spec's own, so a regex on "174.85 tok/s" is higher-is-better.
InferredBetter infer_better(const MetricSpec& spec, std::string_view seen_unit);

// The direction a unit says: rates higher, times and sizes lower; nullopt for counts, percentages
// and text that is no unit ej knows.
std::optional<Direction> better_of_unit(std::string_view unit);

// Whether --better gave the spec's direction; for a spec stored before ej recorded that, whether
// its direction differs from the one ej infers (then someone chose it).
bool direction_given(const MetricSpec& spec);

// The direction a metric is judged by when its values came in `unit`: --better when it was given,
// else the unit's when it says one, else the one bench add inferred.
Direction judged_better(const MetricSpec& spec, std::string_view unit);

// What a run says of a metric's direction once its values came in `unit`, or "" when there is
// nothing to say: the unit decided what bench add could not infer ("decode is in tok/s: higher is
// better ..."), or nothing decides and lower is kept by default (and how to set it). `bench`
// names the benchmark in the advice.
std::string direction_note(const MetricSpec& spec, std::string_view unit, std::string_view bench);

// "tok_s: higher is better (inferred from unit tok/s; --better tok_s=lower to change)"
std::string describe_inference(const std::string& metric, const InferredBetter& inferred);

// Sets each spec's direction: as an option "NAME=higher|lower" says, else inferred. Returns the
// inferences, in spec order, for the specs no option names. Throws ej::UsageError for a bad option.
std::vector<std::pair<std::string, InferredBetter>>
settle_directions(std::vector<MetricSpec>& specs, const std::vector<std::string>& options);

} // namespace ej::measure
