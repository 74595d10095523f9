#include "cli/run_progress.h"

#include "evidence/measured_format.h"
#include "run/signals.h"
#include "util/time.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <sys/ioctl.h>
#include <unistd.h>

namespace ej::cli {

namespace {

constexpr auto k_redraw = std::chrono::milliseconds(100);
constexpr std::size_t k_kept_output = 400; // bytes of the last line

constexpr std::array<std::string_view, 10> k_spinner = {"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"};

std::size_t terminal_columns()
{
  winsize size{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
    return size.ws_col;
  }
  return 80;
}

// Cut to `columns` code points.
std::string cut(const std::string& text, std::size_t columns)
{
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && seen++ == columns) {
      return text.substr(0, i);
    }
  }
  return text;
}

// The printable part of a line of output: escape sequences and control characters never reach
// the terminal, and a line cut in the middle of a character loses the broken end.
std::string printable(std::string_view line)
{
  std::string out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const auto c = static_cast<unsigned char>(line[i]);
    if (c == 0x1b) { // CSI ... final byte
      if (i + 1 < line.size() && line[i + 1] == '[') {
        for (i += 2; i < line.size() && !(line[i] >= 0x40 && line[i] <= 0x7e); ++i) {
        }
      }
      continue;
    }
    if (c == '\t') {
      out += ' ';
    } else if (c >= 0x20 && c != 0x7f) {
      out += static_cast<char>(c);
    }
  }
  // A character cut short at the end goes.
  std::size_t lead = out.size();
  while (lead > 0 && (static_cast<unsigned char>(out[lead - 1]) & 0xC0) == 0x80) {
    --lead;
  }
  if (lead > 0) {
    const auto c = static_cast<unsigned char>(out[lead - 1]);
    const std::size_t length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    if (out.size() - (lead - 1) < length) {
      out.resize(lead - 1);
    }
  }
  return out;
}

// Writes text to ej's stderr without stdio, which throws (fmt) or keeps a sticky error. False
// when it could not: after EIO the terminal is gone (hung up, its pty closed, often with no SIGHUP
// to ej), which ends the run as a SIGHUP would, whichever thread sees it first.
bool write_stderr(std::string_view text) noexcept
{
  while (!text.empty()) {
    const auto written = ::write(STDERR_FILENO, text.data(), text.size());
    if (written < 0 && errno == EINTR) {
      continue;
    }
    if (written <= 0) {
      if (written < 0 && errno == EIO) {
        run::InterruptGuard::hang_up();
      }
      return false;
    }
    text.remove_prefix(static_cast<std::size_t>(written));
  }
  return true;
}

} // namespace

std::string duration_text(double seconds)
{
  if (seconds < 60) {
    return fmt::format("{:.1f} s", seconds);
  }
  const auto whole = static_cast<long long>(std::llround(seconds));
  if (whole < 3600) {
    return fmt::format("{}m{:02}s", whole / 60, whole % 60);
  }
  return fmt::format("{}h{:02}m", whole / 3600, whole / 60 % 60);
}

std::string progress_line(const ProgressState& state, std::size_t columns)
{
  std::string line(k_spinner[static_cast<std::size_t>(state.frame) % k_spinner.size()]);
  if (state.combinations > 1 || !state.label.empty()) {
    line += fmt::format(" {}/{}", state.combination, state.combinations);
    if (!state.label.empty()) {
      line += " " + state.label;
    }
    line += " ·";
  }
  line += fmt::format(" {} {}/{}", state.warmup ? "warmup" : "repeat", state.repeat, state.repeats);
  if (!state.median.empty()) {
    line += fmt::format(" · median {} {}", state.metric, state.median);
  }
  line += " · " + duration_text(state.elapsed_s);
  if (state.eta_s) {
    line += " · ETA " + duration_text(*state.eta_s);
  }
  if (state.repeat_running_s && *state.repeat_running_s >= 1.0) {
    line += fmt::format(" · this repeat {}", duration_text(*state.repeat_running_s));
  }
  if (state.repeat_running_s && !state.last_output.empty()) {
    line += ": " + state.last_output;
  }
  return cut(line, columns);
}

RunProgress::RunProgress(bool shown) : m_shown(shown) {}

RunProgress::~RunProgress()
{
  run_ended();
}

void RunProgress::run_started(const measuring::RunShape& shape)
{
  if (!m_shown || m_thread.joinable()) {
    return;
  }
  {
    const std::lock_guard lock(m_mutex);
    m_unit = shape.unit;
    m_total = shape.total_repeats;
    m_started_ns = util::monotonic_ns();
    m_state.metric = shape.metric;
    m_state.combinations = shape.combinations;
    m_stop = false;
  }
  m_thread = std::thread([this] { draw_loop(); });
}

void RunProgress::run_ended()
{
  if (!m_thread.joinable()) {
    return;
  }
  {
    const std::lock_guard lock(m_mutex);
    m_stop = true;
  }
  m_wake.notify_one();
  m_thread.join();
  if (m_drawn && !m_gone) {
    write_stderr("\r\x1b[K"); // the summary takes its place
  }
  m_drawn = false;
}

void RunProgress::combination_started(int index, const std::string& label, int repeats)
{
  if (!m_shown) {
    return;
  }
  const std::lock_guard lock(m_mutex);
  m_state.combination = index;
  m_state.label = label;
  m_state.repeats = repeats;
  m_state.median.clear();
}

void RunProgress::repeat_started(int repeat, bool warmup)
{
  if (!m_shown) {
    return;
  }
  const std::lock_guard lock(m_mutex);
  m_state.repeat = repeat;
  m_state.warmup = warmup;
  m_repeat_started_ns = util::monotonic_ns();
  m_state.last_output.clear();
  m_partial.clear();
}

void RunProgress::repeat_ended(std::optional<double> median)
{
  if (!m_shown) {
    return;
  }
  const std::lock_guard lock(m_mutex);
  ++m_done;
  m_repeat_started_ns = 0;
  m_last_end_ns = util::monotonic_ns();
  if (median) {
    m_state.median = evidence::MeasuredFormat(*median, m_unit)(*median);
  }
}

void RunProgress::output(std::string_view chunk)
{
  if (!m_shown) {
    return;
  }
  const std::lock_guard lock(m_mutex);
  for (const char c : chunk) {
    if (c == '\n' || c == '\r') {
      if (!m_partial.empty()) {
        m_state.last_output = printable(m_partial);
        m_partial.clear();
      }
    } else if (m_partial.size() < k_kept_output) {
      m_partial += c;
    }
  }
}

void RunProgress::message(std::string_view line)
{
  if (!m_shown) {
    write_stderr(fmt::format("{}\n", line));
    return;
  }
  const std::lock_guard lock(m_mutex);
  if (!m_gone) {
    m_gone = !write_stderr(fmt::format("{}{}\n", m_drawn ? "\r\x1b[K" : "", line));
  }
  m_drawn = false;
}

void RunProgress::draw_loop()
{
  std::unique_lock lock(m_mutex);
  while (!m_wake.wait_for(lock, k_redraw, [this] { return m_stop; })) {
    const auto now = util::monotonic_ns();
    m_state.elapsed_s = static_cast<double>(now - m_started_ns) / 1e9;
    m_state.repeat_running_s.reset();
    if (m_repeat_started_ns != 0) {
      m_state.repeat_running_s = static_cast<double>(now - m_repeat_started_ns) / 1e9;
      if (m_state.last_output.empty() && !m_partial.empty()) {
        m_state.last_output = printable(m_partial);
      }
    }
    // The repeats left at the pace so far, less what the running one has done already: an ETA that
    // counts down during a repeat instead of growing.
    m_state.eta_s.reset();
    if (m_done > 0 && m_total > m_done) {
      const double per_repeat = static_cast<double>(m_last_end_ns - m_started_ns) / 1e9 / m_done;
      m_state.eta_s = std::max(0.0, per_repeat * (m_total - m_done) - m_state.repeat_running_s.value_or(0));
    }
    ++m_state.frame;
    if (m_gone) {
      continue; // nothing to draw on
    }
    const auto line = progress_line(m_state, terminal_columns() - 1);
    m_gone = !write_stderr(fmt::format("\r{}\x1b[K", line));
    m_drawn = !m_gone;
  }
}

} // namespace ej::cli
