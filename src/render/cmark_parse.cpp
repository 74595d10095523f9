#include "render/cmark_parse.h"

#include "util/error.h"

#include <cmark-gfm-core-extensions.h>

namespace ej::render {

namespace {

using ParserPtr = util::Handle<cmark_parser, cmark_parser_free>;

void attach(cmark_parser* parser, const char* name)
{
  cmark_syntax_extension* extension = cmark_find_syntax_extension(name);
  if (extension == nullptr) {
    throw Error(
        "cmark-gfm has no '{}' extension; install libcmark-gfm-extensions-dev (scripts/install-deps.sh)",
        name);
  }
  cmark_parser_attach_syntax_extension(parser, extension);
}

} // namespace

CmarkNodePtr parse_gfm(std::string_view markdown, int options)
{
  cmark_gfm_core_extensions_ensure_registered();
  const ParserPtr parser(cmark_parser_new(options));
  if (!parser) {
    throw Error("cannot create a markdown parser (out of memory?)");
  }
  attach(parser.get(), "table");
  attach(parser.get(), "strikethrough");
  cmark_parser_feed(parser.get(), markdown.data(), markdown.size());
  CmarkNodePtr root(cmark_parser_finish(parser.get()));
  if (!root) {
    throw Error("cannot parse markdown (out of memory?)");
  }
  return root;
}

} // namespace ej::render
