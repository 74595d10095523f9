#pragma once

#include "support/ej_repo.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

// Helpers for end-to-end tests of `ej run`: reading a run back and checking processes.
namespace ej::test {

// `ej show run N --json` (with --output when asked), parsed; fails the test if ej fails.
nlohmann::json show_run(const EjRepo& repo, int run, bool output = false);
// The measured samples of one metric (all keys) for one parameter label ("variant=a" or "").
std::vector<double> samples_of(const nlohmann::json& run, const std::string& metric,
                               const std::string& params = "");
// Repeats that were measured (not warmups).
int measured_repeats(const nlohmann::json& run);
// True while the process exists and is not a zombie.
bool process_alive(int pid);
// Waits up to `seconds` for the process to be gone (or a zombie); returns true once it is.
bool wait_gone(int pid, double seconds);
// Waits up to `seconds` for a file to exist and be non-empty.
bool wait_for_file(const std::filesystem::path& path, double seconds);

} // namespace ej::test
