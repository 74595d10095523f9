#include "run/environment.h"

#include "core/redact.h"

#include "run/nvml.h"
#include "run/process.h"
#include "util/fs.h"
#include "util/hash.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <array>
#include <fnmatch.h>
#include <sys/utsname.h>
#include <unistd.h>

extern char** environ;

namespace ej::run {

using nlohmann::json;

namespace {

constexpr int k_snapshot_schema = 1;

std::string read_text(const std::filesystem::path& path)
{
  try {
    return util::read_file(path).value_or("");
  } catch (const std::exception&) {
    return {};
  }
}

// The value after "key" + separator on the first line that starts with key, unquoted.
json field(const std::string& text, std::string_view key, char separator)
{
  for (const std::string& line : util::lines(text)) {
    if (line.rfind(key, 0) != 0) {
      continue;
    }
    const auto at = line.find(separator, key.size());
    if (at == std::string::npos ||
        !util::trim(std::string_view(line).substr(key.size(), at - key.size())).empty()) {
      continue;
    }
    std::string_view value = util::trim(std::string_view(line).substr(at + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = value.substr(1, value.size() - 2);
    }
    return std::string(value);
  }
  return nullptr;
}

json host_info()
{
  json host;
  std::array<char, 256> name{};
  host["hostname"] =
      ::gethostname(name.data(), name.size() - 1) == 0 ? json(std::string(name.data())) : json(nullptr);
  host["os"] = field(read_text("/etc/os-release"), "PRETTY_NAME", '=');
  utsname uts{};
  const bool have_uname = ::uname(&uts) == 0;
  host["kernel"] = have_uname ? json(std::string(uts.release)) : json(nullptr);
  host["arch"] = have_uname ? json(std::string(uts.machine)) : json(nullptr);
  host["cpu_model"] = field(read_text("/proc/cpuinfo"), "model name", ':');
  const long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
  host["cpu_count"] = cpus > 0 ? json(cpus) : json(nullptr);
  const json memory = field(read_text("/proc/meminfo"), "MemTotal", ':'); // "24683520 kB"
  host["memory_kb"] = memory.is_null() ? json(nullptr) : json(std::stoll(memory.get<std::string>()));
  return host;
}

std::optional<std::filesystem::path> find_nvcc()
{
  const char* path = std::getenv("PATH");
  for (const std::string& dir : util::split(path != nullptr ? path : "", ':')) {
    const auto candidate = std::filesystem::path(dir.empty() ? "." : dir) / "nvcc";
    if (::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  const std::filesystem::path usual = "/usr/local/cuda/bin/nvcc";
  if (::access(usual.c_str(), X_OK) == 0) {
    return usual;
  }
  return std::nullopt;
}

json toolkit_info()
{
  json toolkit = {{"nvcc", nullptr}, {"nvcc_path", nullptr}};
  const auto nvcc = find_nvcc();
  if (!nvcc) {
    return toolkit;
  }
  toolkit["nvcc_path"] = nvcc->string();
  ProcessSpec spec;
  spec.argv = {nvcc->string(), "--version"};
  spec.timeout_s = 20;
  const ProcessResult result = run_process(spec);
  for (const std::string& line : util::lines(result.out.text())) {
    if (line.find("release") != std::string::npos) {
      toolkit["nvcc"] = std::string(util::trim(line));
    }
  }
  return toolkit;
}

bool matches_any(const std::string& name, const std::vector<std::string>& patterns)
{
  for (const std::string& pattern : patterns) {
    if (::fnmatch(pattern.c_str(), name.c_str(), 0) == 0) {
      return true;
    }
  }
  return false;
}

std::string command_text(const ProbeSpec& probe)
{
  return probe.shell ? *probe.shell : util::join(probe.argv, " ");
}

} // namespace

std::vector<std::string> default_variable_patterns()
{
  return {"CUDA_*",   "NCCL_*",       "NVIDIA_*", "TORCH_*",         "PYTORCH_*",
          "SGLANG_*", "FLASHINFER_*", "OMP_*",    "LD_LIBRARY_PATH", "PATH"};
}

std::string redact(std::string_view name, std::string_view value)
{
  if (core::secret_name(name)) {
    return std::string(core::k_redacted);
  }
  return core::redact_token_shapes(core::redact_url_credentials(value));
}

json select_variables(const std::vector<std::string>& environment, const EnvOptions& options)
{
  json variables = json::object();
  for (const std::string& entry : environment) {
    const auto equals = entry.find('=');
    if (equals == std::string::npos) {
      continue;
    }
    const std::string name = entry.substr(0, equals);
    if (matches_any(name, options.variable_patterns) || matches_any(name, options.extra_variables)) {
      variables[name] = util::sanitize_utf8(redact(name, std::string_view(entry).substr(equals + 1)));
    }
  }
  for (const auto& [name, value] : options.overrides) {
    variables[name] = util::sanitize_utf8(redact(name, value));
  }
  return variables;
}

json run_probe(const ProbeSpec& probe)
{
  ProcessSpec spec;
  spec.argv = probe.argv;
  spec.shell = probe.shell;
  spec.cwd = probe.cwd;
  spec.timeout_s = probe.timeout_s;
  spec.kill_grace_s = 1;
  spec.head_bytes = probe.max_output_bytes / 2;
  spec.tail_bytes = probe.max_output_bytes - spec.head_bytes;
  const ProcessResult result = run_process(spec);

  json entry;
  entry["command"] = command_text(probe);
  entry["exit_code"] = result.ending == Ending::Exited ? json(result.exit_code) : json(nullptr);
  entry["output"] = util::sanitize_utf8(result.out.text());
  entry["error"] = nullptr;
  if (!result.succeeded()) {
    std::string error = describe(result);
    if (result.ending == Ending::SpawnFailed) {
      error = result.error;
    } else if (const std::string stderr_line = util::first_line(result.err.text(), 200);
               !stderr_line.empty()) {
      error += ": " + stderr_line;
    }
    entry["error"] = util::sanitize_utf8(error);
  }
  return entry;
}

EnvSnapshot capture_environment(const EnvOptions& options)
{
  std::vector<std::string> environment;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    environment.emplace_back(*entry);
  }
  GpuReport gpus = query_gpus();

  EnvSnapshot snapshot;
  json& fp = snapshot.fingerprint;
  fp["schema"] = k_snapshot_schema;
  fp["host"] = host_info();
  fp["gpu"] = std::move(gpus.fingerprint);
  add_clocks_policy(fp["gpu"], options);
  fp["toolkit"] = toolkit_info();
  fp["variables"] = select_variables(environment, options);
  fp["probes"] = json::object();
  for (const ProbeSpec& probe : options.probes) {
    fp["probes"][probe.name] = run_probe(probe);
  }
  snapshot.readings = {{"gpus", std::move(gpus.readings)}};
  // What a probe printed may hold a secret of this environment (echo $HF_TOKEN): hidden by value.
  auto redactor = core::Redactor();
  redactor.add_environment(environment);
  redactor.add_variables(options.overrides);
  redactor.redact_json(fp);
  redactor.redact_json(snapshot.readings);
  return snapshot;
}

namespace {

bool lists_devices(const json& gpu_fingerprint)
{
  if (!gpu_fingerprint.is_object()) {
    return false;
  }
  const auto devices = gpu_fingerprint.find("devices");
  return devices != gpu_fingerprint.end() && devices->is_array() && !devices->empty();
}

} // namespace

bool has_gpus(const json& fingerprint)
{
  const auto gpu = fingerprint.find("gpu");
  return gpu != fingerprint.end() && lists_devices(*gpu);
}

void add_clocks_policy(json& gpu_fingerprint, const EnvOptions& options)
{
  if (lists_devices(gpu_fingerprint)) {
    gpu_fingerprint["clocks_policy"] = options.gpu_clocks;
  }
}

std::vector<std::string> gpu_warnings(const json& fingerprint)
{
  std::vector<std::string> warnings;
  if (!has_gpus(fingerprint)) {
    return warnings;
  }
  const auto gpu = fingerprint.find("gpu");
  const auto devices = gpu->find("devices");
  if (gpu->value("clocks_policy", "default") == "default") {
    warnings.push_back("the GPU clocks were not locked: GPU Boost may change them between repeats (ej run "
                       "--lock-clocks, as root)");
  }
  std::vector<std::string> off;
  for (const auto& device : *devices) {
    if (device.is_object() && device.value("persistence_mode", json()) == "disabled") {
      off.push_back(device.contains("index") ? device["index"].dump() : "?");
    }
  }
  if (!off.empty()) {
    warnings.push_back(
        fmt::format("persistence mode was off on GPU {}: the driver may re-initialise it between "
                    "repeats (nvidia-smi -pm 1)",
                    fmt::join(off, ", ")));
  }
  return warnings;
}

std::string fingerprint_id(const EnvSnapshot& snapshot)
{
  return util::sha256_hex(snapshot.fingerprint.dump());
}

} // namespace ej::run
