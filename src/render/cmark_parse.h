#pragma once

#include "util/handle.h"

#include <cmark-gfm.h>

#include <string_view>

namespace ej::render {

using CmarkNodePtr = util::Handle<cmark_node, cmark_node_free>;
using CmarkIterPtr = util::Handle<cmark_iter, cmark_iter_free>;

// Parses GitHub-flavoured markdown with the table extension (and strikethrough, so that "~~" in a
// document means what GitHub shows). Never null; throws ej::Error only if cmark cannot allocate.
CmarkNodePtr parse_gfm(std::string_view markdown, int options = CMARK_OPT_DEFAULT);

} // namespace ej::render
