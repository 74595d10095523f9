#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

// What a worker thread made, given back by the thread it made it for, to be freed by the worker:
// glibc frees another thread's memory under that thread's arena lock, and two threads freeing
// and allocating each other's memory wait for each other (thousands of times in a large plan's
// render). The items are freed where they were made; the list that holds them grows on the giver.
// Guarded by the worker's own mutex, which callers hold for every member.
namespace ej::util {

template <typename T> class GivenBack {
public:
  // Never fails: without the memory to keep it, the item is freed here, by the giver (it is
  // given back from destructors, kainjow's among them).
  void give(std::unique_ptr<T> item) noexcept
  {
    try {
      m_given.push_back(std::move(item));
    } catch (...) {
      item.reset(); // (push_back moves from it only when it succeeds)
    }
  }
  std::size_t size() const { return m_given.size(); }

  // Frees what was given, outside `lock` (held on entry and on return), so that the other thread
  // goes on meanwhile. Called by the worker only.
  void free(std::unique_lock<std::mutex>& lock)
  {
    if (m_given.empty()) {
      return;
    }
    m_freeing.swap(m_given); // the two lists change hands: each keeps its buffer for the next time
    lock.unlock();
    m_freeing.clear();
    lock.lock();
  }

private:
  std::vector<std::unique_ptr<T>> m_given;
  std::vector<std::unique_ptr<T>> m_freeing; // the worker's, between two frees
};

} // namespace ej::util
