#pragma once

#include "core/run_records.h"
#include "git/repository.h"
#include "measuring/detach.h"
#include "measuring/run_devices.h"
#include "measuring/run_loop.h"
#include "measuring/run_observer.h"
#include "measuring/run_slurm.h"
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
  std::optional<int> repeat;
  std::optional<int> warmup;
  std::string prepare;  // a shell command before each repeat, untimed
  std::string gpus;     // as CUDA_VISIBLE_DEVICES takes them; empty: see chosen_gpus
  bool no_wait = false; // refuse busy GPUs instead of queueing
  std::string on;       // ssh:HOST or a host; empty: the benchmark's default, else here
  std::optional<SlurmTarget> slurm;
  bool no_build = false;
  DeviceOptions devices;
  std::string run_id;     // the id chosen for it before (--detach, ej rerun); empty: a new one
  bool echo = true;       // the benchmark's output live on ej's stdout/stderr
  bool echo_build = true; // the build step's
  bool progress = false;  // the observer draws a progress line: it is given the median
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
  RunSession(const RunSession&) = delete;
  RunSession& operator=(const RunSession&) = delete;

  // Ships the code state (read by the caller before the journal's write lock: it takes seconds),
  // captures the environment, records the run (numbered by the shared remote when
  // numbers_from_remote), builds, measures and records how it ended.
  RunResult run(const git::CodeState& code, bool numbers_from_remote, DetachedReport& detached);

private:
  store::Journal& m_journal;
  Workspace m_workspace;
  RunRequest m_request;
  RunObserver& m_observer;
  core::BenchRevision m_bench;
  RunPlan m_plan;
  run::GpuSet m_gpus;
  // Ctrl-C stops the benchmark, not ej: from the build step until the session goes, so that the
  // front end still says how the run ended after a signal.
  std::optional<run::InterruptGuard> m_interrupt_guard;
};

} // namespace ej::measuring
