#include "remote/remote_environment.h"

#include "run/nvml.h"
#include "util/shell_quote.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

namespace ej::remote {

using nlohmann::json;

namespace {

std::string snapshot_script(const run::EnvOptions& options, const std::string& work_dir)
{
  // The variables the run's processes get there (the host's, the benchmark's): nvidia-smi or nvcc
  // found through a PATH given with 'ej host add --env' is what the benchmark finds too.
  std::string script = export_lines(options.overrides);
  script += fmt::format(R"sh(echo @@hostname; hostname
echo @@os; cat /etc/os-release 2>/dev/null
echo @@kernel; uname -r
echo @@arch; uname -m
echo @@cpu; grep -m 1 'model name' /proc/cpuinfo 2>/dev/null
echo @@cpus; getconf _NPROCESSORS_ONLN 2>/dev/null
echo @@memory; grep -m 1 MemTotal /proc/meminfo 2>/dev/null
echo @@smi; nvidia-smi --query-gpu={} --format=csv,noheader,nounits 2>/dev/null
echo @@smi-banner; nvidia-smi 2>/dev/null | grep -m 1 'CUDA Version'
nvcc=$(command -v nvcc 2>/dev/null || {{ [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; }})
echo @@nvcc-path; echo "$nvcc"
echo @@nvcc; [ -n "$nvcc" ] && "$nvcc" --version 2>/dev/null | grep release
echo @@env; env | grep -v '^@@'
)sh",
                        run::k_smi_fields);
  for (const auto& probe : options.probes) {
    const auto command = probe.shell ? *probe.shell : util::shell_join(probe.argv);
    // The probe's own exit status, not grep's: passed out of the pipeline on descriptor 5.
    script += fmt::format("echo {}; st=$( {{ {{ (cd {} && timeout {} sh -c {} </dev/null) 2>/dev/null; "
                          "echo $? >&5; }} | grep -v '^@@' >&4; }} 5>&1 ) 4>&1; echo \"@@status $st\"\n",
                          util::shell_quote("@@probe " + probe.name), util::shell_quote(work_dir),
                          static_cast<int>(probe.timeout_s), util::shell_quote(command));
  }
  return script;
}

std::map<std::string, std::string> sections(const std::string& output)
{
  std::map<std::string, std::string> out;
  std::string* current = nullptr;
  for (const auto& line : util::lines(output)) {
    if (line.rfind("@@status ", 0) == 0) {
      current = nullptr; // the end of a probe's output: the status is the wrapper's, not the probe's
      continue;
    }
    if (line.rfind("@@", 0) == 0) {
      current = &out[line.substr(2)];
      continue;
    }
    if (current != nullptr) {
      *current += line + "\n";
    }
  }
  return out;
}

json number_or_null(const std::string& text)
{
  try {
    return text.empty() ? json(nullptr) : json(std::stoll(text));
  } catch (const std::exception&) {
    return nullptr;
  }
}

} // namespace

std::string export_lines(const std::vector<std::pair<std::string, std::string>>& variables)
{
  std::string script;
  for (const auto& [name, value] : variables) {
    const bool word = !name.empty() && std::isdigit(static_cast<unsigned char>(name[0])) == 0 &&
                      std::all_of(name.begin(), name.end(), [](char c) {
                        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
                      });
    if (word) { // a name the shell cannot export is not one a process can be given either
      script += fmt::format("export {}={}\n", name, util::shell_quote(value));
    }
  }
  return script;
}

run::EnvSnapshot parse_remote_environment(const std::string& output, const run::EnvOptions& options)
{
  const auto parts = sections(output);
  const auto part = [&](const std::string& name) {
    const auto it = parts.find(name);
    return it == parts.end() ? std::string() : it->second;
  };
  run::EnvFacts facts;
  facts.hostname = part("hostname");
  facts.os_release = part("os");
  facts.kernel = part("kernel");
  facts.arch = part("arch");
  facts.cpuinfo = part("cpu");
  facts.cpus = part("cpus");
  facts.meminfo = part("memory");
  if (!util::trim(part("smi")).empty()) {
    facts.gpus = run::parse_nvidia_smi_csv(part("smi"));
    run::add_cuda_version_from_banner(facts.gpus, part("smi-banner"));
  } else {
    facts.gpus = run::no_gpu_report("no GPU found on the host (nvidia-smi printed nothing)");
  }
  facts.nvcc_path = part("nvcc-path");
  facts.nvcc_version = part("nvcc");
  facts.environment = util::lines(part("env"));
  for (const auto& probe : options.probes) {
    facts.probes[probe.name] = {{"command", run::probe_command(probe)},
                                {"exit_code", nullptr},
                                {"output", util::sanitize_utf8(part("probe " + probe.name))},
                                {"error", nullptr}};
  }
  // The exit status of each probe follows its output.
  std::string probe;
  for (const auto& line : util::lines(output)) {
    if (line.rfind("@@probe ", 0) == 0) {
      probe = line.substr(8);
    } else if (line.rfind("@@status ", 0) == 0 && facts.probes.contains(probe)) {
      const auto value = number_or_null(line.substr(9));
      const int status = value.is_null() ? -1 : value.get<int>();
      facts.probes[probe]["exit_code"] = status;
      if (status != 0) {
        facts.probes[probe]["error"] = fmt::format("exited with {}", status);
      }
    }
  }
  return run::build_snapshot(std::move(facts), options);
}

run::EnvSnapshot capture_remote_environment(const SshConnection& connection, const run::EnvOptions& options,
                                            const std::string& work_dir)
{
  const auto output =
      connection.check("sh -s", "take the environment snapshot", snapshot_script(options, work_dir), 120);
  return parse_remote_environment(output, options);
}

} // namespace ej::remote
