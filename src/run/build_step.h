#pragma once

#include "run/host.h"

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

// A benchmark's build step (asv's build_command): a shell command run in the work directory
// before the repeats, never timed, its output kept with the run, and not run again while the
// code state it built is the same on that host.
namespace ej::run {

struct BuildRequest {
  std::string command;       // run with /bin/sh -c
  std::filesystem::path cwd; // on the host
  std::vector<std::pair<std::string, std::string>> env;
  // Identifies what is built: the code state (commit + diff + untracked files) and everything
  // of the request above. Equal keys on one host mean the build there is still good.
  std::string state;
  std::filesystem::path marker; // on the host: holds the key of the last good build
  bool echo = true;
};

enum class BuildState { Built, Reused, Failed };

struct BuildOutcome {
  BuildState state = BuildState::Built;
  std::string log; // stdout, then stderr (bounded as any capture)
  double wall_s = 0;
  std::string failure; // "exited with 2" or why it could not run
};

std::string_view build_state_name(BuildState state); // "built", "reused", "failed"

// The key a marker holds for this request.
std::string build_key(const BuildRequest& request);

// Runs the build on the host unless its marker holds this request's key; writes the marker after
// a build that succeeded. Never throws for what the build does; a marker that cannot be written
// throws ej::Error.
BuildOutcome run_build(Host& host, const BuildRequest& request);

} // namespace ej::run
