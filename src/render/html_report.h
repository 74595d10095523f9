#pragma once

#include <map>
#include <string>
#include <string_view>

namespace ej::render {

// One self-contained HTML page (inline CSS, no scripts, no external resources) from a markdown
// document: cmark-gfm renders it with tables and strikethrough, raw HTML in the markdown is
// dropped (safe mode) and so are the ej region markers. An image whose src is a key of
// inline_svgs (![chart](chart:attempts)) is replaced by that SVG, inline; any other image becomes
// its alt text in brackets, since the page must not load anything. Deterministic.
std::string render_html_report(std::string_view title, std::string_view markdown,
                               const std::map<std::string, std::string>& inline_svgs);

} // namespace ej::render
