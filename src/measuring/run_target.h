#pragma once

#include "git/repository.h"
#include "measuring/run_loop.h"
#include "measuring/workspace.h"
#include "remote/ssh_session.h"
#include "run/environment.h"
#include "run/host.h"
#include "run/slurm_job.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <memory>
#include <string>

// Where `ej run` executes (here, or the host --on names), with the code state put there, and the
// build step that runs there before the repeats.
namespace ej::measuring {

class RunTarget {
public:
  // on: "" or "local" for here; "ssh:HOST" or a host added with `ej host add`. For a host, this
  // connects, uploads the wrapper and ships the code state (throws ej::Error when any fails),
  // telling the observer where the code is.
  RunTarget(const Workspace& workspace, const std::string& on, const git::CodeState& code,
            RunObserver& observer);

  run::Host& host();
  const std::filesystem::path& work_tree() const { return m_work_tree; } // on the host
  bool remote() const { return m_session != nullptr; }
  // For run.started: {"name", "target", "hostname", "work_dir"}; null for a run here.
  const nlohmann::json& on() const { return m_on; }
  run::EnvSnapshot snapshot(const run::EnvOptions& options) const;
  // Runs a command on the host through the run's connection, with the host's variables (a Slurm
  // login host's sbatch, say); empty for this machine.
  run::SlurmCommandVia command_via() const;
  // Where the build state of a benchmark is kept on the host.
  std::filesystem::path build_marker(const std::string& bench) const;

private:
  run::LocalHost m_local;
  std::unique_ptr<remote::SshSession> m_session;
  std::filesystem::path m_work_tree;
  std::filesystem::path m_ej_dir;
  nlohmann::json m_on;
};

// The marker of a benchmark's build in a work tree of this machine: the code state built last
// there. The journal is shared by the linked worktrees: one marker per work tree and benchmark.
std::filesystem::path local_build_marker(const std::filesystem::path& ej_dir,
                                         const std::filesystem::path& work_tree, const std::string& bench);
// Forgets every benchmark's build in that work tree: one made afresh where another was (ej bisect
// restores GOOD at the same path for each commit it measures) holds none of what was built there.
void forget_local_builds(const std::filesystem::path& ej_dir, const std::filesystem::path& work_tree);

// sha256 of commit, diff and untracked files: equal states build the same.
std::string code_state_id(const git::CodeState& code);

// What the build step did, as the run records it (outputs.build of run.finished).
struct BuildReport {
  bool ran = false; // false: no build step, or --no-build
  bool failed = false;
  std::string reason; // when failed: the command, how it ended and the log's tail
  nlohmann::json record = nlohmann::json::object(); // {"command", "state", "wall_s", "log_blob" when built}
  std::string log;
};

BuildReport run_build_step(RunTarget& target, const RunPlan& plan, const std::string& bench,
                           const std::string& state, bool no_build);

} // namespace ej::measuring
