#pragma once

#include "render/template_data.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <string>
#include <string_view>

namespace ej::render {

// Bounds on what a template may cost, so that a hostile or broken one fails with a message instead
// of exhausting memory or never ending: the size of a template file (checked where it is read),
// how deep its sections nest, how much it writes, and how many tags it expands.
inline constexpr std::size_t k_max_template_bytes = 1024 * 1024;
inline constexpr std::size_t k_max_section_depth = 100;
inline constexpr std::size_t k_max_output_bytes = 64 * 1024 * 1024;
inline constexpr std::size_t k_max_tag_expansions = 10'000'000;

struct TemplateOptions {
  // Partials ({{> name}}) by name. A partial the template uses that is not here is an error.
  std::map<std::string, std::string_view> partials;
  // When set, a {{name}} or {{#name}} that resolves nowhere in the data is an error (catches
  // typos in user templates); Mustache's default is to render it as empty.
  bool strict = false;
  // Ends every error message: what the user should do ("fix the template or run without
  // --template" when the template came from --template).
  std::string fix_hint = "fix the template";
  // The bounds on output and work (lower in the fuzzer, to keep each input fast).
  std::size_t max_output_bytes = k_max_output_bytes;
  std::size_t max_tag_expansions = k_max_tag_expansions;
};

// Renders a Mustache template with JSON data. Objects, arrays (lists), strings, numbers (integers
// as such, other numbers in their shortest round-trip form, never locale-dependent), booleans;
// null is false (a section over it is skipped, a variable renders nothing).
// Nothing is HTML-escaped: {{x}} and {{{x}}} are the same, because the output is markdown and the
// data was escaped for markdown already (markdown_escape.h).
// Throws ej::Error naming the template and the line of a syntax error, a missing partial, (when
// strict) an unknown name, or a template over one of the bounds above.
std::string render_template(std::string_view template_text, const nlohmann::json& data,
                            std::string_view template_name, const TemplateOptions& options = {});
// The same with the data built as a template's already (template_data.h), for large documents.
std::string render_template(std::string_view template_text, const TemplateData& data,
                            std::string_view template_name, const TemplateOptions& options = {});

} // namespace ej::render
