#include "util/fs.h"

#include "util/error.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace ej::util {

std::optional<std::string> read_file(const std::filesystem::path& path)
{
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    return std::nullopt;
  }
  if (std::filesystem::is_directory(path, ec)) {
    throw Error("cannot read {}: it is a directory", path.string());
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw Error("cannot read {}: {}", path.string(), std::strerror(errno));
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void write_file_atomic(const std::filesystem::path& path, std::string_view content)
{
  const auto temporary = path.string() + ".ej-tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) {
      throw Error("cannot write {}: {}", path.string(), std::strerror(errno));
    }
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) {
      std::filesystem::remove(temporary);
      throw Error("cannot write {}: {}", path.string(), std::strerror(errno));
    }
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::filesystem::remove(temporary);
    throw Error("cannot write {}: {}", path.string(), ec.message());
  }
}

} // namespace ej::util
