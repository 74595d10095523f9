#include "util/beneath.h"

#include "util/error.h"

#include <linux/openat2.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>

namespace ej::util {

namespace {

std::vector<std::string> components(std::string_view path)
{
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= path.size()) {
    const auto end = std::min(path.find('/', start), path.size());
    out.emplace_back(path.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// openat2 beneath dir; -1 with errno ENOSYS where the kernel lacks it.
int open_beneath(int dir, const std::string& path, std::uint64_t flags)
{
  open_how how{};
  how.flags = flags | O_CLOEXEC;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  return static_cast<int>(::syscall(SYS_openat2, dir, path.c_str(), &how, sizeof how));
}

} // namespace

BeneathWriter::BeneathWriter(const std::filesystem::path& root) : m_root_path(root)
{
  m_root.reset(::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!m_root) {
    throw Error("cannot open {}: {}", root.string(), std::strerror(errno));
  }
}

void BeneathWriter::refuse(std::string_view path, const std::string& why) const
{
  throw Error("refused to write {} into {}: {}", path, m_root_path.string(), why);
}

UniqueFd BeneathWriter::open_directory(const std::string& relative, std::string_view path)
{
  int fd = open_beneath(m_root.get(), relative, O_PATH | O_DIRECTORY);
  if (fd < 0 && errno == ENOSYS) {
    // No openat2: one component at a time, following no symbolic link at all.
    UniqueFd current(::dup(m_root.get()));
    for (const auto& part : components(relative)) {
      const int next = ::openat(current.get(), part.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      const int error = errno;
      current.reset(next);
      if (!current) {
        errno = error;
        return current;
      }
    }
    return current;
  }
  if (fd < 0 && (errno == EXDEV || errno == ELOOP)) {
    refuse(path, relative + " is a symbolic link that leads outside it");
  }
  return UniqueFd(fd);
}

UniqueFd BeneathWriter::open_parent(std::string_view path, std::string& leaf)
{
  const auto parts = components(path);
  for (const auto& part : parts) {
    if (part.empty() || part == "." || part == "..") {
      refuse(path, "the path is not a plain relative path");
    }
  }
  UniqueFd parent(::dup(m_root.get()));
  std::string relative;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    relative += (relative.empty() ? "" : "/") + parts[i];
    auto next = open_directory(relative, path);
    if (!next && errno == ENOENT) {
      if (::mkdirat(parent.get(), parts[i].c_str(), 0777) != 0 && errno != EEXIST) {
        refuse(path, fmt::format("cannot create the directory {}: {}", relative, std::strerror(errno)));
      }
      next = open_directory(relative, path);
    }
    if (!next) {
      refuse(path, errno == ENOTDIR || errno == ELOOP
                       ? relative + " is not a directory (a file or a symbolic link)"
                       : fmt::format("cannot open {}: {}", relative, std::strerror(errno)));
    }
    parent = std::move(next);
  }
  leaf = parts.back();
  return parent;
}

void BeneathWriter::write_file(std::string_view path, std::string_view content, bool executable)
{
  std::string leaf;
  const auto parent = open_parent(path, leaf);
  // O_EXCL | O_NOFOLLOW: never through a link, never over what is there.
  const UniqueFd fd(::openat(parent.get(), leaf.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                             executable ? 0777 : 0666));
  if (!fd) {
    refuse(path, errno == EEXIST ? std::string("it exists already") : std::string(std::strerror(errno)));
  }
  while (!content.empty()) {
    const auto written = ::write(fd.get(), content.data(), content.size());
    if (written < 0 && errno == EINTR) {
      continue;
    }
    if (written <= 0) {
      refuse(path, std::strerror(errno));
    }
    content.remove_prefix(static_cast<std::size_t>(written));
  }
}

void BeneathWriter::make_symlink(std::string_view path, const std::string& target)
{
  std::string leaf;
  const auto parent = open_parent(path, leaf);
  if (::symlinkat(target.c_str(), parent.get(), leaf.c_str()) != 0) {
    refuse(path, errno == EEXIST ? std::string("it exists already") : std::string(std::strerror(errno)));
  }
}

void BeneathWriter::make_directory(std::string_view path)
{
  std::string leaf;
  const auto parent = open_parent(path, leaf);
  if (::mkdirat(parent.get(), leaf.c_str(), 0777) != 0 && errno != EEXIST) {
    refuse(path, std::strerror(errno));
  }
}

} // namespace ej::util
