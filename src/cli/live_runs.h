#pragma once

#include <string>

// Runs that are still going: ej wait, ej cancel, ej show run N --follow, ej runs --running and
// ej runs --queue.
namespace ej::cli {

// Prints a detached run's output as it comes until the run ends; exit 0 when it finished.
void follow_run(const std::string& id);
// `ej runs --running`: the journal's runs that an ej is running (or that wait for GPUs).
void list_running_runs(bool json);
// `ej runs --queue`: who holds and who waits for this machine's GPUs, every repository's runs.
void list_gpu_queue(bool json);

} // namespace ej::cli
