#pragma once

#include "util/unique_fd.h"

#include <string>
#include <sys/types.h>
#include <vector>

namespace ej::run {

struct ToolResult {
  int exit_code = -1; // 127 when the command is missing
  std::string output; // stdout and stderr together

  bool succeeded() const { return exit_code == 0; }
};

struct Spawned {
  pid_t pid = -1;     // -1: it could not be started, `error` says why
  util::UniqueFd out; // its stdout and stderr
  std::string error;
};

// Starts argv (looked up in PATH) with stdin from /dev/null and stdout and stderr into a pipe;
// own_group: in a process group of its own, out of reach of the terminal's Ctrl-C. The caller
// reaps it.
Spawned spawn_piped(const std::vector<std::string>& argv, bool own_group);

// Runs a command-line tool (scancel, nvidia-smi -rgc) to its end and waits for it. Not through a
// Launcher: what restores state must still run once an InterruptGuard has seen Ctrl-C, which
// makes a Launcher refuse to start anything.
ToolResult run_tool(const std::vector<std::string>& argv);

} // namespace ej::run
