#include "measuring/interleaved_pairs.h"

#include "measure/statistics.h"
#include "store/run_queries.h"

#include <map>
#include <optional>
#include <tuple>

namespace ej::measuring {

namespace {

using SeriesKey = std::tuple<std::string, std::string, std::string>; // params, metric, key

struct SideValues {
  std::map<int, std::map<SeriesKey, std::vector<double>>> by_repeat;
  std::map<SeriesKey, std::string> units;
};

// Every measured value of a run by repeat; aggregates a tool printed beside them (a mean line) and
// skipped values are not measurements.
SideValues side_values(store::Database& db, int run)
{
  SideValues out;
  for (const auto& sample : store::run_samples(db, run)) {
    if (sample.kind == core::SampleKind::Aggregate || sample.kind == core::SampleKind::Skipped) {
      continue;
    }
    SeriesKey key{sample.params, sample.metric, sample.key};
    out.by_repeat[sample.repeat][key].push_back(sample.value);
    out.units.emplace(key, sample.unit);
  }
  return out;
}

// The side's figure of each series in repeats [first, end): the median of their values.
std::map<SeriesKey, double> block_figures(const SideValues& side, int first, int end)
{
  std::map<SeriesKey, std::vector<double>> pooled;
  for (auto it = side.by_repeat.lower_bound(first); it != side.by_repeat.end() && it->first < end; ++it) {
    for (const auto& [key, values] : it->second) {
      auto& into = pooled[key];
      into.insert(into.end(), values.begin(), values.end());
    }
  }
  std::map<SeriesKey, double> out;
  for (const auto& [key, values] : pooled) {
    out.emplace(key, measure::median(values));
  }
  return out;
}

} // namespace

std::vector<PairedSeries>
paired_series(store::Database& db, int candidate_run, int reference_run,
              const std::vector<store::events::ComparisonInterleaved::Round>& rounds)
{
  const auto candidate = side_values(db, candidate_run);
  const auto reference = side_values(db, reference_run);
  std::map<SeriesKey, PairedSeries> series;
  for (const auto& round : rounds) {
    const auto c = block_figures(candidate, round.candidate_first, round.candidate_end);
    const auto r = block_figures(reference, round.reference_first_index, round.reference_end);
    for (const auto& [key, value] : c) {
      const auto other = r.find(key);
      if (other == r.end()) {
        continue;
      }
      auto& s = series[key];
      if (s.metric.empty()) {
        std::tie(s.params, s.metric, s.key) = key;
        s.unit = candidate.units.at(key);
      }
      s.candidate.push_back(value);
      s.reference.push_back(other->second);
    }
  }
  std::vector<PairedSeries> out;
  for (auto& [key, s] : series) {
    out.push_back(std::move(s));
  }
  return out;
}

} // namespace ej::measuring
