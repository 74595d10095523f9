#include "render/thaw_ahead.h"

#include "render/frozen_data.h"
#include "util/error.h"

#include <functional>
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

ThawAhead::ThawAhead() : m_ahead(k_free_batch)
{
  m_ahead.start([this] { thaw_all(); });
}

ThawAhead::~ThawAhead() = default;

void ThawAhead::thaw_all()
{
  std::unique_lock lock(m_ahead.mutex());
  const auto has_work = [&] {
    return m_list != nullptr && !m_failed && m_next < m_list->size() && m_ready.size() < k_ahead;
  };
  while (true) {
    if (!m_ahead.stopping() && !has_work() && !m_ahead.batch_given()) {
      m_ahead.thread_sleep(lock, [&] { return has_work() || m_ahead.batch_given(); });
    }
    m_ahead.free_given(lock);
    if (m_ahead.stopping()) {
      break;
    }
    if (!has_work()) {
      continue;
    }
    const auto generation = m_generation;
    const auto index = m_next++;
    const auto& item = (*m_list)[index];
    m_thawing = index;
    lock.unlock();
    // The list is the renderer's data, which nothing changes while it renders; only read here.
    std::unique_ptr<TemplateData> thawed;
    bool failed = false;
    try {
      if (const auto* frozen = frozen_bytes(item)) {
        thawed = std::make_unique<TemplateData>(thaw(*frozen));
      }
    } catch (...) {
      failed = true; // damaged, or out of memory: the renderer thaws it again, and reports it
    }
    lock.lock();
    if (generation != m_generation) {
      m_ahead.give_back(std::move(thawed)); // the renderer moved on to another list meanwhile
      continue;
    }
    m_thawing.reset();
    m_failed = m_failed || failed;
    if (!m_failed) {
      try {
        m_ready.emplace_back(index, std::move(thawed)); // (nullptr: not frozen)
      } catch (...) {
        m_failed = true; // out of memory: the renderer thaws the rest itself
      }
    }
    m_ahead.wake_taker();
  }
  m_ready.clear();
  m_ahead.free_given(lock);
}

void ThawAhead::ahead(const kainjow::mustache::list& items)
{
  std::lock_guard lock(m_ahead.mutex());
  if (m_list == &items) {
    return; // (named again inside its own section: the same list)
  }
  m_list = &items;
  ++m_generation;
  m_next = 0;
  m_thawing.reset(); // what the thread is at now is of the list before
  m_failed = false;
  for (auto& [index, thawed] : m_ready) {
    m_ahead.give_back(std::move(thawed));
  }
  m_ready.clear();
  m_ahead.wake_thread();
}

std::unique_ptr<TemplateData> ThawAhead::take(const TemplateData* item)
{
  std::unique_lock lock(m_ahead.mutex());
  const std::less<const TemplateData*> before; // (a total order, also on unrelated pointers)
  if (m_list == nullptr || m_list->empty() || before(item, m_list->data()) ||
      !before(item, m_list->data() + m_list->size())) {
    return nullptr;
  }
  const auto wanted = static_cast<std::size_t>(item - m_list->data());
  while (true) {
    while (!m_ready.empty() && m_ready.front().first < wanted) {
      m_ahead.give_back(std::move(m_ready.front().second)); // passed over: never asked for
      m_ready.pop_front();
    }
    if (!m_ready.empty() && m_ready.front().first == wanted) {
      auto out = std::move(m_ready.front().second);
      m_ready.pop_front();
      if (m_ready.size() <= k_ahead / 2 || m_ahead.batch_given()) {
        m_ahead.wake_thread();
      }
      return out;
    }
    if (m_thawing == wanted && !m_failed && !m_ahead.stopping()) {
      m_ahead.taker_sleep(lock); // the thread is at it: it is ready sooner than thawed here
      continue;
    }
    if (wanted >= m_next && !m_failed) {
      // Not started: the caller thaws it (waiting would leave a core idle) and the thread goes on
      // after it, passing over those before it, which were never asked for.
      m_next = wanted + 1;
      m_ahead.wake_thread();
    }
    return nullptr; // (also: taken before, by a template that visits the list twice)
  }
}

void ThawAhead::dispose(std::unique_ptr<TemplateData> thawed)
{
  m_ahead.dispose(std::move(thawed));
}

} // namespace ej::render
