#pragma once

#include "measure/extract.h"

#include <string_view>
#include <vector>

// Extraction from a program's stdout alone, as most extractor tests need.
namespace ej::measure::test {

inline std::vector<ExtractedValue> extract_text(const MetricSpec& spec, std::string_view out)
{
  return extract(spec, ExtractInput{out, "", nullptr});
}

inline std::vector<ExtractedValue> extract_text(std::string_view spec, std::string_view out)
{
  return extract_text(parse_metric_spec(spec), out);
}

// The values alone, in order.
inline std::vector<double> numbers(const std::vector<ExtractedValue>& values)
{
  std::vector<double> out;
  for (const auto& value : values) {
    out.push_back(value.value);
  }
  return out;
}

} // namespace ej::measure::test
