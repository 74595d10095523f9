#include "render/thaw_ahead.h"

#include "render/frozen_data.h"
#include "util/error.h"

#include <system_error>

namespace ej::render {

namespace {

// Items thawed ahead at most: a few attempts' sections of a plan, each a few kilobytes.
constexpr std::size_t k_ahead = 32;
// Items given back are freed a batch at a time: woken for fewer, the thread sleeps on.
constexpr std::size_t k_free_batch = k_ahead / 4;

} // namespace

std::unique_ptr<ThawAhead> ThawAhead::start()
{
  try {
    return std::unique_ptr<ThawAhead>(new ThawAhead());
  } catch (const std::system_error&) {
    return nullptr; // no thread to be had: the renderer thaws on its own
  }
}

ThawAhead::ThawAhead() : m_thread([this] { thaw_all(); }) {}

ThawAhead::~ThawAhead()
{
  {
    std::lock_guard lock(m_mutex);
    m_stop = true;
  }
  m_thread_wake.notify_all();
  m_thread.join();
}

void ThawAhead::thaw_all()
{
  std::unique_lock lock(m_mutex);
  while (true) {
    const auto has_work = [&] {
      return m_list != nullptr && !m_failed && m_next < m_list->size() && m_ready.size() < k_ahead;
    };
    if (!m_stop && !has_work() && m_disposed.size() < k_free_batch) {
      m_thread_waits = true;
      m_thread_wake.wait(lock, [&] { return m_stop || has_work() || m_disposed.size() >= k_free_batch; });
      m_thread_waits = false;
    }
    m_disposed.free(lock);
    if (m_stop) {
      break;
    }
    if (!has_work()) {
      continue;
    }
    const auto generation = m_generation;
    const auto index = m_next++;
    const auto& item = (*m_list)[index];
    lock.unlock();
    // The list is the renderer's data, which nothing changes while it renders; only read here.
    std::unique_ptr<TemplateData> thawed;
    bool failed = false;
    if (const auto* frozen = frozen_bytes(item)) {
      try {
        thawed = std::make_unique<TemplateData>(thaw(*frozen));
      } catch (const Error&) {
        failed = true; // the renderer thaws it again, and reports it
      }
    }
    lock.lock();
    if (generation != m_generation) {
      m_disposed.give(std::move(thawed)); // the renderer moved on to another list meanwhile
      continue;
    }
    m_failed = m_failed || failed;
    m_ready.emplace_back(index, std::move(thawed)); // (nullptr: not frozen, or failed)
    if (m_taker_waits) {
      m_taker_wake.notify_one();
    }
  }
  m_ready.clear();
  m_disposed.free(lock);
}

void ThawAhead::ahead(const kainjow::mustache::list& items)
{
  std::lock_guard lock(m_mutex);
  if (m_list == &items) {
    return; // (named again inside its own section: the same list)
  }
  m_list = &items;
  ++m_generation;
  m_next = 0;
  m_failed = false;
  for (auto& [index, thawed] : m_ready) {
    m_disposed.give(std::move(thawed));
  }
  m_ready.clear();
  if (m_thread_waits) {
    m_thread_wake.notify_one();
  }
}

std::unique_ptr<TemplateData> ThawAhead::take(const TemplateData* item)
{
  std::unique_lock lock(m_mutex);
  if (m_list == nullptr || m_list->empty() || item < m_list->data() ||
      item >= m_list->data() + m_list->size()) {
    return nullptr;
  }
  const auto wanted = static_cast<std::size_t>(item - m_list->data());
  const auto started = m_ready.empty() ? m_next : m_ready.front().first;
  if (wanted < started) {
    return nullptr; // taken before (a template that visits the list twice)
  }
  if (wanted >= m_next) {
    // Not started: the caller thaws it (waiting would leave a core idle) and the thread goes on
    // after it, passing over those before it, which were never asked for.
    m_next = wanted + 1;
    for (auto& [index, thawed] : m_ready) {
      m_disposed.give(std::move(thawed));
    }
    m_ready.clear();
    if (m_thread_waits) {
      m_thread_wake.notify_one();
    }
    return nullptr;
  }
  while (true) {
    while (!m_ready.empty() && m_ready.front().first < wanted) {
      m_disposed.give(std::move(m_ready.front().second));
      m_ready.pop_front();
    }
    if (!m_ready.empty()) {
      if (m_ready.front().first != wanted) {
        return nullptr; // (cannot be: the items come in order, and none after it was asked for)
      }
      auto out = std::move(m_ready.front().second);
      m_ready.pop_front();
      if (m_thread_waits && (m_ready.size() <= k_ahead / 2 || m_disposed.size() >= k_free_batch)) {
        m_thread_wake.notify_one();
      }
      return out;
    }
    if (m_failed || m_stop) {
      return nullptr;
    }
    m_taker_waits = true; // for the item the thread is thawing now
    m_taker_wake.wait(lock);
    m_taker_waits = false;
  }
}

void ThawAhead::dispose(std::unique_ptr<TemplateData> thawed)
{
  std::lock_guard lock(m_mutex);
  m_disposed.give(std::move(thawed));
  if (m_thread_waits && m_disposed.size() >= k_free_batch) {
    m_thread_wake.notify_one();
  }
}

} // namespace ej::render
