#include "evidence/plan_prefetch.h"

#include "store/run_queries.h"
#include "util/error.h"

#include <system_error>

namespace ej::evidence {

namespace {

// Attempts read ahead at most: enough to keep the thread busy while one is judged, few enough that
// the document never holds more than a few hundred attempts' runs.
constexpr std::size_t k_ahead = 64;
// Attempts disposed of are freed a batch at a time: woken for fewer, the thread sleeps on.
constexpr std::size_t k_free_batch = k_ahead / 4;

// Which state of the journal a connection sees: events are only ever added (a purge adds one that
// says so), so the newest event's rowid and id name the state.
std::pair<std::int64_t, std::string> seen_state(store::Database& db)
{
  auto select = db.prepare("SELECT rowid, id FROM events ORDER BY rowid DESC LIMIT 1");
  if (!select.step()) {
    return {0, ""};
  }
  return {select.integer(0), select.text(1)};
}

} // namespace

StreamedAttempt read_attempt(store::PlanStream& stream, int attempt)
{
  StreamedAttempt out;
  out.number = attempt;
  out.runs = stream.runs(attempt);
  // Each run's samples come together: its series are complete when the next run's begin.
  SeriesBuilder builder;
  std::optional<int> current;
  const auto finish_run = [&] {
    if (current) {
      out.series.emplace_back(*current, builder.take());
    }
  };
  stream.samples(attempt, [&](const store::SampleView& sample) {
    if (sample.run != current) {
      finish_run();
      current = sample.run;
    }
    builder.add(sample.params, sample.metric, sample.key, sample.value, sample.unit, sample.kind);
  });
  finish_run();
  out.device_repeats = stream.device_repeats(attempt);
  return out;
}

std::unique_ptr<PlanPrefetch> PlanPrefetch::start(store::Database& db, const std::string& plan,
                                                  std::vector<int> ascending_attempts)
{
  if (db.in_memory()) {
    return nullptr;
  }
  const auto mode =
      db.mode() == store::OpenMode::Immutable ? store::OpenMode::Immutable : store::OpenMode::ReadOnly;
  try {
    auto connection = store::Database::open(db.path(), mode);
    // In rollback-journal mode a writer waiting for this command's lock blocks a new reader: rather
    // than wait for it, read on the command's own connection.
    connection.set_busy_timeout(0);
    connection.exec("BEGIN DEFERRED");
    if (seen_state(connection) != seen_state(db)) {
      return nullptr; // a write came between the two: this connection sees a later journal
    }
    return std::unique_ptr<PlanPrefetch>(
        new PlanPrefetch(std::move(connection), plan, std::move(ascending_attempts)));
  } catch (const Error&) {
    // Reading ahead only saves time: without a second connection (no descriptor left, a lock),
    // the caller's own reads go on, and they report whatever is wrong with the journal itself.
    return nullptr;
  } catch (const std::system_error&) {
    return nullptr; // no thread to be had: the same
  }
}

PlanPrefetch::PlanPrefetch(store::Database connection, std::string plan, std::vector<int> attempts)
    : m_connection(std::move(connection)), m_plan(std::move(plan)), m_attempts(std::move(attempts)),
      m_ahead(k_free_batch)
{
  m_ahead.start([this] { read_all(); });
}

PlanPrefetch::~PlanPrefetch() = default;

void PlanPrefetch::read_all()
{
  try {
    store::PlanStream stream(m_connection, m_plan);
    for (const int attempt : m_attempts) {
      auto read = std::make_unique<StreamedAttempt>(read_attempt(stream, attempt));
      std::unique_lock lock(m_ahead.mutex());
      m_ahead.free_given(lock);
      while (!m_ahead.stopping() && m_ready.size() >= k_ahead) {
        // Full: sleep until half of it was taken, not until the next take.
        m_ahead.thread_sleep(lock, [&] { return m_ready.size() <= k_ahead / 2 || m_ahead.batch_given(); });
        m_ahead.free_given(lock);
      }
      if (m_ahead.stopping()) {
        break;
      }
      m_ready.push_back(std::move(read));
      m_ahead.wake_taker();
    }
  } catch (...) {
    std::lock_guard lock(m_ahead.mutex());
    m_error = std::current_exception();
  }
  std::unique_lock lock(m_ahead.mutex());
  m_done = true;
  m_ahead.wake_taker();
  // Everything read: what the taker disposes of is freed here until it stops the thread.
  while (true) {
    m_ahead.free_given(lock);
    if (m_ahead.stopping()) {
      break;
    }
    m_ahead.thread_sleep(lock, [&] { return m_ahead.batch_given(); });
  }
  m_ahead.free_given(lock);
  m_ready.clear();
}

void PlanPrefetch::dispose(std::unique_ptr<StreamedAttempt> attempt)
{
  m_ahead.dispose(std::move(attempt));
}

std::unique_ptr<StreamedAttempt> PlanPrefetch::take(int attempt)
{
  std::unique_lock lock(m_ahead.mutex());
  while (true) {
    while (!m_ready.empty() && m_ready.front()->number < attempt) {
      m_ahead.give_back(std::move(m_ready.front())); // asked for past it: never asked for
      m_ready.pop_front();
    }
    std::unique_ptr<StreamedAttempt> out;
    if (!m_ready.empty() && m_ready.front()->number == attempt) {
      out = std::move(m_ready.front());
      m_ready.pop_front();
    }
    if (!m_done && m_ready.size() <= k_ahead / 2) {
      m_ahead.wake_thread(); // room again for the thread
    }
    if (out || !m_ready.empty()) {
      return out; // (nullptr: the next one read is a later attempt)
    }
    if (m_done) {
      if (m_error) {
        std::rethrow_exception(m_error);
      }
      return nullptr;
    }
    m_ahead.taker_sleep(lock);
  }
}

} // namespace ej::evidence
