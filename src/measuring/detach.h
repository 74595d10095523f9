#pragma once

#include "core/run_records.h"
#include "measuring/workspace.h"

#include <filesystem>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

// `ej run --detach`: the same run, by a second ej in a session of its own, its output in a log
// beside the journal (ej/runs/). The first ej returns as soon as the second has checked the
// command line: before the code state is read or shipped and the environment captured, which take
// seconds. So the run is named before it is recorded: by the id its run.started event will have,
// chosen by the first ej, shown in the provisional form (run @k3f9qx) that keeps naming it once
// it has a number (core/numbering.h).
namespace ej::measuring {

// ej/runs/N.log (ej/runs/@k3f9qx.log until the run has a number of this journal's own): the live
// output of a detached run.
std::filesystem::path run_log_path(const Workspace& workspace, const core::RunRecord& run);
// ej/runs/N.cancel: written by `ej cancel` before it signals the run's ej, so that the run is
// recorded with who cancelled it rather than with a bare signal.
std::filesystem::path cancel_request_path(const Workspace& workspace, int run);

// How the background ej took its command line.
struct DetachedStart {
  bool accepted = false;
  bool still_checking = false; // accepted unseen: its ej had not said within the time given (see below)
  std::string name;            // the run it will record, "@k3f9qx"
  pid_t pid = 0;
  std::filesystem::path log; // its output
  std::string said;          // when not accepted: all it printed before it ended (its error)
  int exit_code = 0;         // ...and the exit code to end with
};

// Starts this very command line again without --detach, in the background, naming the run it will
// record; returns once that ej has accepted the command line, or has failed before.
DetachedStart start_detached_run(const Workspace& workspace);
// Starts `ej ARGUMENTS` (a `run` command line without --detach, or a `calibrate` one, which names
// its session by its candidate run) in the background, as above. When
// `within_s` (0: no limit) passes before that ej has said either, the run is taken as accepted
// (still_checking) and noted as being prepared, so that ej wait follows it and reports its error
// if it fails: the caller's own bound is kept.
DetachedStart start_detached_run(const Workspace& workspace, const std::vector<std::string>& arguments,
                                 double within_s);

// A detached run its ej accepted and has not recorded yet (it reads and ships the code state,
// captures the environment), or whose ej ended before it recorded it.
struct PendingRun {
  std::string name; // "@k3f9qx"
  pid_t pid = 0;
  bool alive = false;
  std::string error;         // when its ej ended: what it said last ("ej: error: ...")
  std::filesystem::path log; // its output so far
};
// The pending run a provisional name names (only those can be pending); nullopt when none.
std::optional<PendingRun> pending_run(const Workspace& workspace, int provisional_number);

// The background ej's side: told by the starter through its environment, which is cleared so
// that a benchmark that runs ej itself does not take it for its own.
class DetachedReport {
public:
  static DetachedReport from_environment();

  bool active() const { return m_fd >= 0; }
  // The command line is checked: leaves a note that the run `run_id` is being prepared (ej wait
  // tells from it a run still starting from one whose ej died before recording it), and lets the
  // starter return.
  void accepted(const Workspace& workspace, const std::string& run_id);
  // The run is in the journal: its log takes its number, the note goes.
  void run_recorded(const Workspace& workspace, int run);

private:
  int m_fd = -1;
  std::filesystem::path m_log;
  std::filesystem::path m_note; // set once accepted
};

} // namespace ej::measuring
