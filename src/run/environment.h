#pragma once

#include "run/nvml.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ej::run {

// A user-registered command whose output belongs to the environment (e.g. "pip-freeze").
struct ProbeSpec {
  std::string name;
  std::vector<std::string> argv;
  std::optional<std::string> shell; // when set, run with /bin/sh -c
  std::filesystem::path cwd;
  double timeout_s = 20;
  std::size_t max_output_bytes = 256 * 1024; // half from the start, half from the end
};

std::vector<std::string> default_variable_patterns();

struct EnvOptions {
  std::vector<std::string> variable_patterns = default_variable_patterns(); // globs on names
  std::vector<std::string> extra_variables; // names (or globs), e.g. the benchmark's --env names
  // The benchmark's own K=V overrides: recorded as the child sees them (always included).
  std::vector<std::pair<std::string, std::string>> overrides;
  std::vector<ProbeSpec> probes;
  // How the run sets the GPUs' clocks: "default" (as the driver boosts them), "locked base" or
  // "locked 1500 MHz" (ej run --lock-clocks). Part of the fingerprint when there are GPUs.
  std::string gpu_clocks = "default";
};

// Two parts: `fingerprint` is stable for a machine + setup (hash it, store it once);
// `readings` are volatile (power, temperature, current clocks): store them per run.
//
// fingerprint (keys sorted by nlohmann::json, so dump() is canonical):
// {"schema": 1,
//  "host": {"hostname", "os" (PRETTY_NAME), "kernel" (uname -r), "arch", "cpu_model",
//           "cpu_count", "memory_kb"},
//  "gpu": GpuReport::fingerprint (see run/nvml.h; "source": "none" when there is no GPU), with
//         "clocks_policy": EnvOptions::gpu_clocks when it lists devices,
//  "toolkit": {"nvcc": "Cuda compilation tools, release 12.8, V12.8.93" | null,
//              "nvcc_path": s | null},
//  "variables": {NAME: value, secrets replaced by "<redacted>"},
//  "probes": {NAME: {"command": s, "exit_code": n|null, "output": stdout, "error": s|null}}}
// readings: {"gpus": GpuReport::readings}
// Unknown values are null, never missing.
struct EnvSnapshot {
  nlohmann::json fingerprint;
  nlohmann::json readings;
};

// What a snapshot is made of, as its source printed it: gathered on this machine
// (capture_environment) or read from a host's script output (remote/remote_environment.h), so
// that the one builder below decides every field of both. Empty text means unknown.
struct EnvFacts {
  std::string hostname;
  std::string os_release; // /etc/os-release, for its PRETTY_NAME
  std::string kernel;     // uname -r
  std::string arch;       // uname -m
  std::string cpuinfo;    // /proc/cpuinfo (or its "model name" line)
  std::string cpus;       // the number of online processors, as text
  std::string meminfo;    // /proc/meminfo (or its "MemTotal" line)
  GpuReport gpus;
  std::string nvcc_path;
  std::string nvcc_version;                         // what `nvcc --version` printed
  std::vector<std::string> environment;             // "K=V" entries, as in environ
  nlohmann::json probes = nlohmann::json::object(); // NAME -> entry, as run_probe makes it
};

// The snapshot of those facts under the options: the fingerprint and readings described above,
// with secrets of the environment hidden wherever they appear.
EnvSnapshot build_snapshot(EnvFacts facts, const EnvOptions& options);

EnvSnapshot capture_environment(const EnvOptions& options);

// Whether a fingerprint lists GPUs.
bool has_gpus(const nlohmann::json& fingerprint);

// What a run on GPUs is warned of, from its fingerprint: clocks not locked ("clocks_policy"
// "default"), GPUs with persistence mode off. Nothing without GPUs.
std::vector<std::string> gpu_warnings(const nlohmann::json& fingerprint);

// sha256 of fingerprint.dump(): equal ids mean identical environments.
std::string fingerprint_id(const EnvSnapshot& snapshot);

// "<redacted>" for a secret name (core::secret_name); otherwise the value with URL credentials and
// token shapes removed.
std::string redact(std::string_view name, std::string_view value);

// The environment variables (NAME -> value, redacted) matching the patterns or names, with the
// overrides applied on top of `environment` ("K=V" entries, as in environ).
nlohmann::json select_variables(const std::vector<std::string>& environment, const EnvOptions& options);

// Runs one probe; never throws (a failure is recorded in "error").
nlohmann::json run_probe(const ProbeSpec& probe);

// The command a probe's entry names: its shell line, or its argv joined by spaces.
std::string probe_command(const ProbeSpec& probe);

} // namespace ej::run
