#pragma once

#include "measuring/run_loop.h"
#include "run/gpu_lock.h"

#include <memory>
#include <string>

// Which GPUs `ej run` uses, and the machine-wide lock that keeps two runs off the same GPUs.
namespace ej::measuring {

// --gpus (which then sets CUDA_VISIBLE_DEVICES for the benchmark), else CUDA_VISIBLE_DEVICES
// from --env, the benchmark's environment or ej's own, else every GPU.
run::GpuSet chosen_gpus(const std::string& gpus_option, RunPlan& plan);

// The ticket a run shows other ejs while it waits for or holds its GPUs.
// machine: the host the GPUs are on as it names itself; empty: this one.
run::LockTicket gpu_ticket(const run::GpuSet& gpus, const std::string& bench, const std::string& journal,
                           const std::string& machine = {});

// Waits for the GPUs, telling the observer for whom ("waiting for run #12 on gpu-box, GPUs 0-7");
// nullptr when a signal came while waiting.
std::unique_ptr<run::GpuLock> wait_for_gpus(run::LockTicket ticket, RunObserver& observer);

// The error of --no-wait when the GPUs are taken.
[[noreturn]] void refuse_busy_gpus(const run::LockTicket& ticket);

} // namespace ej::measuring
