#pragma once

#include "remote/ssh_connection.h"
#include "run/environment.h"

#include <string>

// The environment snapshot of a run on an ssh host, taken there: the same fields as a local
// snapshot (run/environment.h), from one script's output.
namespace ej::remote {

// work_dir: where the probes run on the host.
run::EnvSnapshot capture_remote_environment(const SshConnection& connection, const run::EnvOptions& options,
                                            const std::string& work_dir);

// Parses what the snapshot script printed (sections "@@NAME" on a line of their own).
run::EnvSnapshot parse_remote_environment(const std::string& output, const run::EnvOptions& options);

} // namespace ej::remote
