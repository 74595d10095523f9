#pragma once

#include "core/run_records.h"
#include "measuring/detach.h"
#include "measuring/workspace.h"
#include "store/journal.h"

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

// Runs still going, seen from another process: waited for (ej wait, the wait tool of ej mcp) and
// stopped (ej cancel, the cancel tool), each within a time its caller chooses.
namespace ej::measuring {

// One run waited for: recorded (its status says whether it still goes), or named before it was
// recorded (ej run --detach) and still starting, or whose ej ended before recording it.
struct WaitedRun {
  int number = 0;
  std::optional<core::RunRecord> run;
  std::optional<PendingRun> pending;

  bool going() const { return run ? run->status == core::RunStatus::Started : pending && pending->alive; }
  // The run never recorded: its ej failed before (pending->error says why).
  bool failed_before_recorded() const { return !run && pending && !pending->alive; }
};

// The run as it is now (runs whose ej is gone are marked interrupted first); throws ej::Error when
// there is no such run, recorded or pending.
WaitedRun look_up_run(const Workspace& workspace, store::Journal& journal, int number);

// Waits until none of the runs goes on, or `timeout_s` passed (0: no limit); returns them as they
// are then, in the order given.
std::vector<WaitedRun> wait_for_runs(const Workspace& workspace, store::Journal& journal,
                                     const std::vector<int>& numbers, double timeout_s);

struct CancelOutcome {
  enum class State {
    StoppedBeforeRecorded, // its ej ended before recording anything
    Ended,                 // recorded as it ended (interrupted, or ended by itself meanwhile)
    Stopping,              // asked to stop; not ended within the time given
  };
  State state = State::Ended;
  std::string name;                   // "@k3f9qx" or "#5"
  pid_t pid = 0;                      // of the run's ej
  bool killed = false;                // it did not react to SIGTERM in time and was killed
  std::optional<core::RunRecord> run; // as it is at the end
};

// Stops a run this machine runs: its ej is told who cancelled it (the reason it records) and sent
// SIGTERM; waited for up to `wait_s`; with `kill_late`, an ej still going then is killed (its
// guardian stops the benchmark) and waited for a few seconds more. Throws ej::Error for a run that
// is not running, or runs elsewhere.
CancelOutcome cancel_run(const Workspace& workspace, store::Journal& journal, int number, double wait_s,
                         bool kill_late);

} // namespace ej::measuring
