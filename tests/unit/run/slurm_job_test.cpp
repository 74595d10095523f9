#include "run/slurm_job.h"

#include <catch2/catch.hpp>

using namespace ej;

namespace {

// Printed by slurm-wlm 22.05.8's `scontrol show job -d -o 1` (Debian bookworm) for the job that
// holds an allocation, on the single-node test cluster of tests/support/slurm_cluster.cpp.
constexpr const char* k_running =
    "JobId=1 JobName=ej-hold UserId=root(0) GroupId=root(0) MCS_label=N/A Priority=4294901759 Nice=0 "
    "Account=(null) QOS=(null) JobState=RUNNING Reason=None Dependency=(null) Requeue=1 Restarts=0 "
    "BatchFlag=1 "
    "Reboot=0 ExitCode=0:0 DerivedExitCode=0:0 RunTime=00:00:00 TimeLimit=00:01:00 TimeMin=N/A "
    "SubmitTime=2026-12-01T14:24:50 EligibleTime=2026-12-01T14:24:50 AccrueTime=2026-12-01T14:24:50 "
    "StartTime=2026-12-01T14:24:51 EndTime=2026-12-01T14:25:51 Deadline=N/A SuspendTime=None "
    "SecsPreSuspend=0 "
    "LastSchedEval=2026-12-01T14:24:51 Scheduler=Main Partition=debug AllocNode:Sid=localhost:14382 "
    "ReqNodeList=(null) ExcNodeList=(null) NodeList=vm BatchHost=vm NumNodes=1 NumCPUs=1 NumTasks=1 "
    "CPUs/Task=1 "
    "ReqB:S:C:T=0:0:*:* TRES=cpu=1,node=1,billing=1 Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=* "
    "JOB_GRES=(null)   Nodes=vm CPU_IDs=0 Mem=0 GRES= MinCPUsNode=1 MinMemoryNode=0 MinTmpDiskNode=0 "
    "Features=(null) DelayBoot=00:00:00 OverSubscribe=OK Contiguous=0 Licenses=(null) Network=(null) "
    "Command=(null) WorkDir=/tmp/slurmtry-ofqL StdErr=/dev/null StdIn=/dev/null StdOut=/dev/null Power= \n";

} // namespace

TEST_CASE("scontrol's one-line job is read: state and partition and node list and time limit")
{
  const auto job = run::parse_scontrol_job(k_running);
  CHECK(job.id == "1");
  CHECK(job.state == "RUNNING");
  CHECK(job.reason == "None");
  CHECK(job.partition == "debug");
  CHECK(job.nodes == "vm");
  CHECK(job.time_limit == "00:01:00");
  CHECK(job.gpus.empty());
  CHECK_FALSE(run::run_ending_for(job));
}

TEST_CASE("the GPUs of a job come from its nodes' GRES with their indexes")
{
  const auto job =
      run::parse_scontrol_job("JobId=7 JobState=RUNNING JOB_GRES=gpu:2 Nodes=n1 CPU_IDs=0-3 Mem=0 "
                              "GRES=gpu:2(IDX:0-1) Partition=gpu NodeList=n1");
  CHECK(job.gpus == "gpu:2(IDX:0-1)");
}

TEST_CASE("Slurm's job endings map onto run statuses with the reason")
{
  run::SlurmJobInfo job;
  job.id = "12";
  job.nodes = "n1";
  job.time_limit = "00:01:00";
  const auto ending = [&](const std::string& state) {
    job.state = state;
    const auto found = run::run_ending_for(job);
    return found ? std::pair<std::string, std::string>{std::string(core::to_string(found->first)),
                                                       found->second}
                 : std::pair<std::string, std::string>{"", ""};
  };
  CHECK(ending("TIMEOUT") == std::pair<std::string, std::string>{
                                 "timeout", "Slurm job 12 on n1 reached its time limit (00:01:00)"});
  CHECK(ending("OUT_OF_MEMORY") ==
        std::pair<std::string, std::string>{"failed", "Slurm job 12 on n1 ran out of memory"});
  CHECK(ending("PREEMPTED").first == "interrupted");
  CHECK(ending("NODE_FAIL") ==
        std::pair<std::string, std::string>{"interrupted", "Slurm job 12 on n1: its node failed"});
  CHECK(ending("CANCELLED+").first == "interrupted");
  CHECK(ending("FAILED").first == "failed");
  CHECK(ending("COMPLETED").first.empty());
  CHECK(ending("PENDING").first.empty());
}
