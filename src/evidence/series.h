#pragma once

#include "core/run_records.h"

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

// Samples grouped into series: what every comparison and document reads.
namespace ej::evidence {

// One series of a run: a metric, for one parameter combination and key.
struct SeriesSummary {
  std::string metric;
  std::string params; // "variant=fused" or ""
  std::string key;    // nvbench state, gbench row, hyperfine command, or ""
  std::string unit;
  std::vector<double> values;
  std::size_t skipped = 0;
  std::size_t aggregates = 0;
};
std::vector<SeriesSummary> run_series(const std::vector<core::SampleRecord>& samples);

// Groups samples into series as they come, as run_series does, for readers that never hold the
// samples (a plan document judges 50,000 of them).
class SeriesBuilder {
public:
  void add(std::string_view params_json, std::string_view metric, std::string_view key, double value,
           std::string_view unit, core::SampleKind kind);
  // A later run's series: the result is run_series of both runs' samples one after the other.
  void add_series(const SeriesSummary& series);
  // The series so far, in the order they first appeared; the builder starts over.
  std::vector<SeriesSummary> take();

private:
  SeriesSummary& find_or_add(std::string_view metric, std::string_view params, std::string_view key,
                             std::string_view unit);

  std::vector<SeriesSummary> m_series;
  std::map<std::string, std::size_t, std::less<>> m_index; // by metric, params, key; once there are many
  std::string m_params_json;                               // of the sample before, and its label
  std::string m_params;
  std::vector<std::size_t> m_sizes_before; // the number of values of each series taken last
};
std::string params_label(const std::string& params_json);

} // namespace ej::evidence
