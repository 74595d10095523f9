#include "run/host_sampling.h"

#include "run/gpu_sampler.h"
#include "util/strings.h"

#include <fmt/format.h>

namespace ej::run {

std::vector<std::string> sampled_command(const HostSampling& sampling, const std::vector<std::string>& argv)
{
  // The file is emptied first, so that a repeat never reads the one before it.
  static const std::string script = R"sh(ms=$1 ids=$2 out=$3 fields=$4
shift 5
: > "$out"
smi=
if command -v nvidia-smi >/dev/null 2>&1; then
  if [ -n "$ids" ]; then
    nvidia-smi --query-gpu="$fields" --format=csv,noheader,nounits --loop-ms="$ms" --id="$ids" >> "$out" 2>/dev/null &
  else
    nvidia-smi --query-gpu="$fields" --format=csv,noheader,nounits --loop-ms="$ms" >> "$out" 2>/dev/null &
  fi
  smi=$!
fi
"$@"
status=$?
[ -n "$smi" ] && kill "$smi" 2>/dev/null
# A benchmark that died of a signal: so does this, so that ej records the signal, not a status.
if [ "$status" -gt 128 ] && [ "$status" -lt 193 ]; then
  trap - "$((status - 128))" 2>/dev/null
  kill "-$((status - 128))" $$
fi
exit $status
)sh";
  std::vector<std::string> out = {"/bin/sh",
                                  "-c",
                                  script,
                                  "ej-gpu-sampler",
                                  std::to_string(sampling.interval_ms),
                                  sampling.gpus,
                                  sampling.file,
                                  k_sampler_smi_fields,
                                  "--"};
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

core::DeviceState summarize_host_readings(const std::string& text)
{
  std::vector<GpuReading> readings;
  for (const auto& line : util::lines(text)) {
    if (auto reading = parse_sampler_smi_line(line)) {
      readings.push_back(std::move(*reading));
    }
  }
  return summarize_readings(readings);
}

} // namespace ej::run
