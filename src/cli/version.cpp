#include "cli/version.h"

#include "build_info.h"
#include "util/build_id.h"

#include <fmt/format.h>

namespace ej::cli {

std::string version_text()
{
  return fmt::format("ej {} ({})", build_info::k_version, build_info::k_commit);
}

std::string build_identity()
{
  const auto id = util::executable_build_id();
  return id.empty() ? std::string() : fmt::format("{} build {}", version_text(), id);
}

} // namespace ej::cli
