#include "run/host.h"

#include "util/fs.h"

namespace ej::run {

std::optional<std::string> LocalHost::read_text(const std::filesystem::path& path)
{
  return util::read_file(path);
}

void LocalHost::write_text(const std::filesystem::path& path, const std::string& text)
{
  std::filesystem::create_directories(path.parent_path());
  util::write_file_atomic(path, text);
}

} // namespace ej::run
