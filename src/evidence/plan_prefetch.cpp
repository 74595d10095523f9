#include "evidence/plan_prefetch.h"

#include "store/run_queries.h"
#include "util/error.h"

#include <system_error>

namespace ej::evidence {

namespace {

// Attempts read ahead at most: enough to keep the thread busy while one is judged, few enough that
// the document never holds more than a few hundred attempts' runs.
constexpr std::size_t k_ahead = 64;

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
      m_thread([this] { read_all(); })
{
}

PlanPrefetch::~PlanPrefetch()
{
  {
    std::lock_guard lock(m_mutex);
    m_stop = true;
  }
  m_changed.notify_all();
  m_thread.join();
}

void PlanPrefetch::read_all()
{
  try {
    store::PlanStream stream(m_connection, m_plan);
    for (const int attempt : m_attempts) {
      auto read = read_attempt(stream, attempt);
      std::unique_lock lock(m_mutex);
      m_changed.wait(lock, [&] { return m_stop || m_ready.size() < k_ahead; });
      if (m_stop) {
        break;
      }
      m_ready.push_back(std::move(read));
      lock.unlock();
      m_changed.notify_all();
    }
  } catch (...) {
    std::lock_guard lock(m_mutex);
    m_error = std::current_exception();
  }
  {
    std::lock_guard lock(m_mutex);
    m_done = true;
  }
  m_changed.notify_all();
}

std::optional<StreamedAttempt> PlanPrefetch::take(int attempt)
{
  std::unique_lock lock(m_mutex);
  while (true) {
    bool dropped = false;
    while (!m_ready.empty() && m_ready.front().number < attempt) {
      m_ready.pop_front(); // asked for past it: never asked for
      dropped = true;
    }
    if (dropped) {
      m_changed.notify_all(); // room again for the thread, which may be waiting for it
    }
    if (!m_ready.empty()) {
      if (m_ready.front().number != attempt) {
        return std::nullopt;
      }
      auto out = std::move(m_ready.front());
      m_ready.pop_front();
      lock.unlock();
      m_changed.notify_all();
      return out;
    }
    if (m_done) {
      if (m_error) {
        std::rethrow_exception(m_error);
      }
      return std::nullopt;
    }
    m_changed.wait(lock);
  }
}

} // namespace ej::evidence
