#include "cli/version.h"

#include "build_info.h"

#include <fmt/format.h>

namespace ej::cli {

std::string version_text()
{
  return fmt::format("ej {} ({})", build_info::k_version, build_info::k_commit);
}

} // namespace ej::cli
