#pragma once

#include "support/command.h"
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

private:
  void stop();

  TempDir m_dir;
  std::string m_node;
  std::vector<int> m_daemons; // munged, slurmctld, slurmd
};

} // namespace ej::test
