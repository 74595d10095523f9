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

namespace {

constexpr std::string_view k_temporary_infix = ".ej-tmp-";

} // namespace

void write_file_atomic(const std::filesystem::path& path, std::string_view content)
{
  const auto temporary = path.string() + std::string(k_temporary_infix) + std::to_string(::getpid());
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

bool is_atomic_write_temporary(std::string_view path)
{
  const auto at = path.rfind(k_temporary_infix);
  if (at == std::string_view::npos || at == 0 || path[at - 1] == '/') {
    return false;
  }
  const auto pid = path.substr(at + k_temporary_infix.size());
  return !pid.empty() && pid.find_first_not_of("0123456789") == std::string_view::npos;
}

} // namespace ej::util
