#pragma once

#include "core/run_records.h"
#include "store/database.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

// Typed reads of benchmarks, runs, samples, probes and baselines.
namespace ej::store {

std::vector<core::BenchRevision> list_benchmarks(Database& db); // current revision of each
std::optional<core::BenchRevision> find_benchmark(Database& db, const std::string& name);
std::optional<core::BenchRevision> find_bench_revision(Database& db, const std::string& name, int revision);
std::vector<core::BenchRevision> bench_revisions(Database& db, const std::string& name);

int next_run_number(Database& db);
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
std::vector<core::RepeatRecord> run_repeats(Database& db, int run);
std::vector<core::SampleRecord> run_samples(Database& db, int run);
// Every run of a plan's attempts, by attempt, newest first: list_runs grouped as it is read.
std::map<int, std::vector<core::RunRecord>> plan_runs(Database& db, const std::string& plan);
// Every sample of the runs of a plan's attempts, by run: one query instead of one per run.
std::map<int, std::vector<core::SampleRecord>> plan_samples(Database& db, const std::string& plan);

std::vector<std::pair<std::string, nlohmann::json>> list_probes(Database& db);

std::vector<core::BaselineRecord> baseline_history(Database& db, const std::string& plan);

} // namespace ej::store
