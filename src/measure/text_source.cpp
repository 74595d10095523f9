#include "measure/text_source.h"

#include "util/error.h"
#include "util/unique_fd.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

namespace ej::measure {

TextSource TextSource::of_owned(std::string text)
{
  auto owned = std::make_shared<const std::string>(std::move(text));
  TextSource source{std::string_view(*owned)};
  source.m_owner = std::move(owned);
  return source;
}

std::optional<TextSource> TextSource::open(const std::filesystem::path& path)
{
  // O_NONBLOCK: a FIFO put where a result file should be must not hang ej in open().
  util::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!fd) {
    if (errno == ENOENT) {
      return std::nullopt;
    }
    throw Error("cannot open '{}': {}", path.string(), std::strerror(errno));
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) {
    throw Error("cannot read '{}': {}", path.string(), std::strerror(errno));
  }
  if (!S_ISREG(info.st_mode)) {
    throw Error("'{}' is not a regular file ({}): ej reads results only from files a program wrote",
                path.string(),
                S_ISDIR(info.st_mode)    ? "a directory"
                : S_ISFIFO(info.st_mode) ? "a FIFO"
                                         : "a device or socket");
  }
  auto owner = std::make_shared<util::UniqueFd>(std::move(fd));
  const int raw = owner->get();
  return of_file(std::move(owner), raw, static_cast<std::uint64_t>(info.st_size));
}

TextSource TextSource::of_file(std::shared_ptr<const void> owner, int fd, std::uint64_t size)
{
  TextSource source;
  source.m_owner = std::move(owner);
  source.m_fd = fd;
  source.m_size = size;
  return source;
}

TextSource TextSource::unavailable(std::string why, std::string shown_tail)
{
  TextSource source = of_owned(std::move(shown_tail));
  source.m_unavailable = std::move(why);
  return source;
}

void TextSource::check_available() const
{
  if (!m_unavailable.empty()) {
    throw Error("{}", m_unavailable);
  }
}

std::size_t TextSource::read_at(std::uint64_t offset, char* into, std::size_t count) const
{
  std::size_t done = 0;
  while (done < count) {
    const ssize_t n = ::pread(m_fd, into + done, count - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      throw Error("reading the output back failed at byte {}: {}", offset + done, std::strerror(errno));
    }
    if (n == 0) {
      break; // the file is shorter than it was: read what there is
    }
    done += static_cast<std::size_t>(n);
  }
  return done;
}

void TextSource::for_each_chunk(const std::function<void(std::string_view)>& read) const
{
  check_available();
  if (in_memory()) {
    read(m_text); // already in memory: one piece, however large
    return;
  }
  std::vector<char> buffer(std::min<std::uint64_t>(k_chunk_bytes, std::max<std::uint64_t>(m_size, 1)));
  std::size_t held = 0; // bytes of an unfinished line carried over from the previous piece
  std::uint64_t offset = 0;
  while (true) {
    if (held == buffer.size()) {
      if (buffer.size() < k_max_chunk_bytes) {
        buffer.resize(std::min(buffer.size() * 2, k_max_chunk_bytes)); // a long line: room for it
      } else {
        read(std::string_view(buffer.data(), held)); // a line longer than any piece: cut here
        held = 0;
      }
    }
    const std::size_t got = read_at(offset, buffer.data() + held, buffer.size() - held);
    offset += got;
    const std::size_t filled = held + got;
    if (got == 0) {
      if (filled > 0) {
        read(std::string_view(buffer.data(), filled));
      }
      return;
    }
    const std::string_view piece(buffer.data(), filled);
    const auto last_newline = piece.rfind('\n');
    if (last_newline == std::string_view::npos) {
      held = filled;
      continue;
    }
    read(piece.substr(0, last_newline + 1));
    held = filled - (last_newline + 1);
    std::memmove(buffer.data(), buffer.data() + last_newline + 1, held);
  }
}

std::string_view TextSource::whole(std::string& storage) const
{
  check_available();
  if (in_memory()) {
    return m_text;
  }
  storage.resize(m_size);
  storage.resize(read_at(0, storage.data(), storage.size()));
  return storage;
}

std::string TextSource::tail(std::size_t max_bytes) const
{
  const std::uint64_t count = std::min<std::uint64_t>(max_bytes, m_size);
  if (in_memory()) {
    return std::string(m_text.substr(m_text.size() - count));
  }
  std::string out(count, '\0');
  out.resize(read_at(m_size - count, out.data(), out.size()));
  return out;
}

} // namespace ej::measure
