#pragma once

#include "measuring/run_loop.h"
#include "measuring/run_observer.h"
#include "run/slurm_job.h"
#include "store/journal.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

// `ej run --on slurm[:PARTITION]`: the repeats run as steps of one Slurm allocation.
namespace ej::measuring {

struct SlurmTarget {
  std::string partition;                // empty: the cluster's default
  std::vector<std::string> sbatch_args; // --slurm-arg, passed to sbatch as given
  std::string login_host;               // slurm@HOST: the ssh login host the cluster is reached through
  run::SlurmCommandVia via;             // how Slurm's commands reach it (empty: here)
};

// The one allocation the runs of a session measure in: a plain run's, or both sides of an
// interleaved one (`ej run --against --on slurm`), whose repeats are all steps of the same job.
// It submits (or uses the enclosing allocation), waits for it to run, says how the job's ending
// (TIMEOUT, FAILED, OUT_OF_MEMORY, PREEMPTED, NODE_FAIL, CANCELLED) ended the runs, and lets the
// job go, recording it in each run's outputs["slurm"] (id, partition, nodes, GPUs).
class SlurmRunJob {
public:
  // runs: the numbers of the runs it holds, the first naming the job (ej-run-N).
  SlurmRunJob(const SlurmTarget& target, std::vector<int> runs, RunObserver& observer);
  ~SlurmRunJob(); // the job cancelled, if release() did not
  SlurmRunJob(const SlurmRunJob&) = delete;
  SlurmRunJob& operator=(const SlurmRunJob&) = delete;

  // Submits and waits until the job runs (nullopt), or the ending of runs that measured nothing:
  // sbatch refused, the job ended first, or an interruption while it was pending.
  std::optional<RunOutcome> start();
  // "srun --jobid=J ..." before each repeat's command, once start() said the job runs.
  std::vector<std::string> step_prefix() const;
  // A run that did not finish because of its job (time limit, node failure, someone's scancel)
  // takes the job's ending, said as such; a benchmark that failed in a healthy job keeps its own.
  void say_ending(RunOutcome& outcome);
  // Cancels the job and records it in each outcome.
  void release(std::initializer_list<RunOutcome*> outcomes);

private:
  std::string runs_named() const;

  SlurmTarget m_target;
  std::vector<int> m_runs;
  RunObserver& m_observer;
  std::optional<run::SlurmAllocation> m_allocation;
  run::SlurmJobInfo m_job;
  bool m_running = false;
};

// A plain run in its own job: submitted, measured, its ending said and the job let go.
RunOutcome measure_on_slurm(store::Journal& journal, RunPlan plan, const SlurmTarget& target);

} // namespace ej::measuring
