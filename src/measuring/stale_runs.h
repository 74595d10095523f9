#pragma once

#include "core/run_records.h"
#include "store/journal.h"

#include <string>

// Runs left `started` by an ej that is gone (killed, power lost): told apart from live ones by
// the pid, its start time and the boot they were recorded with, and ended as interrupted.
namespace ej::measuring {

std::string this_host();
// /proc/sys/kernel/random/boot_id: tells a pid from a previous boot.
std::string this_boot_id();

// Whether the ej that runs a `started` run of this machine is gone (false for another machine's).
bool run_process_gone(store::Journal& journal, const core::RunRecord& run);
// A run left `started` by an ej that is gone is marked interrupted, and what it left running in
// its cgroup is stopped.
void recover_stale_runs(store::Journal& journal);

} // namespace ej::measuring
