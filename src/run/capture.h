#pragma once

#include "util/spool_file.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ej::run {

// What was kept of one output stream: the first bytes, the last bytes and how much was cut
// between them, so a benchmark printing gigabytes cannot blow up memory or the journal.
struct Capture {
  std::string head;
  std::string tail;
  std::uint64_t total_bytes = 0;
  std::uint64_t cut_bytes = 0;
  // Everything the stream carried, when it was asked for (keep_whole) and the stream outgrew the
  // head: extraction reads the whole output, the journal keeps head and tail.
  std::shared_ptr<const util::SpoolFile> whole;

  // head + "\n[... N bytes cut ...]\n" + tail, or the whole output when nothing was cut.
  std::string text() const;
};

// Keeps the first head_bytes and, in a ring, the last tail_bytes of everything appended.
// Memory is bounded by head_bytes + tail_bytes whatever the amount of data.
class CaptureBuffer {
public:
  CaptureBuffer(std::size_t head_bytes, std::size_t tail_bytes);

  // Also keeps everything in a temporary file once the output outgrows the head.
  void keep_whole() { m_keep_whole = true; }
  void append(std::string_view data);
  Capture finish() const;

private:
  static constexpr std::size_t k_first_reserve = 64 * 1024;
  std::size_t m_head_limit;
  std::string m_head;
  std::size_t m_tail_limit;
  std::vector<char> m_ring;   // allocated (tail_bytes) once output outgrows the head
  std::size_t m_ring_pos = 0; // where the next byte goes
  std::size_t m_ring_filled = 0;
  std::uint64_t m_total = 0;
  bool m_keep_whole = false;
  std::shared_ptr<util::SpoolFile> m_whole;
};

} // namespace ej::run
