#pragma once

#include "core/run_states.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// A Slurm allocation that the repeats of a run execute in, one `srun` step each: the same node
// and GPUs for every repeat, the output streamed back by srun, the repeats' wall time measured by
// ej around each step. Submitted with `sbatch` (its batch script only holds the allocation), or
// the allocation ej already runs in (SLURM_JOB_ID, as inside salloc). Nothing but the Slurm
// client commands in PATH is needed; the cluster's filesystem must be this one.
namespace ej::run {

// What `scontrol show job -d -o` says of a job.
struct SlurmJobInfo {
  std::string id;
  std::string state;  // PENDING, RUNNING, COMPLETED, FAILED, TIMEOUT, CANCELLED, ...
  std::string reason; // Resources, Priority, TimeLimit, None...
  std::string partition;
  std::string nodes; // NodeList
  std::string gpus;  // the GRES of the allocation with device indexes ("gpu:2(IDX:0-1)"), or ""
  std::string time_limit;
  std::string exit_code; // "0:15": exit code, signal
};

SlurmJobInfo parse_scontrol_job(std::string_view text);

// How a job's state ends a run, when it does: (run status, reason). nullopt while the job is
// pending or running, or when it completed.
std::optional<std::pair<core::RunStatus, std::string>> run_ending_for(const SlurmJobInfo& job);

// Turns a Slurm client command (sbatch, scontrol, scancel) into the local argv that runs it: on
// a cluster reached through an ssh login host, an ssh through the run's connection. Empty: here.
using SlurmCommandVia = std::function<std::vector<std::string>(const std::vector<std::string>&)>;

class SlurmAllocation {
public:
  // Submits a job that holds an allocation (sbatch --parsable ... --wrap 'exec sleep infinity'),
  // in `partition` when not empty, with the user's sbatch options. Throws ej::Error when sbatch
  // refuses, with what it said.
  static SlurmAllocation submit(const std::string& partition, const std::vector<std::string>& sbatch_args,
                                const std::string& job_name, SlurmCommandVia via = {});
  // The allocation ej runs inside (SLURM_JOB_ID), when there is one; never cancelled by ej.
  static std::optional<SlurmAllocation> enclosing();

  SlurmAllocation(SlurmAllocation&& other) noexcept;
  SlurmAllocation& operator=(SlurmAllocation&&) = delete;
  SlurmAllocation(const SlurmAllocation&) = delete;
  SlurmAllocation& operator=(const SlurmAllocation&) = delete;
  ~SlurmAllocation(); // scancel, unless the job is not ej's own

  const std::string& job_id() const { return m_job; }
  // The job now; nullopt when Slurm no longer knows it.
  std::optional<SlurmJobInfo> info() const;
  // Waits until the job runs; calls on_pending with its state whenever it changes. Returns the
  // job then, or its final state when it ended first or when `interrupted` says to stop.
  SlurmJobInfo wait_running(const std::function<void(const SlurmJobInfo&)>& on_pending,
                            const std::function<bool()>& interrupted) const;
  // "srun --jobid=J --overlap ..." to put before a repeat's command.
  std::vector<std::string> step_prefix() const;
  // scancel now (idempotent).
  void cancel() noexcept;

private:
  SlurmAllocation(std::string job, bool owned, SlurmCommandVia via)
      : m_job(std::move(job)), m_owned(owned), m_via(std::move(via))
  {
  }

  std::string m_job;
  bool m_owned = true;
  SlurmCommandVia m_via;
};

} // namespace ej::run
