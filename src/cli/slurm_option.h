#pragma once

#include "measuring/run_benchmark.h"

#include <optional>
#include <string>
#include <vector>

// `--on slurm[:PARTITION]` or `slurm@HOST[:PARTITION]` with its `--slurm-arg`s, as `ej run` and
// `ej bisect` take them.
namespace ej::cli {

// The Slurm job the repeats run in; nullopt for anywhere else (here, ssh:HOST, a host). A usage
// error for --slurm-arg without --on slurm, and for slurm@ without a host.
std::optional<measuring::SlurmTarget> slurm_target(const std::string& on,
                                                   const std::vector<std::string>& slurm_args);

} // namespace ej::cli
