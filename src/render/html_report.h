#pragma once

#include "render/html_explorer.h"

#include <map>
#include <string>
#include <string_view>

namespace ej::render {

// One self-contained HTML page (inline CSS, no external resources) from a markdown document:
// cmark-gfm renders it with tables and strikethrough, raw HTML in the markdown is dropped (safe
// mode, so the document runs no script) and so are the ej region markers. An image whose src is a
// key of inline_svgs (![chart](chart:attempts)) is replaced by that SVG, inline; any other image
// becomes its alt text in brackets, since the page must not load anything. With attempts in
// `explorer`, the page ends with them to sort, filter and open (html_explorer.h), its one
// script. Deterministic.
std::string render_html_report(std::string_view title, std::string_view markdown,
                               const std::map<std::string, std::string>& inline_svgs,
                               const ReportData& explorer = {});

} // namespace ej::render
