#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace ej::run {

// What is known of the GPUs, split like EnvSnapshot: `fingerprint` is stable, `readings` change
// from one second to the next.
//
// fingerprint: {"source": "nvml" | "nvidia-smi" | "none", "driver_version": s|null,
//   "cuda_driver_version": "12.8"|null, "note": why nothing was found (only with "none"),
//   "devices": [{"index", "name", "uuid", "memory_total_mib", "power_limit_w",
//                "persistence_mode", "ecc_mode", "mig_mode"}]}   ("enabled"/"disabled"/null)
// readings: [{"index", "uuid", "sm_clock_mhz", "memory_clock_mhz", "power_draw_w",
//             "temperature_c", "memory_used_mib", "throttle_reasons": ["sw_power_cap", ...]}]
// Any value the driver cannot give is null.
struct GpuReport {
  nlohmann::json fingerprint;
  nlohmann::json readings;
};

// NVML (loaded at run time, no link-time dependency on the driver), then nvidia-smi, then "none".
GpuReport query_gpus();

// The steps, for tests and unusual installs. They throw ej::Error with the reason on failure.
GpuReport query_gpus_nvml(const std::string& library = "libnvidia-ml.so.1");
GpuReport query_gpus_nvidia_smi(const std::string& program = "nvidia-smi");

// Parses `nvidia-smi --query-gpu=<k_smi_fields> --format=csv,noheader,nounits` output.
GpuReport parse_nvidia_smi_csv(const std::string& csv);
extern const char* const k_smi_fields;

// Sets "cuda_driver_version" from plain nvidia-smi's banner ("CUDA Version: 12.8"), the only
// place it prints it; leaves the report as it is when the banner has none.
void add_cuda_version_from_banner(GpuReport& report, std::string_view banner);

// The report of a machine where no GPU was found: "source" "none", `note` saying why.
GpuReport no_gpu_report(std::string note);

// Names of the bits of an NVML clocks-event (throttle) reason mask, in bit order.
nlohmann::json throttle_reason_names(unsigned long long mask);

} // namespace ej::run
