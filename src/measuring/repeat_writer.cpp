#include "measuring/repeat_writer.h"

#include "core/numbering.h"
#include "util/error.h"
#include "util/time.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

namespace ej::measuring {

namespace {

using nlohmann::json;

// Samples are committed at least this often, so a killed ej loses at most this much work, while
// a fast benchmark does not pay an fsync per repeat.
constexpr std::int64_t k_flush_interval_ns = 1'000'000'000;
constexpr std::size_t k_inline_samples = RepeatWriter::k_inline_samples;
constexpr std::size_t k_samples_per_event = RepeatWriter::k_samples_per_event;
constexpr std::size_t k_flush_samples = RepeatWriter::k_flush_samples;

core::SampleKind kind_of(const measure::ValueList::Label& label)
{
  return label.skipped     ? core::SampleKind::Skipped
         : label.aggregate ? core::SampleKind::Aggregate
                           : core::SampleKind::Sample;
}

// The run.samples events of one repeat, built value by value, each handed on once full.
class SampleBatches {
public:
  SampleBatches(const std::string& run_id, int index, std::int64_t first,
                const std::function<void(store::events::RunSamples&)>& write)
      : m_write(write)
  {
    m_batch.run = store::events::Ref::to(run_id);
    m_batch.index = index;
    m_batch.first = first;
  }

  void add(const std::string& metric, const measure::ValueList::Label& label, double value)
  {
    if (m_last_metric != &metric || m_last_label != &label) {
      m_last_metric = &metric;
      m_last_label = &label;
      const auto name =
          metric + '\0' + label.key + '\0' + label.unit + '\0' + std::string(core::to_string(kind_of(label)));
      const auto [it, added] = m_labels.emplace(name, static_cast<std::uint32_t>(m_batch.labels.size()));
      if (added) {
        m_batch.labels.push_back({metric, label.key, label.unit, kind_of(label)});
      }
      m_label = it->second;
    }
    m_batch.values.push_back(value);
    m_label_of.push_back(m_label);
    if (m_batch.values.size() >= k_samples_per_event) {
      finish();
    }
  }

  void finish()
  {
    if (m_batch.values.empty()) {
      return;
    }
    if (m_batch.labels.size() > 1) {
      m_batch.label_of = std::move(m_label_of);
    }
    m_write(m_batch);
    m_batch.first += static_cast<std::int64_t>(m_batch.values.size());
    m_batch.values.clear();
    m_batch.labels.clear();
    m_batch.label_of.clear();
    m_label_of.clear();
    m_labels.clear();
    m_last_metric = nullptr;
    m_last_label = nullptr;
  }

private:
  const std::function<void(store::events::RunSamples&)>& m_write;
  store::events::RunSamples m_batch;
  std::vector<std::uint32_t> m_label_of;
  std::unordered_map<std::string, std::uint32_t> m_labels;
  const std::string* m_last_metric = nullptr;
  const measure::ValueList::Label* m_last_label = nullptr;
  std::uint32_t m_label = 0;
};

} // namespace

std::size_t PendingRepeat::sample_count() const
{
  std::size_t count = samples.size();
  for (const auto& metric : metrics) {
    count += metric.values.size();
  }
  return count;
}

store::events::Repeat PendingRepeat::to_event() const
{
  store::events::Repeat out;
  out.index = repeat.index;
  out.params = json::parse(repeat.params);
  out.warmup = repeat.warmup;
  out.ending = repeat.ending;
  out.exit_code = repeat.exit_code;
  out.signal = repeat.signal;
  out.wall_s = repeat.wall_s;
  out.user_s = repeat.user_s;
  out.sys_s = repeat.sys_s;
  out.max_rss_kb = repeat.max_rss_kb;
  out.device = repeat.device;
  out.samples.reserve(std::min(sample_count(), k_inline_samples));
  for (const auto& sample : samples) {
    out.samples.push_back({sample.metric, sample.key, sample.value, sample.unit, sample.kind});
  }
  for (const auto& metric : metrics) {
    for (const auto& run : metric.values.runs()) {
      for (const double value : run.values) {
        if (out.samples.size() >= k_inline_samples) {
          return out;
        }
        out.samples.push_back({metric.metric, run.label.key, value, run.label.unit, kind_of(run.label)});
      }
    }
  }
  return out;
}

void PendingRepeat::write_rest(const std::string& run_id,
                               const std::function<void(store::events::RunSamples&)>& write) const
{
  if (sample_count() <= k_inline_samples) {
    return;
  }
  std::size_t seen = samples.size();
  SampleBatches batches(run_id, repeat.index, static_cast<std::int64_t>(k_inline_samples), write);
  for (const auto& metric : metrics) {
    for (const auto& run : metric.values.runs()) {
      // Runs wholly inline are skipped at once: only the one that crosses the line is walked.
      if (seen + run.values.size() <= k_inline_samples) {
        seen += run.values.size();
        continue;
      }
      const auto from = seen < k_inline_samples ? k_inline_samples - seen : 0;
      seen += run.values.size();
      for (const double value : run.values.subspan(from)) {
        batches.add(metric.metric, run.label, value);
      }
    }
  }
  batches.finish();
}

RepeatWriter::RepeatWriter(store::Journal& journal, int run, std::string run_id, RunObserver& observer)
    : m_journal(journal), m_run(run), m_run_id(std::move(run_id)), m_observer(observer),
      m_last_try(util::monotonic_ns())
{
}

void RepeatWriter::add(PendingRepeat repeat)
{
  m_pending_samples += repeat.sample_count();
  m_pending.push_back(std::move(repeat));
  if (util::monotonic_ns() - m_last_try >= k_flush_interval_ns ||
      (m_pending_samples >= k_flush_samples && !m_refused)) {
    try_flush();
  }
  // Kept in memory while the journal refuses them, but not without end: past the bound the run
  // stops at once, saying what is kept.
  if (m_pending.size() > k_max_pending || m_pending_samples > k_max_pending_samples) {
    throw Error("the journal has refused every write for a while ({}); ej stops measuring: {}", m_last_error,
                kept_so_far());
  }
}

std::string RepeatWriter::kept_so_far() const
{
  return fmt::format(
      "{} repeat(s) of run {} are in the journal; the {} measured after them could not be written", m_written,
      core::number_label(m_run), m_pending.size());
}

void RepeatWriter::flush()
{
  try {
    try_write();
  } catch (const Error& error) {
    throw Error("{}; {}. The run stays 'started' until an ej that can write marks it interrupted",
                error.what(), kept_so_far());
  }
}

void RepeatWriter::try_write()
{
  if (m_pending.empty()) {
    return;
  }
  m_journal.write([&](store::Writer& writer) {
    store::events::RunRepeats batch;
    batch.run = store::events::Ref::to(m_run_id);
    batch.repeats.reserve(m_pending.size());
    for (const auto& repeat : m_pending) {
      batch.repeats.push_back(repeat.to_event());
    }
    writer.append(batch);
    const std::function<void(store::events::RunSamples&)> write = [&writer](store::events::RunSamples& rest) {
      writer.append(rest);
    };
    for (const auto& repeat : m_pending) {
      repeat.write_rest(m_run_id, write);
    }
  });
  m_written += m_pending.size();
  m_pending.clear(); // only once written: a refused write keeps them for the next try
  m_pending_samples = 0;
  m_refused = false;
  m_last_try = util::monotonic_ns();
}

// During a run, a journal that cannot be written now (another writer holding it past ej's wait,
// a full disk) does not end the run: the repeats stay in memory and the next try comes a second
// later. Said once on stderr.
void RepeatWriter::try_flush()
{
  try {
    try_write();
  } catch (const Error& error) {
    m_last_error = error.what();
    m_refused = true;                  // the next try a second later, not at the next repeat
    m_last_try = util::monotonic_ns(); // then a second of measuring, however long this try waited
    if (!m_warned) {
      m_warned = true;
      m_observer.message(
          fmt::format("ej: the repeats cannot be written to the journal yet ({}); ej keeps them and "
                      "tries again a second after each refusal",
                      error.what()));
    }
  }
}

} // namespace ej::measuring
