#include "measuring/progress_note.h"

#include "util/fs.h"
#include "util/time.h"

#include <nlohmann/json.hpp>

namespace ej::measuring {

namespace {

constexpr std::int64_t k_write_every_ns = 500'000'000;

} // namespace

std::filesystem::path progress_note_path(const Workspace& workspace, const std::string& run_id)
{
  return workspace.ej_dir / "runs" / (run_id + ".progress");
}

std::optional<ProgressNote> read_progress_note(const Workspace& workspace, const std::string& run_id)
{
  std::optional<std::string> text;
  try {
    text = util::read_file(progress_note_path(workspace, run_id));
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (!text) {
    return std::nullopt;
  }
  const auto json = nlohmann::json::parse(*text, nullptr, false);
  if (!json.is_object()) {
    return std::nullopt; // written by rename, so never half; anything else is not a note
  }
  ProgressNote note;
  note.phase = json.value("phase", "");
  note.combination = json.value("combination", 0);
  note.combinations = json.value("combinations", 0);
  note.done = json.value("done", 0);
  note.planned = json.value("planned", 0);
  note.measuring_s = json.value("measuring_s", 0.0);
  note.written_ms = json.value("written_ms", std::int64_t{0});
  return note;
}

ProgressRecorder::~ProgressRecorder()
{
  detach();
}

void ProgressRecorder::attach(std::filesystem::path note)
{
  std::error_code ignored;
  std::filesystem::create_directories(note.parent_path(), ignored);
  {
    std::lock_guard lock(m_mutex);
    m_path = std::move(note);
    m_note.phase = "recorded";
    m_stop = false;
    changed(true);
  }
  try {
    m_writer = std::thread([this] { write_loop(); });
  } catch (const std::exception&) {
    std::lock_guard lock(m_mutex);
    m_path.clear(); // no thread, no note: the run goes on
  }
}

void ProgressRecorder::set_phase(std::string_view phase)
{
  std::lock_guard lock(m_mutex);
  m_note.phase = phase;
  changed(true);
}

void ProgressRecorder::planned_unknown()
{
  std::lock_guard lock(m_mutex);
  m_planned_known = false;
  m_note.planned = 0;
}

void ProgressRecorder::detach() noexcept
{
  std::filesystem::path path;
  {
    std::lock_guard lock(m_mutex);
    m_stop = true;
    path = m_path;
    m_path.clear();
  }
  m_wake.notify_all();
  if (m_writer.joinable()) {
    m_writer.join();
  }
  if (!path.empty()) {
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
  }
}

void ProgressRecorder::run_started(const RunShape& shape)
{
  m_inner.run_started(shape);
  std::lock_guard lock(m_mutex);
  if (m_measuring_since_ns == 0) {
    m_measuring_since_ns = util::monotonic_ns();
  }
  m_note.phase = "measuring";
  m_note.combinations = shape.combinations;
  m_note.planned = m_planned_known ? shape.total_repeats : 0;
  changed(true);
}

void ProgressRecorder::combination_started(int index, const std::string& label, int repeats)
{
  m_inner.combination_started(index, label, repeats);
  std::lock_guard lock(m_mutex);
  m_note.combination = index;
  changed(true);
}

void ProgressRecorder::repeat_started(int repeat, bool warmup)
{
  m_inner.repeat_started(repeat, warmup);
}

void ProgressRecorder::repeat_ended(std::optional<double> median)
{
  m_inner.repeat_ended(median);
  std::lock_guard lock(m_mutex);
  ++m_note.done;
  changed(false);
}

void ProgressRecorder::output(std::string_view chunk)
{
  m_inner.output(chunk);
}

void ProgressRecorder::message(std::string_view line)
{
  m_inner.message(line);
}

void ProgressRecorder::run_ended()
{
  m_inner.run_ended();
  std::lock_guard lock(m_mutex);
  changed(true);
}

void ProgressRecorder::changed(bool now)
{
  m_dirty = true;
  m_note.measuring_s =
      m_measuring_since_ns == 0 ? 0 : static_cast<double>(util::monotonic_ns() - m_measuring_since_ns) / 1e9;
  m_note.written_ms = util::now_ms();
  if (now) {
    m_urgent = true;
    m_wake.notify_all();
  }
}

void ProgressRecorder::write_loop()
{
  std::unique_lock lock(m_mutex);
  while (!m_stop) {
    if (!m_urgent) {
      m_wake.wait_for(lock, std::chrono::nanoseconds(k_write_every_ns),
                      [this] { return m_stop || m_urgent; });
    }
    if (m_stop) {
      return;
    }
    if (!m_dirty) {
      continue;
    }
    const auto note = m_note;
    const auto path = m_path;
    m_dirty = false;
    m_urgent = false;
    lock.unlock();
    write_note(note, path);
    lock.lock();
  }
}

void ProgressRecorder::write_note(ProgressNote note, const std::filesystem::path& path) noexcept
{
  try {
    const nlohmann::json json = {{"phase", note.phase},
                                 {"combination", note.combination},
                                 {"combinations", note.combinations},
                                 {"done", note.done},
                                 {"planned", note.planned},
                                 {"measuring_s", note.measuring_s},
                                 {"written_ms", note.written_ms}};
    util::write_file_atomic(path, json.dump() + "\n");
  } catch (const std::exception&) {
    // the run goes on without its note: ej wait then says less
  }
}

} // namespace ej::measuring
