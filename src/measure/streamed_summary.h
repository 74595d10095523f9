#pragma once

#include "measure/statistics.h"

#include <functional>

// summarize() for a series too large to hold in memory: the same Summary, field for field, from a
// few passes over values that the caller reads one at a time from where they are kept (the
// journal sorts them there), so that a summary of millions of samples costs no memory per value.
namespace ej::measure {

enum class SampleOrder {
  Recorded,   // as summarize() gets them
  Ascending,  // by value
  ByDistance, // |x - from| of each value, ascending
};

// Calls `each` for every value of the series in `order` (ByDistance: with |x - from| instead).
using SampleVisitor =
    std::function<void(SampleOrder order, double from, const std::function<void(double)>& each)>;

// Exactly summarize(values, direction) of the values `visit` gives; the same errors.
Summary summarize_streamed(const SampleVisitor& visit, Direction direction = Direction::LowerIsBetter);

} // namespace ej::measure
