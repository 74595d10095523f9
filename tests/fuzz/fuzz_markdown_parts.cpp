// markdown_parts: any document, cut at every opportunity, renders part by part exactly as whole
// (html_report.cpp renders a large plan's document that way).
#include "render/cmark_parse.h"
#include "render/markdown_parts.h"

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

std::string html_of(std::string_view markdown)
{
  const auto root = ej::render::parse_gfm(markdown);
  char* html = cmark_render_html(root.get(), CMARK_OPT_DEFAULT, nullptr);
  std::string out(html);
  cmark_get_default_mem_allocator()->free(html);
  return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string_view markdown(reinterpret_cast<const char*>(data), size);
  std::string joined;
  std::string html;
  for (const auto part : ej::render::markdown_parts(markdown, 0)) {
    joined += part;
    html += html_of(part);
  }
  if (joined != markdown || html != html_of(markdown)) {
    std::abort();
  }
  return 0;
}
