#pragma once

#include "mcp/tool.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

// The resources of the MCP server: every plan document (ej://plan/SLUG, its markdown as ej plan
// render would write it) and every run (ej://run/N, as ej show run N --json prints it).
namespace ej::mcp {

// resources/list: plans first, then runs newest first, `k_resources_per_page` at a time (the
// cursor is where the next page starts).
nlohmann::json list_resources(const Context& context, const std::string& cursor);
// resources/templates/list: ej://plan/{slug} and ej://run/{number}.
nlohmann::json resource_templates();
// resources/read: {contents: [...]}; nullopt when the URI names nothing ej has.
std::optional<nlohmann::json> read_resource(const Context& context, const std::string& uri);

inline constexpr int k_resources_per_page = 200;

} // namespace ej::mcp
