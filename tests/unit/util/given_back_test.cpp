#include "util/given_back.h"

#include <catch2/catch.hpp>

#include <thread>

namespace {

// Says on which thread it was destroyed.
struct Witness {
  std::thread::id* freed_on;
  ~Witness() { *freed_on = std::this_thread::get_id(); }
};

} // namespace

TEST_CASE("what is given back is freed by the worker that frees it, with the lock held again after")
{
  std::mutex mutex;
  ej::util::GivenBack<Witness> given;
  std::thread::id freed_on;
  {
    std::lock_guard lock(mutex);
    given.give(std::unique_ptr<Witness>(new Witness{&freed_on}));
    given.give(std::unique_ptr<Witness>(new Witness{&freed_on}));
    CHECK(given.size() == 2);
  }
  std::thread::id worker_id;
  bool locked_after = false; // (Catch's assertions are for the test's own thread)
  std::size_t left = 1;
  std::thread worker([&] {
    worker_id = std::this_thread::get_id();
    std::unique_lock lock(mutex);
    given.free(lock);
    locked_after = lock.owns_lock();
    left = given.size();
  });
  worker.join();
  CHECK(locked_after);
  CHECK(left == 0);
  CHECK(freed_on == worker_id);
  CHECK(freed_on != std::this_thread::get_id());
}
