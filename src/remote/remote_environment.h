#pragma once

#include "remote/ssh_connection.h"
#include "run/environment.h"

#include <string>
#include <utility>
#include <vector>

// The environment snapshot of a run on an ssh host, taken there: the same fields as a local
// snapshot (run/environment.h), from one script's output.
namespace ej::remote {

// work_dir: where the probes run on the host.
run::EnvSnapshot capture_remote_environment(const SshConnection& connection, const run::EnvOptions& options,
                                            const std::string& work_dir);

// "export NAME='VALUE'" lines that give a host script the variables a run's processes get there
// (ej host add --env, the benchmark's); a name the shell cannot export is left out.
std::string export_lines(const std::vector<std::pair<std::string, std::string>>& variables);

// Parses what the snapshot script printed (sections "@@NAME" on a line of their own).
run::EnvSnapshot parse_remote_environment(const std::string& output, const run::EnvOptions& options);

} // namespace ej::remote
