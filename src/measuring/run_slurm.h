#pragma once

#include "measuring/run_loop.h"
#include "run/slurm_job.h"
#include "store/journal.h"

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

// Submits (or uses the enclosing allocation), waits for it to run, measures the repeats in it and
// maps the job's ending (TIMEOUT, FAILED, OUT_OF_MEMORY, PREEMPTED, NODE_FAIL, CANCELLED) onto
// the run's status. The job's id, partition, nodes and GPUs are in outcome.outputs["slurm"].
RunOutcome measure_on_slurm(store::Journal& journal, RunPlan plan, const SlurmTarget& target);

} // namespace ej::measuring
