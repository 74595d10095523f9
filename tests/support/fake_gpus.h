#pragma once

#include <filesystem>
#include <string>

namespace ej::test {

// The NVML test double (tests/support/fake_nvml.cpp), built with the tests: ej loads it when
// EJ_NVML_LIBRARY names it.
std::string fake_nvml_library();

// Writes dir/nvidia-smi: a stand-in that answers ej's environment query (one NVIDIA H200 named
// `uuid`), its banner, and the sampler's `--query-gpu=... --loop-ms=N` with a reading every 10 ms
// (SM clock 1410 MHz). Returns dir, to put first on a PATH.
std::filesystem::path write_fake_nvidia_smi(const std::filesystem::path& dir, const std::string& uuid);

} // namespace ej::test
