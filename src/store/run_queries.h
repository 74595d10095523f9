#pragma once

#include "core/run_records.h"
#include "store/database.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
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
std::vector<core::RunRecord> runs_with_status(Database& db, const std::string& status);
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
// Every run of a plan's attempts, by attempt, newest first: list_runs grouped as it is read, for
// judging and documents: env_readings and outputs are left empty (null).
std::map<int, std::vector<core::RunRecord>> plan_runs(Database& db, const std::string& plan);

// A sample as read, its texts valid only during the visit: for readers that keep less of it than
// a SampleRecord (a plan document keeps only each run's series).
struct SampleView {
  int run = 0;
  std::string_view params;
  std::string_view metric;
  std::string_view key;
  double value = 0;
  std::string_view unit;
  std::string_view kind;
};
// Every sample of the runs of a plan's attempts, one query instead of one per run: each run's
// samples together and in the order of run_samples, runs by attempt then number; one visit each.
void for_each_plan_sample(Database& db, const std::string& plan,
                          const std::function<void(const SampleView&)>& visit);

std::vector<std::pair<std::string, nlohmann::json>> list_probes(Database& db);

std::vector<core::BaselineRecord> baseline_history(Database& db, const std::string& plan);

} // namespace ej::store
