#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ej::run {

// One difference between two environment fingerprints. `what` names the thing ("CUDA driver",
// "GPU 0 name", "variable NCCL_ALGO", "probe pip-freeze"); before/after are absent when it was
// added/removed.
struct EnvChange {
  std::string what;
  std::optional<std::string> before;
  std::optional<std::string> after;

  bool operator==(const EnvChange&) const = default;
};

// Changes from a to b, in a fixed order: host, GPU driver and CUDA, GPUs by index, toolkit,
// variables, probes (their output compared line by line; "pkg==1.0" lines are paired by the
// name before "==", so an upgrade reads "torch==2.9.0 -> torch==2.11.0"). Takes fingerprints
// (or whole snapshots {"fingerprint": ...}). Identical inputs give no changes.
std::vector<EnvChange> diff_environments(const nlohmann::json& a, const nlohmann::json& b);

// "CUDA driver: 12.8 -> 13.0", "variable NCCL_ALGO: added Tree", "GPU 1: removed NVIDIA B200".
std::string format_change(const EnvChange& change);
std::vector<std::string> format_changes(const std::vector<EnvChange>& changes);

} // namespace ej::run
