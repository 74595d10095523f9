#include "run/slurm_job.h"

#include "run/tool.h"

#include "util/error.h"
#include "util/strings.h"
#include "util/unique_fd.h"

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace ej::run {

namespace {

constexpr auto k_poll = std::chrono::milliseconds(200);

// A Slurm client command, here or through the login host (`via`); run_tool's "not installed" names
// the Slurm command and where it is missing.
ToolResult spawn_tool(const std::vector<std::string>& argv, const std::string& name)
{
  auto result = run_tool(argv);
  if (name != argv.at(0) && result.output == fmt::format("{} is not installed (not found in PATH)", argv[0])) {
    result.output = fmt::format("{} is not installed (not found in PATH on the login host)", name);
  }
  return result;
}

ToolResult run_tool(const std::vector<std::string>& argv, const SlurmCommandVia& via)
{
  return via ? spawn_tool(via(argv), argv.at(0)) : spawn_tool(argv, argv.at(0));
}

std::string field(const std::map<std::string, std::string>& fields, const std::string& name)
{
  const auto found = fields.find(name);
  return found == fields.end() || found->second == "(null)" ? std::string() : found->second;
}

} // namespace

SlurmJobInfo parse_scontrol_job(std::string_view text)
{
  // "-o": one line of KEY=VALUE words; with -d the node details (GRES with IDX) come in it too.
  std::map<std::string, std::string> fields;
  std::string gres;
  for (const auto& word : util::split(util::trim(text), ' ')) {
    const auto equals = word.find('=');
    if (equals == std::string::npos) {
      continue;
    }
    const auto key = word.substr(0, equals);
    const auto value = word.substr(equals + 1);
    if (key == "GRES" && !value.empty()) {
      gres = gres.empty() ? value : gres + "," + value; // one per node
    }
    fields.emplace(key, value); // the job's own fields come first
  }
  SlurmJobInfo job;
  job.id = field(fields, "JobId");
  job.state = field(fields, "JobState");
  job.reason = field(fields, "Reason");
  job.partition = field(fields, "Partition");
  job.nodes = field(fields, "NodeList");
  job.gpus = gres.empty() ? field(fields, "JOB_GRES") : gres;
  job.time_limit = field(fields, "TimeLimit");
  job.exit_code = field(fields, "ExitCode");
  return job;
}

std::optional<std::pair<core::RunStatus, std::string>> run_ending_for(const SlurmJobInfo& job)
{
  const auto where = fmt::format("Slurm job {}{}", job.id, job.nodes.empty() ? "" : " on " + job.nodes);
  const auto state = job.state.substr(0, job.state.find('+')); // "CANCELLED+" is CANCELLED
  if (state == "TIMEOUT" || state == "DEADLINE") {
    return std::pair{core::RunStatus::Timeout,
                     fmt::format("{} reached its time limit ({})", where, job.time_limit)};
  }
  if (state == "OUT_OF_MEMORY") {
    return std::pair{core::RunStatus::Failed, fmt::format("{} ran out of memory", where)};
  }
  if (state == "FAILED" || state == "BOOT_FAIL") {
    return std::pair{core::RunStatus::Failed,
                     fmt::format("{} failed ({}, exit {})", where, job.reason, job.exit_code)};
  }
  if (state == "PREEMPTED") {
    return std::pair{core::RunStatus::Interrupted, fmt::format("{} was preempted", where)};
  }
  if (state == "NODE_FAIL") {
    return std::pair{core::RunStatus::Interrupted, fmt::format("{}: its node failed", where)};
  }
  if (state == "CANCELLED" || state == "REVOKED") {
    return std::pair{core::RunStatus::Interrupted, fmt::format("{} was cancelled", where)};
  }
  return std::nullopt;
}

SlurmAllocation SlurmAllocation::submit(const std::string& partition,
                                        const std::vector<std::string>& sbatch_args,
                                        const std::string& job_name, SlurmCommandVia via)
{
  std::vector<std::string> argv{"sbatch", "--parsable", "--job-name=" + job_name, "--output=/dev/null"};
  if (!partition.empty()) {
    argv.push_back("--partition=" + partition);
  }
  argv.insert(argv.end(), sbatch_args.begin(), sbatch_args.end());
  // The batch script only holds the allocation: the repeats are its steps.
  argv.insert(argv.end(), {"--wrap", "exec sleep infinity"});
  const auto result = run_tool(argv, via);
  const auto line = std::string(util::trim(result.output));
  const auto job = line.substr(0, line.find(';')); // "12;cluster"
  const bool number = !job.empty() && job.find_first_not_of("0123456789") == std::string::npos;
  if (result.exit_code != 0 || !number) {
    throw Error("sbatch did not take the job: {}; check the partition and the --slurm-arg options",
                line.empty() ? fmt::format("it exited with {}", result.exit_code)
                             : util::first_line(line, 300));
  }
  return SlurmAllocation(job, true, std::move(via));
}

std::optional<SlurmAllocation> SlurmAllocation::enclosing()
{
  const char* job = std::getenv("SLURM_JOB_ID");
  if (job == nullptr || *job == '\0') {
    return std::nullopt;
  }
  return SlurmAllocation(job, false, {});
}

SlurmAllocation::SlurmAllocation(SlurmAllocation&& other) noexcept
    : m_job(std::move(other.m_job)), m_owned(std::exchange(other.m_owned, false)),
      m_via(std::move(other.m_via))
{
}

SlurmAllocation::~SlurmAllocation()
{
  cancel();
}

std::optional<SlurmJobInfo> SlurmAllocation::info() const
{
  const auto result = run_tool({"scontrol", "show", "job", "-d", "-o", m_job}, m_via);
  if (result.exit_code != 0) {
    return std::nullopt; // "Invalid job id": purged after MinJobAge
  }
  return parse_scontrol_job(result.output);
}

SlurmJobInfo SlurmAllocation::wait_running(const std::function<void(const SlurmJobInfo&)>& on_pending,
                                           const std::function<bool()>& interrupted) const
{
  std::string told;
  while (true) {
    auto job = info();
    if (!job) {
      SlurmJobInfo gone;
      gone.id = m_job;
      gone.state = "CANCELLED";
      return gone;
    }
    if (job->state != "PENDING" && job->state != "CONFIGURING") {
      return *job;
    }
    if (job->state + job->reason != told) {
      on_pending(*job);
      told = job->state + job->reason;
    }
    if (interrupted()) {
      return *job;
    }
    std::this_thread::sleep_for(k_poll);
  }
}

std::vector<std::string> SlurmAllocation::step_prefix() const
{
  // One task on one node; --overlap lets the step share the allocation's CPUs with the batch
  // script that holds it.
  return {"srun", "--jobid=" + m_job, "--overlap", "--nodes=1", "--ntasks=1", "--quiet", "--"};
}

void SlurmAllocation::cancel() noexcept
{
  if (!m_owned) {
    return;
  }
  m_owned = false;
  try {
    run_tool({"scancel", m_job}, m_via);
  } catch (...) {
    // A job that cannot be cancelled ends at its time limit; nothing more to do from here.
  }
}

} // namespace ej::run
