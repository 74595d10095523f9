#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace ej::render {

// Every templates/*.mustache compiled into the binary, keyed by file name ("plan.md.mustache"),
// so an installed ej needs no data files. Generated at build time (cmake/embed_templates.cmake).
const std::map<std::string, std::string_view>& embedded_templates();

// The embedded template called `name`; the ".mustache" suffix may be left out ("plan.md").
std::optional<std::string_view> embedded_template(std::string_view name);

} // namespace ej::render
