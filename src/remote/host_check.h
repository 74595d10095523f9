#pragma once

#include "remote/host_registry.h"

#include <string>
#include <vector>

// `ej host check`: whether a host can run benchmarks, each finding with what it is based on.
namespace ej::remote {

struct HostFinding {
  std::string what; // "reachable", "shell", "tar", "gpus", "toolkit", "disk"
  bool ok = false;
  std::string detail;
};

// Connects and looks; throws ej::Error only when the host cannot be reached at all (the first
// finding, said as a run would say it).
std::vector<HostFinding> check_host(const HostEntry& host);

} // namespace ej::remote
