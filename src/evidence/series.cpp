#include "evidence/series.h"

#include "core/bench_definition.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <utility>

namespace ej::evidence {

std::string params_label(const std::string& params_json)
{
  if (params_json.empty() || params_json == "{}") {
    return "";
  }
  core::ParamValues values;
  const auto parsed = nlohmann::json::parse(params_json); // kept alive for the loop
  for (const auto& [name, value] : parsed.items()) {
    values[name] = value.is_string() ? value.get<std::string>() : value.dump();
  }
  return core::describe(values);
}

namespace {

// Below this many series a run's are searched in turn; above, through an index.
constexpr std::size_t k_series_scanned = 16;

// Lengths first, so that no two different triples give the same key.
std::string index_key(std::string_view metric, std::string_view params, std::string_view key)
{
  return fmt::format("{}:{}:{}{}{}", metric.size(), params.size(), metric, params, key);
}

} // namespace

SeriesSummary& SeriesBuilder::find_or_add(std::string_view metric, std::string_view params,
                                          std::string_view key, std::string_view unit)
{
  if (m_series.size() <= k_series_scanned) {
    for (auto& s : m_series) {
      if (s.metric == metric && s.params == params && s.key == key) {
        return s;
      }
    }
  } else {
    if (m_index.empty()) {
      for (std::size_t i = 0; i < m_series.size(); ++i) {
        m_index.emplace(index_key(m_series[i].metric, m_series[i].params, m_series[i].key), i);
      }
    }
    auto id = index_key(metric, params, key);
    const auto found = m_index.find(id);
    if (found != m_index.end()) {
      return m_series[found->second];
    }
    m_index.emplace(std::move(id), m_series.size());
  }
  m_series.push_back(
      {std::string(metric), std::string(params), std::string(key), std::string(unit), {}, 0, 0});
  // Room for as many values as the same series of the run before had: a benchmark's runs mostly
  // have as many repeats, and growing one by one allocated four times for five values.
  if (m_series.size() <= m_sizes_before.size()) {
    m_series.back().values.reserve(m_sizes_before[m_series.size() - 1]);
  }
  return m_series.back();
}

void SeriesBuilder::add(std::string_view params_json, std::string_view metric, std::string_view key,
                        double value, std::string_view unit, core::SampleKind kind)
{
  if (params_json != m_params_json) {
    m_params = params_label(std::string(params_json));
    m_params_json = params_json;
  }
  auto& s = find_or_add(metric, m_params, key, unit);
  if (s.unit.empty()) {
    s.unit = unit; // a skipped state may come first, without a unit
  }
  if (kind == core::SampleKind::Skipped) {
    ++s.skipped;
  } else if (kind == core::SampleKind::Aggregate) {
    ++s.aggregates;
  } else {
    s.values.push_back(value);
  }
}

void SeriesBuilder::add_series(const SeriesSummary& series)
{
  auto& s = find_or_add(series.metric, series.params, series.key, series.unit);
  if (s.unit.empty()) {
    s.unit = series.unit;
  }
  s.values.insert(s.values.end(), series.values.begin(), series.values.end());
  s.skipped += series.skipped;
  s.aggregates += series.aggregates;
}

std::vector<SeriesSummary> SeriesBuilder::take()
{
  m_index.clear();
  m_sizes_before.clear();
  for (const auto& s : m_series) {
    m_sizes_before.push_back(s.values.size());
  }
  return std::exchange(m_series, {});
}

std::vector<SeriesSummary> run_series(const std::vector<core::SampleRecord>& samples)
{
  SeriesBuilder builder;
  for (const auto& sample : samples) {
    builder.add(sample.params, sample.metric, sample.key, sample.value, sample.unit, sample.kind);
  }
  return builder.take();
}

} // namespace ej::evidence
