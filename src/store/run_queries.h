#pragma once

#include "core/run_records.h"
#include "store/database.h"

#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// Typed reads of benchmarks, runs, samples, probes and baselines.
namespace ej::store {

std::vector<core::BenchRevision> list_benchmarks(Database& db); // current revision of each
std::optional<core::BenchRevision> find_benchmark(Database& db, const std::string& name);
std::optional<core::BenchRevision> find_bench_revision(Database& db, const std::string& name, int revision);
std::vector<core::BenchRevision> bench_revisions(Database& db, const std::string& name);

int next_run_number(Database& db);
// The local number of the run that event id started (0: none).
int number_of_run(Database& db, const std::string& id);
std::optional<core::RunRecord> find_run(Database& db, int number);

struct RunFilter {
  std::string bench;
  std::optional<int> attempt;
  std::string plan; // runs of the plan's attempts
  int limit = 0;
};
// Newest first.
std::vector<core::RunRecord> list_runs(Database& db, const RunFilter& filter);
// The benchmark the plan's attempts ran most (ties: the first by name); "" when they ran none.
std::string most_run_bench(Database& db, const std::string& plan);
std::vector<core::RunRecord> runs_with_status(Database& db, core::RunStatus status);
// The payload of the run.started event `event_id` (what the projection does not keep, such as the
// start time of the ej that owns the run); nullopt when there is no such event.
std::optional<nlohmann::json> run_started_payload(Database& db, const std::string& event_id);
std::vector<core::RepeatRecord> run_repeats(Database& db, int run);
// The measured (not warmup) repeats of a run whose GPUs were read.
std::vector<core::RepeatRecord> device_repeats(Database& db, int run);
// Wall and CPU (user + system) seconds of a run's measured repeats, summed in SQL.
struct RunTimes {
  double wall_s = 0;
  double cpu_s = 0;
};
RunTimes run_times(Database& db, int run);
std::vector<core::SampleRecord> run_samples(Database& db, int run);
// The unit the newest run of a benchmark stored a metric's samples in; nullopt when no run stored
// one with a unit (a metric whose unit only the output says is known from its first run).
std::optional<std::string> newest_sample_unit(Database& db, const std::string& bench,
                                              const std::string& metric);
// A sample as read, its texts valid only during the visit: for readers that keep less of it than
// a SampleRecord (a plan document keeps only each run's series).
struct SampleView {
  int run = 0;
  std::string_view params;
  std::string_view metric;
  std::string_view key;
  double value = 0;
  std::string_view unit;
  core::SampleKind kind = core::SampleKind::Sample;
};

// The samples of a run in the order of run_samples, one row at a time: a run of millions of
// samples is summarised without holding them as records.
void visit_run_samples(Database& db, int run, const std::function<void(const SampleView&)>& visit);

// One series of a run: its samples of a metric, parameters (as recorded, JSON) and key.
struct SeriesId {
  int run = 0;
  std::string_view params;
  std::string_view metric;
  std::string_view key;
};
enum class ValueOrder {
  Recorded,   // as run_samples has them
  Ascending,  // by value
  ByDistance, // |value - from|, ascending, in place of each value
};
// The measured values of a series (neither skipped nor aggregate) one at a time, in `order`: SQLite
// sorts them, spilling to a temporary file past its cache, so a summary of a run of millions of
// samples holds none of them.
void visit_series_values(Database& db, const SeriesId& series, ValueOrder order, double from,
                         const std::function<void(double)>& visit);

// The runs, samples and device repeats of a plan's attempts, read attempt by attempt through
// three statements kept open: a plan document of 100,000 runs holds one attempt's rows at a time,
// and reads each row once. Attempts are asked for in ascending order; rows of attempts skipped are
// passed over, and an attempt asked for after a later one reads nothing (read it directly).
class PlanStream {
public:
  PlanStream(Database& db, const std::string& plan);
  // The same for a few attempts of any plans (a listing that judges them): three statements instead
  // of three per run.
  static PlanStream of_attempts(Database& db, const std::vector<int>& attempts);

  // The attempt's runs, newest first, as list_runs (env_readings and outputs left null: judging
  // and documents never read them).
  std::vector<core::RunRecord> runs(int attempt);
  // Its samples, each run's together and in the order of run_samples, runs in ascending order.
  void samples(int attempt, const std::function<void(const SampleView&)>& visit);
  // Its measured repeats that read the GPUs' state (device_repeats), by run.
  std::map<int, std::vector<core::RepeatRecord>> device_repeats(int attempt);

private:
  PlanStream(Database& db, std::string_view numbers, std::string_view chosen, const std::string& value);

  struct Cursor {
    Cursor(Statement statement, int column) : select(std::move(statement)), attempt_column(column) {}
    Statement select;
    int attempt_column; // where each row says its attempt
    bool started = false;
    bool has_row = false;
    // Steps past the rows of earlier attempts: true while the current row is `attempt`'s.
    bool at(int attempt);
    void next();
  };
  Cursor m_runs;
  Cursor m_samples;
  Cursor m_devices;
};

std::vector<std::pair<std::string, nlohmann::json>> list_probes(Database& db);

std::vector<core::BaselineRecord> baseline_history(Database& db, const std::string& plan);

// A run's withdrawals and restorations (ej run withdraw [--undo]), oldest first.
std::vector<core::Withdrawal> run_withdrawals(Database& db, int run);
// The plans whose current baseline (of its benchmark) the run is.
std::vector<std::string> plans_with_current_baseline(Database& db, int run);
// Whether the run recorded a repeat (a warmup counts): a run cancelled while it queued has none.
bool measured_any_repeat(Database& db, int run);

// The runs of a benchmark as a history reads them, oldest first: every column of 10,000 runs,
// parsed, was most of what `ej history` cost.
std::vector<core::RunHead> bench_run_heads(Database& db, const std::string& bench);

// The benchmarks a plan's attempts ran or its baselines name, by name.
std::vector<std::string> plan_benchmarks(Database& db, const std::string& plan);

// The acknowledged steps of a benchmark (every benchmark's when bench is empty), oldest first.
std::vector<core::Acknowledgement> acknowledgements(Database& db, const std::string& bench = "");

// The samples of one metric of `runs` (ascending run numbers), each run's together, runs in
// ascending order: what a history reads. Runs numbered one after the other are read as one range of
// the samples table: a history's runs mostly are, and a seek per run was a fifth of the read.
void visit_runs_samples(Database& db, std::span<const int> runs, const std::string& metric,
                        const std::function<void(const SampleView&)>& visit);

} // namespace ej::store
