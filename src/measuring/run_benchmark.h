#pragma once

#include "core/run_records.h"
#include "git/repository.h"
#include "measuring/detach.h"
#include "measuring/progress_note.h"
#include "measuring/repeat_writer.h"
#include "measuring/run_devices.h"
#include "measuring/run_loop.h"
#include "measuring/run_observer.h"
#include "measuring/run_slurm.h"
#include "measuring/run_target.h"
#include "measuring/workspace.h"
#include "run/gpu_lock.h"
#include "run/signals.h"
#include "store/journal.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

// One run of a registered benchmark, from the request to its recorded ending: the benchmark read
// and checked, the code state shipped where it runs, the environment captured, the run recorded,
// built, measured (here, on a host or in a Slurm job, holding its GPUs) and its ending written.
// `ej run` is one front end; whatever else measures (ej rerun through it, bisect, an MCP server)
// drives the same session.
namespace ej::measuring {

// --param AXIS=V1,V2: only these values of the axis.
struct ParamChoice {
  std::string axis;
  std::vector<std::string> values;
};

struct RunRequest {
  std::string bench;
  std::optional<int> revision; // an earlier revision of the benchmark (ej rerun); nullopt: the latest
  std::optional<int> attempt;  // the attempt the results belong to
  std::vector<ParamChoice> params;
  std::vector<std::pair<std::string, std::string>> env; // --env, with their values
  std::string label;
  RepeatOptions repeats;
  std::string gpus;     // as CUDA_VISIBLE_DEVICES takes them; empty: see chosen_gpus
  bool no_wait = false; // refuse busy GPUs instead of queueing
  std::string on;       // ssh:HOST or a host; empty: the benchmark's default, else here
  std::optional<SlurmTarget> slurm;
  bool no_build = false;
  DeviceOptions devices;
  std::string run_id; // the id chosen for it before (--detach, ej rerun); empty: a new one
  // The GPUs are held by the other session of an interleaved run (interleaved_run.h): this one
  // takes no lock of its own, which would wait for that one forever.
  bool gpus_held_by_other = false;
  // The caller holds the run::InterruptGuard (one at a time: an interleaved session's two runs
  // share the caller's).
  bool guarded_by_caller = false;
};

struct RunResult {
  int run = 0;
  core::RunStatus status =
      core::RunStatus::Finished; // or failed, timeout, extract-error, interrupted, build-failed
  std::string reason;            // secrets hidden
};

class RunSession {
public:
  // Reads the benchmark and checks the request against it (throws ej::Error or UsageError saying
  // what to do); nothing is recorded yet, and the GPUs are tried, so --no-wait leaves no run behind.
  RunSession(store::Journal& journal, const Workspace& workspace, const RunRequest& request,
             RunObserver& observer);
  ~RunSession();
  RunSession(const RunSession&) = delete;
  RunSession& operator=(const RunSession&) = delete;

  // Ships the code state (read by the caller before the journal's write lock: it takes seconds),
  // captures the environment, records the run (numbered by the shared remote when
  // numbers_from_remote), builds, measures and records how it ended.
  RunResult run(const git::CodeState& code, bool numbers_from_remote, DetachedReport& detached);

  // run() in phases, for a front end that measures two sessions in turns (interleaved_run.h):
  // start() ships, records and builds (false when the build failed: finish(build_failure()) next);
  // measure_block() measures one combination's warmups and repeats where the run runs (on Slurm:
  // as steps of the job set_launch_prefix() names), after the last block's, waiting for the GPUs at
  // the first one, its processes in the session's `containment` (null: the block's own); finish()
  // records how the run ended.
  bool start(const git::CodeState& code, bool numbers_from_remote, DetachedReport& detached);
  RunOutcome build_failure() const;
  RunOutcome measure_block(const core::ParamValues& combination, int warmups, int repeats,
                           run::RunContainment* containment, std::vector<std::string>& said);
  // Writes the repeats the blocks measured so far (once a second otherwise): before reading them.
  void flush_repeats();
  RunResult finish(RunOutcome outcome);
  int run_number() const { return m_plan.run_number; }
  int next_repeat_index() const { return m_next_index; }
  const std::string& run_id() const { return m_plan.run_id; }
  const RunPlan& plan() const { return m_plan; }
  const core::BenchRevision& bench() const { return m_bench; }
  // Before start(): the label the run is recorded with (an interleaved reference names its candidate).
  void set_label(std::string label) { m_request.label = std::move(label); }
  // After start(): the Slurm job --on asked for (with the way to its login host), if any. The
  // session that drives the blocks holds that job (SlurmRunJob) and gives its step prefix here.
  const std::optional<SlurmTarget>& slurm() const { return m_slurm; }
  void set_launch_prefix(std::vector<std::string> prefix) { m_plan.launch_prefix = std::move(prefix); }

private:
  store::Journal& m_journal;
  Workspace m_workspace;
  RunRequest m_request;
  RunObserver& m_observer;
  ProgressRecorder m_progress{m_observer}; // hears the run for m_observer, and keeps its progress note
  core::BenchRevision m_bench;
  RunPlan m_plan;
  run::GpuSet m_gpus;
  // Set by start(), for the phases after it.
  std::unique_ptr<RunTarget> m_target;
  std::optional<SlurmTarget> m_slurm;
  run::LockTicket m_ticket;
  std::unique_ptr<run::GpuLock> m_gpu_lock;
  bool m_locks_gpus = false;
  BuildReport m_build;
  int m_next_index = 0;                 // of the next repeat measure_block() records
  std::optional<RunDevices> m_devices;  // measure_block()'s, from the first block on
  run::Leftovers m_leftovers;           // what the blocks so far left running, all of them
  std::optional<RepeatWriter> m_writer; // the blocks' repeats, written in batches across blocks
  // Ctrl-C stops the benchmark, not ej: from the build step until the session goes, so that the
  // front end still says how the run ended after a signal.
  std::optional<run::InterruptGuard> m_interrupt_guard;
};

} // namespace ej::measuring
