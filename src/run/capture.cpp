#include "run/capture.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace ej::run {

std::string Capture::text() const
{
  if (cut_bytes == 0) {
    return head + tail;
  }
  return fmt::format("{}\n[... {} bytes cut ...]\n{}", head, cut_bytes, tail);
}

CaptureBuffer::CaptureBuffer(std::size_t head_bytes, std::size_t tail_bytes)
    : m_head_limit(head_bytes), m_tail_limit(tail_bytes)
{
}

void CaptureBuffer::append(std::string_view data)
{
  if (m_keep_whole) {
    if (!m_whole && m_head.size() + data.size() > m_head_limit) {
      m_whole = std::make_shared<util::SpoolFile>();
      m_whole->append(m_head);
    }
    if (m_whole) {
      m_whole->append(data);
    }
  }
  m_total += data.size();
  // Reserved at the first output, not up front: a repeat that prints nothing allocates nothing,
  // and glibc gives back a freed 128 KiB (two streams) to the kernel after every repeat only to
  // fault it in again in the next, 15 us of a 0.7 ms repeat.
  if (m_head.capacity() < k_first_reserve && m_head.empty() && !data.empty()) {
    m_head.reserve(std::min(m_head_limit, std::max(k_first_reserve, data.size())));
  }
  if (m_head.size() < m_head_limit) {
    const std::size_t n = std::min(data.size(), m_head_limit - m_head.size());
    m_head.append(data.substr(0, n));
    data.remove_prefix(n);
  }
  if (data.empty() || m_tail_limit == 0) {
    return;
  }
  // Most benchmarks print less than the head: they never pay for the ring.
  if (m_ring.empty()) {
    m_ring.resize(m_tail_limit);
  }
  const std::size_t capacity = m_ring.size();
  // Only the last `capacity` bytes of a big chunk can survive: skip the rest without copying.
  if (data.size() >= capacity) {
    data.remove_prefix(data.size() - capacity);
    std::memcpy(m_ring.data(), data.data(), capacity);
    m_ring_pos = 0;
    m_ring_filled = capacity;
    return;
  }
  const std::size_t first = std::min(data.size(), capacity - m_ring_pos);
  std::memcpy(m_ring.data() + m_ring_pos, data.data(), first);
  std::memcpy(m_ring.data(), data.data() + first, data.size() - first);
  m_ring_pos = (m_ring_pos + data.size()) % capacity;
  m_ring_filled = std::min(capacity, m_ring_filled + data.size());
}

Capture CaptureBuffer::finish() const
{
  Capture capture;
  capture.head = m_head;
  capture.total_bytes = m_total;
  if (m_ring_filled < m_ring.size()) {
    capture.tail.assign(m_ring.data(), m_ring_filled);
  } else {
    capture.tail.reserve(m_ring.size());
    capture.tail.append(m_ring.data() + m_ring_pos, m_ring.size() - m_ring_pos);
    capture.tail.append(m_ring.data(), m_ring_pos);
  }
  capture.cut_bytes = m_total - capture.head.size() - capture.tail.size();
  if (capture.cut_bytes > 0) {
    capture.whole = m_whole; // a failed copy too: its error says what is missing
  }
  return capture;
}

} // namespace ej::run
