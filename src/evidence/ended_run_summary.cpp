#include "evidence/ended_run_summary.h"

#include "core/numbering.h"
#include "evidence/reader.h"
#include "evidence/run_summary.h"
#include "evidence/series.h"
#include "measure/streamed_summary.h"
#include "store/run_queries.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <map>
#include <vector>

namespace ej::evidence {

namespace {

// A run's series as SeriesBuilder groups them, without their values: each is summarized from the
// journal (visit_series_values), so that the summary of a run holds no memory per sample, however
// many repeats of however many values it has.
class SeriesShapes {
public:
  void add(const store::SampleView& sample)
  {
    if (sample.params != m_params_json) {
      m_params_json = sample.params;
      m_params = params_label(m_params_json);
    }
    auto id = fmt::format("{}:{}:{}{}{}", sample.metric.size(), m_params.size(), sample.metric, m_params,
                          sample.key);
    auto [found, added] = m_index.emplace(std::move(id), m_series.size());
    if (added) {
      m_series.push_back({std::string(sample.metric),
                          m_params,
                          std::string(sample.key),
                          std::string(sample.unit),
                          {},
                          0,
                          0});
      m_measured.push_back(0);
      m_params_json_of.push_back(m_params_json);
    }
    const auto i = found->second;
    auto& s = m_series[i];
    if (s.unit.empty()) {
      s.unit = sample.unit; // a skipped state may come first, without a unit
    }
    if (sample.kind == core::SampleKind::Skipped) {
      ++s.skipped;
    } else if (sample.kind == core::SampleKind::Aggregate) {
      ++s.aggregates;
    } else {
      ++m_measured[i];
    }
  }
  const std::vector<SeriesSummary>& series() const { return m_series; }
  std::size_t measured(const SeriesSummary& s) const { return m_measured[index_of(s)]; }
  const std::string& params_json(const SeriesSummary& s) const { return m_params_json_of[index_of(s)]; }

private:
  std::size_t index_of(const SeriesSummary& s) const
  {
    return static_cast<std::size_t>(&s - m_series.data());
  }

  std::vector<SeriesSummary> m_series; // values left empty
  std::vector<std::size_t> m_measured;
  std::vector<std::string> m_params_json_of; // as the samples table has it, to read the values by
  std::map<std::string, std::size_t, std::less<>> m_index;
  std::string m_params_json;
  std::string m_params;
};

// A series of at most this many values is summarized in memory, one series at a time (4 MB with
// summarize's sorted copy); a larger one in passes over the journal, about three times slower.
constexpr std::size_t k_held_values = 250'000;

} // namespace

std::string ended_run_summary(store::Journal& journal, int run_id)
{
  const auto run = store::find_run(journal.db(), run_id);
  if (!run) {
    return "";
  }
  // The id may be the run's provisional one (`@k3f9qx`, which keeps naming it after it got its
  // number): its repeats and samples are kept under the number.
  const int number = run->number;
  const auto repeats = store::run_repeats(journal.db(), number);
  // A repeat cut short by the interruption measured nothing: it is said apart, so that the count
  // agrees with the n of the summary below.
  std::size_t measured = 0;
  std::size_t cut_short = 0;
  for (const auto& repeat : repeats) {
    if (!repeat.warmup) {
      (repeat.ending == core::RepeatEnding::Interrupted ? cut_short : measured) += 1;
    }
  }
  auto text = fmt::format("run {} {} {}: {} repeat(s){}{}\n", core::number_label(run->number), run->bench,
                          core::to_string(run->status), measured,
                          cut_short > 0 ? fmt::format(" and {} cut short", cut_short) : "",
                          run->reason.empty() ? "" : " — " + util::first_line(run->reason, 200));
  Reader reader(journal);
  SeriesShapes shapes;
  store::visit_run_samples(journal.db(), number,
                           [&shapes](const store::SampleView& sample) { shapes.add(sample); });
  const auto summarize = [&](const SeriesSummary& s,
                             measure::Direction direction) -> std::optional<measure::Summary> {
    if (shapes.measured(s) == 0) {
      return std::nullopt;
    }
    const store::SeriesId id{number, shapes.params_json(s), s.metric, s.key};
    if (shapes.measured(s) <= k_held_values) {
      std::vector<double> values;
      values.reserve(shapes.measured(s));
      store::visit_series_values(journal.db(), id, store::ValueOrder::Recorded, 0,
                                 [&values](double value) { values.push_back(value); });
      return measure::summarize(values, direction);
    }
    return measure::summarize_streamed(
        [&](measure::SampleOrder order, double from, const std::function<void(double)>& each) {
          const auto value_order = order == measure::SampleOrder::Recorded    ? store::ValueOrder::Recorded
                                   : order == measure::SampleOrder::Ascending ? store::ValueOrder::Ascending
                                                                              : store::ValueOrder::ByDistance;
          store::visit_series_values(journal.db(), id, value_order, from, each);
        },
        direction);
  };
  return text + run_summary_text(shapes.series(), reader.rules(run->bench, run->revision), summarize);
}

} // namespace ej::evidence
