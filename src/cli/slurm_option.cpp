#include "cli/slurm_option.h"

#include "util/error.h"

namespace ej::cli {

std::optional<measuring::SlurmTarget> slurm_target(const std::string& on,
                                                   const std::vector<std::string>& slurm_args)
{
  if (on != "slurm" && !on.starts_with("slurm:") && !on.starts_with("slurm@")) {
    if (!slurm_args.empty()) {
      throw UsageError("--slurm-arg goes with --on slurm[:PARTITION]");
    }
    return std::nullopt; // here, ssh:HOST or a host: RunTarget's
  }
  measuring::SlurmTarget target;
  auto rest = on.substr(5); // "", ":PARTITION", "@HOST", "@HOST:PARTITION"
  if (rest.starts_with("@")) {
    const auto colon = rest.find(':');
    target.login_host = rest.substr(1, colon == std::string::npos ? std::string::npos : colon - 1);
    rest = colon == std::string::npos ? "" : rest.substr(colon);
    if (target.login_host.empty()) {
      throw UsageError("--on slurm@HOST needs the login host: a host added with 'ej host add', or an ssh "
                       "destination (slurm@login.cluster:gpu)");
    }
  }
  target.partition = rest.empty() ? "" : rest.substr(1);
  target.sbatch_args = slurm_args;
  return target;
}

} // namespace ej::cli
