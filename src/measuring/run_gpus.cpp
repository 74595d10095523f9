#include "measuring/run_gpus.h"

#include "core/numbering.h"
#include "util/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

namespace ej::measuring {

namespace {

constexpr const char* k_visible = "CUDA_VISIBLE_DEVICES";

std::optional<std::string> find_env(const std::vector<std::pair<std::string, std::string>>& env)
{
  std::optional<std::string> found;
  for (const auto& [key, value] : env) {
    if (key == k_visible) {
      found = value; // the last one wins, as in the benchmark's environment
    }
  }
  return found;
}

// "run #12 on gpu-box, GPUs 0-7; 2 runs queued before this one".
std::string who_is_ahead(const std::vector<run::LockTicket>& ahead, const std::string& journal)
{
  const auto holder =
      std::find_if(ahead.begin(), ahead.end(), [](const run::LockTicket& t) { return t.holding; });
  const auto queued =
      std::count_if(ahead.begin(), ahead.end(), [](const run::LockTicket& t) { return !t.holding; });
  std::string text = holder != ahead.end() ? run::describe(*holder, journal)
                                           : std::string("an ej that is taking the GPUs now");
  if (queued > 0) {
    text += fmt::format("; {} run{} queued before this one", queued, queued == 1 ? "" : "s");
  }
  return text;
}

} // namespace

run::GpuSet chosen_gpus(const std::string& gpus_option, RunPlan& plan)
{
  if (!gpus_option.empty()) {
    if (find_env(plan.extra_env)) {
      throw UsageError(
          "--gpus sets CUDA_VISIBLE_DEVICES; give one of --gpus and --env CUDA_VISIBLE_DEVICES=...");
    }
    run::GpuSet gpus;
    try {
      gpus = run::parse_gpu_list(gpus_option);
    } catch (const Error& error) {
      throw UsageError("--gpus: {}", error.what()); // how ej was called, not what it found
    }
    if (gpus.devices.empty()) {
      throw UsageError("--gpus needs at least one GPU (0,1 or GPU-UUID,...)");
    }
    plan.extra_env.emplace_back(k_visible, gpus_option);
    return gpus;
  }
  if (auto value = find_env(plan.extra_env)) {
    return run::parse_gpu_list(*value);
  }
  for (const auto& [key, value] : plan.definition.env) {
    if (key == k_visible) {
      return run::parse_gpu_list(value);
    }
  }
  if (const char* value = std::getenv(k_visible)) {
    return run::parse_gpu_list(value);
  }
  return run::GpuSet{};
}

run::LockTicket gpu_ticket(const run::GpuSet& gpus, const std::string& bench, const std::string& journal,
                           const std::string& machine)
{
  run::LockTicket ticket;
  ticket.gpus = gpus;
  ticket.bench = bench;
  ticket.journal = journal;
  ticket.host = machine;
  if (ticket.host.empty()) {
    char name[256] = {};
    ::gethostname(name, sizeof name - 1);
    ticket.host = name;
  }
  return ticket;
}

std::unique_ptr<run::GpuLock> wait_for_gpus(run::LockTicket ticket, RunObserver& observer)
{
  const auto journal = ticket.journal;
  const int run = ticket.run;
  return run::GpuLock::acquire(
      run::default_lock_dir(), std::move(ticket), [&](const std::vector<run::LockTicket>& ahead) {
        observer.message(fmt::format("ej: run {} is waiting for {}", core::number_label(run),
                                     who_is_ahead(ahead, journal)));
      });
}

void refuse_busy_gpus(const run::LockTicket& ticket)
{
  const auto tickets = run::GpuLock::tickets(run::default_lock_dir());
  std::vector<run::LockTicket> ahead;
  for (const auto& t : tickets) {
    if (t.host == ticket.host && t.gpus.overlaps(ticket.gpus)) {
      ahead.push_back(t);
    }
  }
  throw Error("{} {} busy: {}; run without --no-wait to queue behind it (see 'ej runs --queue')",
              run::describe(ticket.gpus), ticket.gpus.all || ticket.gpus.devices.size() != 1 ? "are" : "is",
              who_is_ahead(ahead, ticket.journal));
}

} // namespace ej::measuring
