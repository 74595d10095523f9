#include "measuring/run_slurm.h"

#include "core/numbering.h"
#include "run/signals.h"
#include "util/error.h"

#include <fmt/format.h>

#include <chrono>
#include <thread>

namespace ej::measuring {

namespace {

nlohmann::json job_json(const run::SlurmJobInfo& job)
{
  return {{"job", job.id},    {"partition", job.partition}, {"nodes", job.nodes},
          {"gpus", job.gpus}, {"state", job.state},         {"time_limit", job.time_limit}};
}

} // namespace

SlurmRunJob::SlurmRunJob(const SlurmTarget& target, std::vector<int> runs, RunObserver& observer)
    : m_target(target), m_runs(std::move(runs)), m_observer(observer)
{
}

SlurmRunJob::~SlurmRunJob() = default;

std::string SlurmRunJob::runs_named() const
{
  if (m_runs.size() == 2) {
    return fmt::format("runs {} and {}", core::number_label(m_runs[0]), core::number_label(m_runs[1]));
  }
  return "run " + core::number_label(m_runs.at(0));
}

std::optional<RunOutcome> SlurmRunJob::start()
{
  // Inside salloc or a batch script here: that allocation. Through a login host: always a new job.
  if (m_target.login_host.empty()) {
    if (auto enclosing = run::SlurmAllocation::enclosing()) {
      m_allocation.emplace(std::move(*enclosing));
    }
  }
  if (!m_allocation) {
    try {
      m_allocation.emplace(run::SlurmAllocation::submit(
          m_target.partition, m_target.sbatch_args, fmt::format("ej-run-{}", m_runs.at(0)), m_target.via));
    } catch (const Error& error) {
      RunOutcome refused; // the runs are recorded already: they end, saying why
      refused.status = core::RunStatus::Failed;
      refused.reason = error.what();
      return refused;
    }
  }
  const auto runs = runs_named();
  m_job = m_allocation->wait_running(
      [&](const run::SlurmJobInfo& pending) {
        m_observer.message(
            fmt::format("ej: {}: Slurm job {} is {} ({})", runs, pending.id, pending.state, pending.reason));
      },
      [] { return run::InterruptGuard::interrupted(); });
  m_running = m_job.state == "RUNNING";
  if (m_running) {
    m_observer.message(fmt::format("ej: {} {} in Slurm job {} on {} (partition {}{})", runs,
                                   m_runs.size() == 1 ? "runs" : "run", m_job.id, m_job.nodes,
                                   m_job.partition, m_job.gpus.empty() ? "" : ", GPUs " + m_job.gpus));
    return std::nullopt;
  }
  RunOutcome outcome;
  if (run::InterruptGuard::interrupted()) {
    outcome.status = core::RunStatus::Interrupted;
    outcome.reason = fmt::format("interrupted while Slurm job {} was {} ({}); nothing was measured", m_job.id,
                                 m_job.state, m_job.reason);
  } else {
    const auto ending = run::run_ending_for(m_job);
    outcome.status = ending ? ending->first : core::RunStatus::Failed;
    outcome.reason = (ending ? ending->second
                             : fmt::format("Slurm job {} ended {} before it ran", m_job.id, m_job.state)) +
                     "; nothing was measured";
  }
  return outcome;
}

std::vector<std::string> SlurmRunJob::step_prefix() const
{
  return m_allocation->step_prefix();
}

void SlurmRunJob::say_ending(RunOutcome& outcome)
{
  if (outcome.status == core::RunStatus::Finished || !m_running) {
    return;
  }
  const auto now = m_allocation->info();
  if (!now) {
    return;
  }
  m_job = *now;
  // Slurm says it ended the step ("*** STEP 1.0 ON node CANCELLED AT ... DUE TO TIME LIMIT ***")
  // before the job's state says why, and a loaded controller takes a while: wait for that, up to
  // 20 s (5 s was missed on a loaded 2-core machine). A benchmark that failed on its own is not
  // waited for: only a step Slurm said it ended.
  const bool ended_by_slurm = outcome.reason.find("*** STEP ") != std::string::npos ||
                              outcome.reason.find("*** JOB ") != std::string::npos;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (ended_by_slurm && !run::run_ending_for(m_job) && !run::InterruptGuard::interrupted() &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (const auto again = m_allocation->info()) {
      m_job = *again;
    }
  }
  if (const auto ending = run::run_ending_for(m_job);
      ending && !(outcome.status == core::RunStatus::Interrupted && run::InterruptGuard::interrupted())) {
    outcome.reason = ending->second + ": " + outcome.reason;
    outcome.status = ending->first;
  }
}

void SlurmRunJob::release(std::initializer_list<RunOutcome*> outcomes)
{
  if (!m_allocation) {
    return; // sbatch refused it: there is no job
  }
  for (auto* outcome : outcomes) {
    if (outcome->status == core::RunStatus::Timeout || outcome->status == core::RunStatus::Interrupted) {
      outcome->reason += fmt::format("; Slurm job {} cancelled", m_job.id);
    }
  }
  m_allocation->cancel();
  if (const auto last = m_allocation->info()) {
    m_job.state = last->state; // CANCELLED once ej has let it go
  }
  for (auto* outcome : outcomes) {
    outcome->outputs["slurm"] = job_json(m_job);
  }
}

RunOutcome measure_on_slurm(store::Journal& journal, RunPlan plan, const SlurmTarget& target)
{
  SlurmRunJob job(target, {plan.run_number}, *plan.observer);
  auto outcome = job.start();
  if (!outcome) {
    plan.launch_prefix = job.step_prefix();
    outcome = measure_run(journal, plan);
    job.say_ending(*outcome);
  }
  job.release({&*outcome});
  return *outcome;
}

} // namespace ej::measuring
