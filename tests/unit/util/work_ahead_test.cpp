#include "util/work_ahead.h"

#include <catch2/catch.hpp>

#include <deque>
#include <memory>
#include <thread>
#include <vector>

namespace {

// Says on which thread it was freed.
struct Freed {
  std::thread::id* on;
  ~Freed() { *on = std::this_thread::get_id(); }
};

} // namespace

TEST_CASE("a thread works ahead of its taker, frees on itself what is given back, and stops when told")
{
  std::deque<int> ready; // under the mutex
  std::thread::id worker;
  std::thread::id freed_on;
  bool stopped = false;
  ej::util::WorkAhead<Freed> ahead(2);
  ahead.start([&] {
    std::unique_lock lock(ahead.mutex());
    worker = std::this_thread::get_id();
    for (int item = 1; item <= 3; ++item) {
      ready.push_back(item);
      ahead.wake_taker();
    }
    while (!ahead.stopping()) {
      ahead.thread_sleep(lock, [&] { return ahead.batch_given(); });
      ahead.free_given(lock);
    }
    stopped = true;
  });
  std::vector<int> taken;
  {
    std::unique_lock lock(ahead.mutex());
    while (taken.size() < 3) {
      if (ready.empty()) {
        ahead.taker_sleep(lock);
        continue;
      }
      taken.push_back(ready.front());
      ready.pop_front();
    }
  }
  CHECK(taken == std::vector<int>{1, 2, 3});

  // Given back, they are freed on the thread (a batch wakes it; stopping frees what is left).
  ahead.dispose(std::unique_ptr<Freed>(new Freed{&freed_on}));
  ahead.dispose(std::unique_ptr<Freed>(new Freed{&freed_on}));
  ahead.stop();
  CHECK(stopped);
  CHECK(freed_on == worker);
  CHECK(freed_on != std::this_thread::get_id());
  ahead.stop(); // (again: nothing left to stop)
}
