#include "measuring/run_slurm.h"

#include "core/numbering.h"
#include "run/signals.h"
#include "run/slurm_job.h"
#include "util/error.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <thread>

namespace ej::measuring {

namespace {

nlohmann::json job_json(const run::SlurmJobInfo& job)
{
  return {{"job", job.id},    {"partition", job.partition}, {"nodes", job.nodes},
          {"gpus", job.gpus}, {"state", job.state},         {"time_limit", job.time_limit}};
}

} // namespace

RunOutcome measure_on_slurm(store::Journal& journal, RunPlan plan, const SlurmTarget& target)
{
  // Inside salloc or a batch script here: that allocation. Through a login host: always a new job.
  auto allocation = target.login_host.empty() ? run::SlurmAllocation::enclosing() : std::nullopt;
  if (!allocation) {
    try {
      allocation.emplace(run::SlurmAllocation::submit(target.partition, target.sbatch_args,
                                                      fmt::format("ej-run-{}", plan.run_number), target.via));
    } catch (const Error& error) {
      RunOutcome refused; // the run is recorded already: it ends, saying why
      refused.status = core::RunStatus::Failed;
      refused.reason = error.what();
      return refused;
    }
  }
  const int number = plan.run_number;
  auto job = allocation->wait_running(
      [&](const run::SlurmJobInfo& pending) {
        plan.observer->message(fmt::format("ej: run {}: Slurm job {} is {} ({})", core::number_label(number),
                                           pending.id, pending.state, pending.reason));
      },
      [] { return run::InterruptGuard::interrupted(); });

  RunOutcome outcome;
  if (job.state == "RUNNING") {
    plan.observer->message(fmt::format("ej: run {} runs in Slurm job {} on {} (partition {}{})",
                                       core::number_label(number), job.id, job.nodes, job.partition,
                                       job.gpus.empty() ? "" : ", GPUs " + job.gpus));
    plan.launch_prefix = allocation->step_prefix();
    outcome = measure_run(journal, plan);
  } else if (run::InterruptGuard::interrupted()) {
    outcome.status = core::RunStatus::Interrupted;
    outcome.reason = fmt::format("interrupted while Slurm job {} was {} ({}); nothing was measured", job.id,
                                 job.state, job.reason);
  } else {
    const auto ending = run::run_ending_for(job);
    outcome.status = ending ? ending->first : core::RunStatus::Failed;
    outcome.reason =
        (ending ? ending->second : fmt::format("Slurm job {} ended {} before it ran", job.id, job.state)) +
        "; nothing was measured";
  }

  // A step that failed because of its job (time limit, node failure, someone's scancel) is the
  // job's ending, said as such; a benchmark that failed in a healthy job keeps its own.
  if (outcome.status != core::RunStatus::Finished && job.state == "RUNNING") {
    if (const auto now = allocation->info()) {
      job = *now;
      // Slurm says it ended the step ("*** STEP 1.0 ON node CANCELLED AT ... DUE TO TIME LIMIT ***")
      // before the job's state says why, and a loaded controller takes a while: wait for that, up to
      // 5 s. A benchmark that failed on its own is not waited for.
      const bool ended_by_slurm = outcome.reason.find("*** STEP ") != std::string::npos ||
                                  outcome.reason.find("*** JOB ") != std::string::npos;
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
      while (ended_by_slurm && !run::run_ending_for(job) && !run::InterruptGuard::interrupted() &&
             std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        if (const auto again = allocation->info()) {
          job = *again;
        }
      }
      if (const auto ending = run::run_ending_for(job);
          ending && !(outcome.status == core::RunStatus::Interrupted && run::InterruptGuard::interrupted())) {
        outcome.reason = ending->second + ": " + outcome.reason;
        outcome.status = ending->first;
      }
    }
  }
  if (outcome.status == core::RunStatus::Timeout || outcome.status == core::RunStatus::Interrupted) {
    outcome.reason += fmt::format("; Slurm job {} cancelled", job.id);
  }
  allocation->cancel();
  if (const auto last = allocation->info()) {
    job.state = last->state; // CANCELLED once ej has let it go
  }
  outcome.outputs["slurm"] = job_json(job);
  return outcome;
}

} // namespace ej::measuring
