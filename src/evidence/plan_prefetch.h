#pragma once

#include "core/run_records.h"
#include "evidence/series.h"
#include "store/database.h"
#include "store/run_queries.h"
#include "util/work_ahead.h"

#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ej::evidence {

// What a Reader needs of one attempt of a plan: its runs, their series, the repeats that read a GPU.
struct StreamedAttempt {
  int number = 0;
  std::vector<core::RunRecord> runs;                              // newest first
  std::vector<std::pair<int, std::vector<SeriesSummary>>> series; // by run, for runs with samples
  std::map<int, std::vector<core::RepeatRecord>> device_repeats;  // by run, for runs with any
};

// Reads one attempt from a PlanStream (the attempts asked for in ascending order).
StreamedAttempt read_attempt(store::PlanStream& stream, int attempt);

// Reads a plan's attempts on a thread of its own, through a second connection to the journal that
// sees the same snapshot, ahead of the judging and writing that use them: reading is a third of a
// large document's render, and on two cores it costs nothing of the rest. At most a bounded number
// of attempts wait to be taken.
class PlanPrefetch {
public:
  // nullptr when a second connection cannot see what `db` sees: an in-memory journal, or one
  // written to between the two snapshots (the caller then reads on its own connection). `db` is
  // inside a ReadTransaction that has read.
  static std::unique_ptr<PlanPrefetch> start(store::Database& db, const std::string& plan,
                                             std::vector<int> ascending_attempts);
  ~PlanPrefetch(); // stops the thread and waits for it
  PlanPrefetch(const PlanPrefetch&) = delete;
  PlanPrefetch& operator=(const PlanPrefetch&) = delete;

  // The attempt, once read (waiting for it); nullptr when it is not next in the order. An error
  // of the thread (a damaged journal) is thrown here.
  std::unique_ptr<StreamedAttempt> take(int attempt);
  // Gives a taken attempt back, done with, to be freed on the thread, which allocated all of it:
  // glibc frees another thread's memory under that thread's arena lock, and the two threads then
  // wait for each other (freeing the attempts here cost a large render thousands of such waits).
  void dispose(std::unique_ptr<StreamedAttempt> attempt);

private:
  PlanPrefetch(store::Database connection, std::string plan, std::vector<int> attempts);
  void read_all();

  store::Database m_connection; // used by the thread only, once it started
  std::string m_plan;
  std::vector<int> m_attempts;
  // Under m_ahead's mutex. The thread is woken when half of what it read ahead was taken, or much
  // was disposed of; the taker when an attempt is ready.
  std::deque<std::unique_ptr<StreamedAttempt>> m_ready;
  bool m_done = false;
  std::exception_ptr m_error;
  util::WorkAhead<StreamedAttempt> m_ahead; // last: its thread stops before anything above goes
};

} // namespace ej::evidence
