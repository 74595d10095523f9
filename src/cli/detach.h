#pragma once

#include "cli/workspace.h"

#include <filesystem>
#include <string>

// `ej run --detach`: the same run, by a second ej in a session of its own, its output in a log
// beside the journal (ej/runs/N.log). The first ej returns once the run is recorded.
namespace ej::cli {

// ej/runs/N.log: the live output of a detached run.
std::filesystem::path run_log_path(const Workspace& workspace, int run);
// ej/runs/N.cancel: written by `ej cancel` before it signals the run's ej, so that the run is
// recorded with who cancelled it rather than with a bare signal.
std::filesystem::path cancel_request_path(const Workspace& workspace, int run);

// Starts this very command line again without --detach, in the background, and waits until
// that ej has recorded the run (or failed before it: then its error is this one's).
void start_detached_run(const Workspace& workspace);

// The background ej's side: told by the starter through its environment, which is cleared so
// that a benchmark that runs ej itself does not take it for its own.
class DetachedReport {
public:
  static DetachedReport from_environment();

  bool active() const { return m_fd >= 0; }
  // Moves the log to ej/runs/N.log and tells the starter the run number.
  void run_recorded(const Workspace& workspace, int run);

private:
  int m_fd = -1;
  std::filesystem::path m_log;
};

} // namespace ej::cli
