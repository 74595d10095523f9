#include "measuring/stale_runs.h"

#include "run/owner.h"
#include "run/run_cgroup.h"
#include "store/events.h"
#include "store/run_queries.h"

#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <unistd.h>

namespace ej::measuring {

std::string this_host()
{
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  return name;
}

std::string this_boot_id()
{
  return run::boot_id();
}

bool run_process_gone(store::Journal& journal, const core::RunRecord& run)
{
  if (run.host != this_host()) {
    return false; // another machine's run: it cannot be checked from here
  }
  std::optional<std::uint64_t> start_ticks;
  const auto started = store::run_started_payload(journal.db(), run.id);
  if (started && started->contains("pid_start_ticks") && (*started)["pid_start_ticks"].is_number_unsigned()) {
    start_ticks = (*started)["pid_start_ticks"].get<std::uint64_t>();
  }
  if (start_ticks == 0u) {
    start_ticks.reset(); // not known when the run started
  }
  return run::owner_state(run.pid, start_ticks, run.boot_id) == run::OwnerState::Gone;
}

void recover_stale_runs(store::Journal& journal)
{
  if (journal.read_only_reason()) {
    return;
  }
  const auto started = store::runs_with_status(journal.db(), core::RunStatus::Started);
  bool abandoned = false;
  for (const auto& run : started) {
    if (!run_process_gone(journal, run)) {
      continue;
    }
    abandoned = true;
    journal.write([&](store::Writer& writer) {
      const auto current = store::find_run(journal.db(), run.number);
      if (current && current->status == core::RunStatus::Started) {
        writer.append(store::events::RunFinished{
            store::events::Ref::to(run.id), core::RunStatus::Interrupted,
            fmt::format(
                "the ej that ran it (pid {}) stopped without finishing it; the samples measured are kept",
                run.pid)});
      }
    });
  }
  // What such a run left running in its cgroup (its ej and guardian both killed): stopped now.
  if (abandoned) {
    run::stop_abandoned_cgroups();
  }
}

} // namespace ej::measuring
