#include "render/templates.h"

namespace ej::render {

std::optional<std::string_view> embedded_template(std::string_view name)
{
  const auto& all = embedded_templates();
  for (const std::string& candidate : {std::string(name), std::string(name) + ".mustache"}) {
    const auto found = all.find(candidate);
    if (found != all.end()) {
      return found->second;
    }
  }
  return std::nullopt;
}

} // namespace ej::render
