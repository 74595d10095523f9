#pragma once

#include "core/run_records.h"
#include "evidence/series.h"
#include "store/database.h"
#include "store/run_queries.h"
#include "util/given_back.h"

#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
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
  std::mutex m_mutex;
  // Each side sleeps on a condition of its own and is woken only while it sleeps: the thread when
  // half of what it read ahead was taken, or much was disposed of; the taker when an attempt is
  // ready. A wake-up for every attempt taken cost as much in task switches as the reading itself.
  std::condition_variable m_thread_wake;
  std::condition_variable m_taker_wake;
  bool m_thread_waits = false;
  bool m_taker_waits = false;
  std::deque<std::unique_ptr<StreamedAttempt>> m_ready;
  util::GivenBack<StreamedAttempt> m_disposed;
  bool m_done = false;
  bool m_stop = false;
  std::exception_ptr m_error;
  std::thread m_thread; // last: started when everything above is
};

} // namespace ej::evidence
