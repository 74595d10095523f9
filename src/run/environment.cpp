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

// The value after "key" + separator on the first line that starts with key, unquoted; null when
// no line has it or its value is empty.
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
    return value.empty() ? json(nullptr) : json(std::string(value));
  }
  return nullptr;
}

// The first line of a fact, trimmed; null when there is none.
json first_line_or_null(const std::string& text)
{
  const std::string line(util::trim(util::first_line(text, 1000)));
  return line.empty() ? json(nullptr) : json(line);
}

// The number a fact starts with ("24683520 kB"); null when it starts with none.
json number_or_null(const json& text)
{
  if (!text.is_string()) {
    return nullptr;
  }
  try {
    return json(std::stoll(text.get<std::string>()));
  } catch (const std::exception&) {
    return nullptr;
  }
}

json host_part(const EnvFacts& facts)
{
  json host;
  host["hostname"] = first_line_or_null(facts.hostname);
  host["os"] = field(facts.os_release, "PRETTY_NAME", '=');
  host["kernel"] = first_line_or_null(facts.kernel);
  host["arch"] = first_line_or_null(facts.arch);
  host["cpu_model"] = field(facts.cpuinfo, "model name", ':');
  host["cpu_count"] = number_or_null(first_line_or_null(facts.cpus));
  host["memory_kb"] = number_or_null(field(facts.meminfo, "MemTotal", ':'));
  return host;
}

json toolkit_part(const EnvFacts& facts)
{
  json toolkit = {{"nvcc", nullptr}, {"nvcc_path", first_line_or_null(facts.nvcc_path)}};
  for (const std::string& line : util::lines(facts.nvcc_version)) {
    if (line.find("release") != std::string::npos) {
      toolkit["nvcc"] = std::string(util::trim(line));
      break;
    }
  }
  return toolkit;
}

bool lists_devices(const json& gpu_fingerprint)
{
  if (!gpu_fingerprint.is_object()) {
    return false;
  }
  const auto devices = gpu_fingerprint.find("devices");
  return devices != gpu_fingerprint.end() && devices->is_array() && !devices->empty();
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

// The facts of this machine: its files, uname, sysconf, GPUs, nvcc on PATH and environ.
EnvFacts local_facts()
{
  EnvFacts facts;
  std::array<char, 256> name{};
  if (::gethostname(name.data(), name.size() - 1) == 0) {
    facts.hostname = name.data();
  }
  facts.os_release = read_text("/etc/os-release");
  if (utsname uts{}; ::uname(&uts) == 0) {
    facts.kernel = uts.release;
    facts.arch = uts.machine;
  }
  facts.cpuinfo = read_text("/proc/cpuinfo");
  if (const long cpus = ::sysconf(_SC_NPROCESSORS_ONLN); cpus > 0) {
    facts.cpus = std::to_string(cpus);
  }
  facts.meminfo = read_text("/proc/meminfo");
  facts.gpus = query_gpus();
  if (const auto nvcc = find_nvcc()) {
    facts.nvcc_path = nvcc->string();
    ProcessSpec spec;
    spec.argv = {nvcc->string(), "--version"};
    spec.timeout_s = 20;
    facts.nvcc_version = run_process(spec).out.text();
  }
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    facts.environment.emplace_back(*entry);
  }
  return facts;
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
  entry["command"] = probe_command(probe);
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

std::string probe_command(const ProbeSpec& probe)
{
  return probe.shell ? *probe.shell : util::join(probe.argv, " ");
}

EnvSnapshot build_snapshot(EnvFacts facts, const EnvOptions& options)
{
  EnvSnapshot snapshot;
  json& fp = snapshot.fingerprint;
  fp["schema"] = k_snapshot_schema;
  fp["host"] = host_part(facts);
  fp["gpu"] = std::move(facts.gpus.fingerprint);
  if (lists_devices(fp["gpu"])) {
    fp["gpu"]["clocks_policy"] = options.gpu_clocks;
  }
  fp["toolkit"] = toolkit_part(facts);
  fp["variables"] = select_variables(facts.environment, options);
  fp["probes"] = std::move(facts.probes);
  snapshot.readings = {{"gpus", std::move(facts.gpus.readings)}};
  // What a probe printed may hold a secret of this environment (echo $HF_TOKEN): hidden by value.
  auto redactor = core::Redactor();
  redactor.add_environment(facts.environment);
  redactor.add_variables(options.overrides);
  redactor.redact_json(fp);
  redactor.redact_json(snapshot.readings);
  return snapshot;
}

EnvSnapshot capture_environment(const EnvOptions& options)
{
  EnvFacts facts = local_facts();
  for (const ProbeSpec& probe : options.probes) {
    facts.probes[probe.name] = run_probe(probe);
  }
  return build_snapshot(std::move(facts), options);
}

bool has_gpus(const json& fingerprint)
{
  const auto gpu = fingerprint.find("gpu");
  return gpu != fingerprint.end() && lists_devices(*gpu);
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
