#pragma once

#include "core/run_records.h"
#include "measure/value_list.h"
#include "measuring/run_observer.h"
#include "store/events.h"
#include "store/journal.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

// How the repeats of `ej run` reach the journal: kept typed and compact until written, written in
// batches of bounded size, so that neither memory nor a single event grows with what a benchmark
// prints.
namespace ej::measuring {

// A metric's values in one repeat, settled into one unit.
struct MetricValues {
  std::string metric;
  measure::ValueList values;
};

// One repeat as the journal's run.repeats event has it. Turning it into JSON happens once per batch.
struct PendingRepeat {
  core::RepeatRecord repeat;
  std::vector<core::SampleRecord> samples; // first: wall time (kind empty), always a sample
  std::vector<MetricValues> metrics;       // then each metric's values, in the definition's order

  std::size_t sample_count() const;
  // The run.repeats entry, with the repeat's first samples (k_inline_samples).
  store::events::Repeat to_event() const;
  // The samples past those, as run.samples events of at most k_samples_per_event values, in order.
  void write_rest(const std::string& run_id,
                  const std::function<void(store::events::RunSamples&)>& write) const;
};

// Writes repeats to the journal in batches: between two repeats once a second has passed since the
// last try or k_flush_samples samples are pending, and at the end of the run. Never while a child
// runs: its wall time ends when ej reaps it, and ej busy writing would reap it late.
class RepeatWriter {
public:
  RepeatWriter(store::Journal& journal, int run, std::string run_id, RunObserver& observer);

  // Throws once the journal has refused writes for so long that the repeats kept in memory
  // reach their bound: the run stops, saying what is kept.
  void add(PendingRepeat repeat);
  // "120 repeat(s) of run #4 are in the journal; the 300 measured after them could not be written".
  std::string kept_so_far() const;
  // Writes everything pending; throws when the journal refuses, saying what is kept and that the
  // run stays 'started' (at the end of a run, whose ending cannot be written either).
  void flush();

  // A repeat's samples past its first k_inline_samples go in run.samples events of at most
  // k_samples_per_event values; a batch is written once k_flush_samples are pending. So no event,
  // and no write, holds more than a few megabytes whatever the benchmark prints, while a repeat
  // of a few samples stays in one run.repeats entry, as every ej reads it.
  static constexpr std::size_t k_inline_samples = 1'000;
  static constexpr std::size_t k_samples_per_event = 10'000;
  static constexpr std::size_t k_flush_samples = 50'000;

private:
  void try_flush();
  void try_write(); // throws the journal's error

  store::Journal& m_journal;
  int m_run;
  std::string m_run_id;
  RunObserver& m_observer;
  // Kept while the journal refuses them, but not without end.
  static constexpr std::size_t k_max_pending = 100'000;
  static constexpr std::size_t k_max_pending_samples = 50'000'000;
  std::vector<PendingRepeat> m_pending;
  std::size_t m_pending_samples = 0;
  std::size_t m_written = 0;
  std::string m_last_error;
  std::int64_t m_last_try;
  bool m_warned = false;
  bool m_refused = false; // the last try failed: the next waits a second
};

} // namespace ej::measuring
