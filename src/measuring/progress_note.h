#pragma once

#include "measuring/run_observer.h"
#include "measuring/workspace.h"

#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

// How far a run has come, for whoever waits for it from another process (ej wait, the wait tool of
// ej mcp): the ej that runs it keeps a small note beside the journal, ej/runs/<run id>.progress,
// from the moment the run is recorded until it ends. The journal has the measured values (written
// every second or so); the note adds what only the running ej knows: what it is doing, how many
// repeats it plans, and since when it measures.
namespace ej::measuring {

struct ProgressNote {
  std::string phase;   // "recorded", "building", "measuring"
  int combination = 0; // 1-based, of `combinations`
  int combinations = 0;
  int done = 0;           // repeats ended, warmups included
  int planned = 0;        // of the whole run, warmups included; 0: not known (an interleaved session)
  double measuring_s = 0; // since the first repeat started, when the note was written
  std::int64_t written_ms = 0;
};

std::filesystem::path progress_note_path(const Workspace& workspace, const std::string& run_id);
// The note of a run still going; nullopt when there is none (ended, or not run by an ej that keeps
// one) or it cannot be read.
std::optional<ProgressNote> read_progress_note(const Workspace& workspace, const std::string& run_id);

// Hears a run for its front end (every call goes on to `inner`) and keeps the note. A thread of its
// own writes it, at once when the phase or the combination changes and otherwise half a second after
// a repeat ended: a benchmark of a thousand repeats a second pays a counter, and a repeat that runs
// for an hour leaves the note saying what came before it. Never throws: a note that cannot be
// written leaves the run as it is.
class ProgressRecorder final : public RunObserver {
public:
  explicit ProgressRecorder(RunObserver& inner) : m_inner(inner) {}
  ~ProgressRecorder() override;
  ProgressRecorder(const ProgressRecorder&) = delete;
  ProgressRecorder& operator=(const ProgressRecorder&) = delete;

  // The run is recorded: the note starts.
  void attach(std::filesystem::path note);
  void set_phase(std::string_view phase);
  // Measured in blocks whose number the session does not know (an interleaved run).
  void planned_unknown();
  // The run ended: the note goes.
  void detach() noexcept;

  void run_started(const RunShape& shape) override;
  void combination_started(int index, const std::string& label, int repeats) override;
  void repeat_started(int repeat, bool warmup) override;
  void repeat_ended(std::optional<double> median) override;
  void output(std::string_view chunk) override;
  void message(std::string_view line) override;
  void run_ended() override;

private:
  // Under m_mutex: the note changed; `now` wakes the writer at once.
  void changed(bool now);
  void write_loop();
  void write_note(ProgressNote note, const std::filesystem::path& path) noexcept;

  RunObserver& m_inner;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  std::filesystem::path m_path; // empty: not attached
  ProgressNote m_note;
  bool m_planned_known = true;
  bool m_dirty = false;
  bool m_urgent = false;
  bool m_stop = false;
  std::int64_t m_measuring_since_ns = 0; // 0: not yet
  std::thread m_writer;                  // from attach() to detach()
};

} // namespace ej::measuring
