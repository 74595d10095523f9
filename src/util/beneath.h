#pragma once

#include "util/unique_fd.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace ej::util {

// Writes files into one directory and never outside it, whatever it already holds or is given to
// write: every path is resolved beneath the directory (openat2 with RESOLVE_BENEATH), so a
// symbolic link that points elsewhere (one just written, or one there before) is never written
// through; where the kernel has no openat2 (before Linux 5.6), no symbolic link is followed at
// all. Paths are relative, '/'-separated, without "." or ".." components. A path that would
// leave the directory, or that exists already, throws ej::Error naming it.
class BeneathWriter {
public:
  explicit BeneathWriter(const std::filesystem::path& root);

  // Creates the file and its missing directories.
  void write_file(std::string_view path, std::string_view content, bool executable);
  void make_symlink(std::string_view path, const std::string& target);
  void make_directory(std::string_view path);

  const std::filesystem::path& root() const { return m_root_path; }

private:
  // The directory that will hold the path's last component (made when missing), and that name.
  UniqueFd open_parent(std::string_view path, std::string& leaf);
  UniqueFd open_directory(const std::string& relative, std::string_view path);
  [[noreturn]] void refuse(std::string_view path, const std::string& why) const;

  std::filesystem::path m_root_path;
  UniqueFd m_root;
};

} // namespace ej::util
