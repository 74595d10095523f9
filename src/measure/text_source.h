#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace ej::measure {

// What a reader reads: a text in memory, or a file read in pieces (an output spooled because it
// outgrew the capture, a result file, a saved output given to `ej bench test`). Line-based
// readers go through it chunk by chunk, in bounded memory whatever its size; the others load
// it whole, below a size limit (extract.h).
class TextSource {
public:
  TextSource() = default; // the empty text
  // Borrow text, which must outlive the source (a temporary string would not: deleted).
  TextSource(std::string_view text) : m_text(text), m_size(text.size()) {}
  TextSource(const char* text) : TextSource(std::string_view(text)) {}
  TextSource(const std::string& text) : TextSource(std::string_view(text)) {}
  TextSource(std::string&&) = delete;

  // Owns text (a result file a test made up, stdin read to its end).
  static TextSource of_owned(std::string text);
  // Opens a file to read; nullopt when there is none. Throws ej::Error when it is not a regular
  // file (a FIFO would block, a directory cannot be read) or cannot be opened.
  static std::optional<TextSource> open(const std::filesystem::path& path);
  // Reads descriptor fd from its start (with pread: its offset is never moved); owner keeps it open.
  static TextSource of_file(std::shared_ptr<const void> owner, int fd, std::uint64_t size);
  // A source that cannot be read: every read throws ej::Error(why); tail() gives shown_tail (the
  // end of the output that is known, for messages).
  static TextSource unavailable(std::string why, std::string shown_tail = {});

  std::uint64_t size() const { return m_size; }
  bool in_memory() const { return m_fd < 0; }
  bool available() const { return m_unavailable.empty(); }
  const std::string& why_unavailable() const { return m_unavailable; }

  // Calls read with consecutive pieces that end at a line end ('\n'), except the last piece and
  // a line longer than the longest piece (k_max_chunk_bytes), which is cut there.
  void for_each_chunk(const std::function<void(std::string_view)>& read) const;
  // The whole text: a view of the text in memory, or the file read into storage.
  std::string_view whole(std::string& storage) const;
  // The last (up to) max_bytes, for messages.
  std::string tail(std::size_t max_bytes) const;

  static constexpr std::size_t k_chunk_bytes = std::size_t{4} << 20;
  static constexpr std::size_t k_max_chunk_bytes = std::size_t{16} << 20;

private:
  std::size_t read_at(std::uint64_t offset, char* into, std::size_t count) const;
  void check_available() const;

  std::string_view m_text;
  std::shared_ptr<const void> m_owner;
  int m_fd = -1;
  std::uint64_t m_size = 0;
  std::string m_unavailable; // why it cannot be read, when it cannot
};

} // namespace ej::measure
