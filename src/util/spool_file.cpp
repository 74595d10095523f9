#include "util/spool_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

namespace ej::util {

namespace {

std::string temporary_directory()
{
  const char* dir = std::getenv("TMPDIR");
  return dir != nullptr && *dir != '\0' ? dir : "/tmp";
}

} // namespace

SpoolFile::SpoolFile()
{
  const auto dir = temporary_directory();
  int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) {
    // Filesystems without O_TMPFILE: a named file, unlinked at once.
    std::string path = dir + "/ej-spool.XXXXXX";
    fd = ::mkostemp(path.data(), O_CLOEXEC);
    if (fd >= 0) {
      ::unlink(path.c_str());
    }
  }
  if (fd < 0) {
    m_error = "cannot create a temporary file in " + dir + ": " + std::strerror(errno) +
              " (set TMPDIR to a writable directory with room)";
    return;
  }
  m_fd.reset(fd);
}

bool SpoolFile::append(std::string_view data)
{
  while (ok() && !data.empty()) {
    const ssize_t n = ::write(m_fd.get(), data.data(), data.size());
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      m_error = "writing the temporary copy in " + temporary_directory() + " failed after " +
                std::to_string(m_size) + " bytes: " + std::strerror(n < 0 ? errno : ENOSPC) +
                " (free space there, or set TMPDIR to a directory with room)";
      return false;
    }
    m_size += static_cast<std::uint64_t>(n);
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return ok();
}

} // namespace ej::util
