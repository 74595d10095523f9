#pragma once

#include "util/given_back.h"

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

// What a thread that works ahead of another (the taker) needs beside its work: one mutex, which
// also guards what its owner keeps; each side sleeping on a condition of its own, woken only while
// it sleeps (a wake-up for every item taken cost as much in task switches as the work itself); the
// items the taker is done with freed on the thread, which allocated them, a batch at a time
// (given_back.h); and a stop that wakes the thread and waits for it. The owner declares it last, so
// that the thread is stopped before anything it uses goes.
namespace ej::util {

template <typename Item> class WorkAhead {
public:
  // Given back, `free_batch` items wake the thread to free them.
  explicit WorkAhead(std::size_t free_batch) : m_free_batch(free_batch) {}
  ~WorkAhead() { stop(); }
  WorkAhead(const WorkAhead&) = delete;
  WorkAhead& operator=(const WorkAhead&) = delete;

  // Throws std::system_error when no thread can be had.
  void start(std::function<void()> work) { m_thread = std::thread(std::move(work)); }
  // Stops the thread and waits for it; it stops at the next stopping() it checks.
  void stop()
  {
    if (!m_thread.joinable()) {
      return;
    }
    {
      std::lock_guard lock(m_mutex);
      m_stop = true;
    }
    m_thread_wake.notify_all();
    m_thread.join();
  }

  // Everything below is called under this mutex.
  std::mutex& mutex() { return m_mutex; }
  bool stopping() const { return m_stop; }

  // The thread sleeps until `ready` holds or it is stopped, woken by wake_thread().
  template <typename Ready> void thread_sleep(std::unique_lock<std::mutex>& lock, Ready ready)
  {
    m_thread_waits = true;
    m_thread_wake.wait(lock, [&] { return m_stop || ready(); });
    m_thread_waits = false;
  }
  void wake_thread()
  {
    if (m_thread_waits) {
      m_thread_wake.notify_one();
    }
  }

  // The taker sleeps until the thread calls wake_taker() (or wakes spuriously: it checks again).
  void taker_sleep(std::unique_lock<std::mutex>& lock)
  {
    m_taker_waits = true;
    m_taker_wake.wait(lock);
    m_taker_waits = false;
  }
  void wake_taker()
  {
    if (m_taker_waits) {
      m_taker_wake.notify_one();
    }
  }

  // An item the taker is done with, or one nobody will take, to be freed on the thread.
  void give_back(std::unique_ptr<Item> item) noexcept { m_given.give(std::move(item)); }
  bool batch_given() const { return m_given.size() >= m_free_batch; }
  // Frees what was given back, outside `lock`: on the thread only.
  void free_given(std::unique_lock<std::mutex>& lock) { m_given.free(lock); }

  // give_back() from the taker, which takes the mutex for it and wakes the thread for a batch.
  void dispose(std::unique_ptr<Item> item)
  {
    std::lock_guard lock(m_mutex);
    give_back(std::move(item));
    if (batch_given()) {
      wake_thread();
    }
  }

private:
  std::mutex m_mutex;
  std::condition_variable m_thread_wake;
  std::condition_variable m_taker_wake;
  bool m_thread_waits = false;
  bool m_taker_waits = false;
  bool m_stop = false;
  GivenBack<Item> m_given;
  std::size_t m_free_batch;
  std::thread m_thread; // joined by stop(), before anything above goes
};

} // namespace ej::util
