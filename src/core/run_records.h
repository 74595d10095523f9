#pragma once

#include "core/device_state.h"
#include "core/git_context.h"
#include "core/run_states.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// Benchmarks, runs and baselines as plain values read from the store.
namespace ej::core {

struct BenchRevision {
  std::string name;
  int revision = 0;
  nlohmann::json definition; // command, cwd, env, params, repeat policy, metrics...
  std::int64_t created_ms = 0;
  std::string event_id; // of the bench.added/bench.edited event that made it
};

struct RunRecord {
  int number = 0;
  std::string id;
  std::string bench;
  int revision = 0;
  std::optional<int> attempt;
  RunStatus status = RunStatus::Started;
  std::string reason;
  std::string label;
  nlohmann::json params; // the axis values chosen for the run
  std::int64_t started_ms = 0;
  std::int64_t ended_ms = 0;
  GitContext git;
  std::string env_blob;        // hash of the environment fingerprint (content-addressed)
  nlohmann::json env_readings; // volatile readings: power, temperature, clocks
  std::string host;
  std::int64_t pid = 0;
  std::string boot_id;
  std::string source;     // where an imported run's figures came from
  nlohmann::json outputs; // captured stdout/stderr blobs and byte counts
  // Withdrawn (ej run withdraw): kept, shown as withdrawn, never judged nor in documents.
  std::int64_t withdrawn_ms = 0; // when; 0: not withdrawn
  std::string withdrawn_reason;

  bool withdrawn() const { return withdrawn_ms != 0; }
};

// What a history reads of a run (store::bench_run_heads): a RunRecord's every member, for each of
// 10,000 runs, cost more than the rest of the read.
struct RunHead {
  int number = 0;
  int revision = 0;
  RunStatus status = RunStatus::Started;
  bool withdrawn = false;
  GitContext git;
  std::string env_blob; // hash of the environment fingerprint
};

// One withdrawal of a run, or its restoration.
struct Withdrawal {
  std::int64_t time_ms = 0;
  bool withdrawn = true; // false: restored
  std::string reason;
};

struct RepeatRecord {
  int index = 0;
  std::string params; // JSON of the axis values of this repeat
  bool warmup = false;
  RepeatEnding ending = RepeatEnding::Exited;
  int exit_code = 0;
  int signal = 0;
  double wall_s = 0;
  double user_s = 0;
  double sys_s = 0;
  std::int64_t max_rss_kb = 0;
  DeviceState device; // the GPUs during the repeat; empty when none was read
};

struct SampleRecord {
  int repeat = 0;
  std::string params;
  std::string metric;
  std::string key;
  double value = 0;
  std::string unit;
  SampleKind kind = SampleKind::Sample;
};

struct BaselineRecord {
  std::string plan;
  std::string bench;
  int run = 0;
  std::int64_t time_ms = 0;
  std::string reason;
  std::string event_id; // of the baseline.pinned event: what a reason given later names
};

// A step of a benchmark's history acknowledged as expected (ej ack).
struct Acknowledgement {
  std::string event_id;
  std::string bench;
  std::string metric; // empty: every metric
  std::string commit; // full hex id
  std::string reason;
  std::int64_t time_ms = 0;
};

// ej bisect's answer for a step of a benchmark's history (the step.located event).
struct LocatedStep {
  struct Skipped {
    std::string commit;
    std::string why; // "the build failed (run #12)", "inconclusive after 30 rounds"
  };
  std::string event_id;
  std::string bench;
  std::string metric;
  std::string params;    // the combinations bisected ("n=1"), "" for all
  std::string good, bad; // full hex ids: the two ends measured
  std::string first_bad; // the first commit of the step; empty when skipped commits leave a range
  std::vector<std::string> candidates; // the commits the first bad one may be, oldest first
  std::vector<Skipped> skipped;
  double min_effect_pct = 0; // the band the commits were judged in (half the step)
  // candidates.back() against GOOD: the runs (0 where this journal lacks them) and the change, on
  // the paired scale (log ratio, else a difference in `unit`).
  int candidate_run = 0, reference_run = 0;
  bool log_ratio = true;
  double estimate = 0, low = 0, high = 0;
  std::string unit;
  std::int64_t time_ms = 0;
};

} // namespace ej::core
