#pragma once

#include "core/device_state.h"

#include <string>
#include <vector>

// GPU readings taken on the host that runs the benchmark (an ssh host, a Slurm node): the
// benchmark runs under a small POSIX sh script that keeps `nvidia-smi --query-gpu=... -lms N`
// beside it, writing to a file of that host; ej reads the file after each repeat and summarises
// it as it does local readings. A host without nvidia-smi leaves the file empty: no device state.
namespace ej::run {

struct HostSampling {
  int interval_ms = 0;
  std::string gpus; // nvidia-smi's --id (0,1 or UUIDs); empty: every GPU it sees
  std::string file; // a path on the host, rewritten by each repeat
};

// The argv that runs `argv` with the sampler beside it (its exit status is the benchmark's).
std::vector<std::string> sampled_command(const HostSampling& sampling, const std::vector<std::string>& argv);

// The summary of what the file held.
core::DeviceState summarize_host_readings(const std::string& text);

} // namespace ej::run
