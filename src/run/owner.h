#pragma once

#include <cstdint>
#include <optional>
#include <string>

// Which process owns a run, told apart from any later process that gets the same pid: the pid,
// the process's start time (clock ticks since boot, /proc/PID/stat) and the boot id. The name of
// the program is no evidence: an ej may be installed as ej-1.2.
namespace ej::run {

// Field 22 of /proc/PID/stat; nullopt when there is no such process (or no /proc).
std::optional<std::uint64_t> process_start_ticks(std::int64_t pid);
// Field 4 of /proc/PID/stat (0 for the first process); nullopt when there is no such process.
std::optional<std::int64_t> parent_pid(std::int64_t pid);

// /proc/sys/kernel/random/boot_id: tells a pid from a previous boot.
std::string boot_id();

enum class OwnerState { Running, Gone };

// Whether the process (pid, start_ticks) of boot `boot` still runs. Without a recorded start time
// (a run started by an older ej) a live pid counts as its owner: a run is never ended under a
// running ej.
OwnerState owner_state(std::int64_t pid, std::optional<std::uint64_t> start_ticks, const std::string& boot);

} // namespace ej::run
