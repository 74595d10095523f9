#pragma once

#include "evidence/series.h"

#include <string>
#include <utility>
#include <vector>

namespace ej::test {

// A series of `values` of one metric at one combination, as a run's summary holds it.
inline evidence::SeriesSummary series_of(std::string metric, std::string params, std::string unit,
                                         std::vector<double> values)
{
  evidence::SeriesSummary s;
  s.metric = std::move(metric);
  s.params = std::move(params);
  s.unit = std::move(unit);
  s.values = std::move(values);
  return s;
}

} // namespace ej::test
