#pragma once

#include "support/command.h"
#include "support/skip.h"
#include "support/temp_dir.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ej::test {

// A real single-node Slurm for end-to-end tests: munged with its own key and socket, slurmctld
// and slurmd on 127.0.0.1 on free ports, a generated slurm.conf, everything in a temporary
// folder (proctrack/linuxproc and task/none: no cgroups, which these machines cannot give).
// Started by the constructor, which fails the test when the cluster does not come up; stopped
// (its jobs cancelled first) by the destructor.
class SlurmCluster {
public:
  // Why no cluster can be started here (a binary of slurm-wlm or munge missing), or nullopt.
  static std::optional<std::string> missing();

  // One cluster per test process, started by the first test that needs it.
  static SlurmCluster& shared();

  SlurmCluster();
  ~SlurmCluster();
  SlurmCluster(const SlurmCluster&) = delete;
  SlurmCluster& operator=(const SlurmCluster&) = delete;

  // SLURM_CONF (and the munge socket through it) for the ej, sbatch or squeue a test runs.
  std::map<std::string, std::string> env() const;
  // The one partition, its only node.
  std::string partition() const { return "ejtest"; }
  std::string node() const { return m_node; }
  // Runs a Slurm client command (scontrol, squeue...) against this cluster.
  CommandResult client(const std::vector<std::string>& argv) const;
  // The daemons' logs, for a failing test's message.
  std::string logs() const;
  // What scontrol says of the job's state now.
  std::string job_state(const std::string& job) const;
  // The job's state once it has ended: slurmctld may still say RUNNING or COMPLETING for a moment
  // after scancel returned, longer on a loaded machine.
  std::string final_job_state(const std::string& job) const;
  // The id of the job ej submitted for run N (its first run), once squeue knows it; fails the test
  // when none comes.
  std::string job_of_run(int run) const;

private:
  void stop() noexcept;

  TempDir m_dir;
  std::string m_node;
  std::vector<int> m_daemons; // munged, slurmctld, slurmd
};

} // namespace ej::test

// Skips (saying why) only when slurm-wlm or munge is not installed; fails under CI then.
#define REQUIRE_SLURM()                                                                                      \
  if (const auto why = ::ej::test::SlurmCluster::missing()) {                                                \
    EJ_SKIP_WITHOUT_SERVICE(*why);                                                                           \
  }
