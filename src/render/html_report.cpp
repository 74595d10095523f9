#include "render/html_report.h"

#include "render/cmark_parse.h"
#include "render/svg_chart.h"

#include <cstdlib>
#include <cstring>
#include <vector>

namespace ej::render {

namespace {

void free_html(char* html) noexcept
{
  cmark_get_default_mem_allocator()->free(html);
}

using HtmlPtr = util::Handle<char, free_html>;

constexpr std::string_view k_style = R"(
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; line-height: 1.5;
       color: #1f2328; background: #ffffff; margin: 0; }
main { max-width: 980px; margin: 0 auto; padding: 24px 32px 64px; }
h1, h2, h3 { line-height: 1.25; margin-top: 1.6em; }
h1 { border-bottom: 1px solid #d0d7de; padding-bottom: .3em; }
table { border-collapse: collapse; margin: 1em 0; display: block; overflow-x: auto; }
th, td { border: 1px solid #d0d7de; padding: 4px 10px; vertical-align: top; }
th { background: #f6f8fa; }
tr:nth-child(2n) td { background: #fbfcfd; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 90%; }
code { background: #f6f8fa; padding: .1em .3em; border-radius: 4px; }
pre { background: #f6f8fa; padding: 12px; overflow-x: auto; border-radius: 6px; }
pre code { background: none; padding: 0; }
blockquote { margin: 0; padding: 0 1em; color: #57606a; border-left: 4px solid #d0d7de; }
svg { max-width: 100%; height: auto; display: block; margin: 1em 0; }
)";

// A text that does not occur in the markdown, to mark where an SVG goes in cmark's output.
std::string placeholder_prefix(std::string_view markdown)
{
  std::string prefix = "EJSVGSLOT";
  while (markdown.find(prefix) != std::string_view::npos) {
    prefix += "X";
  }
  return prefix;
}

std::string escape_html(std::string_view text)
{
  return escape_xml(text);
}

std::string alt_text(cmark_node* image)
{
  std::string out;
  for (cmark_node* child = cmark_node_first_child(image); child != nullptr; child = cmark_node_next(child)) {
    if (const char* literal = cmark_node_get_literal(child); literal != nullptr) {
      out += literal;
    }
  }
  return out;
}

} // namespace

std::string render_html_report(std::string_view title, std::string_view markdown,
                               const std::map<std::string, std::string>& inline_svgs)
{
  const auto root = parse_gfm(markdown);
  const auto prefix = placeholder_prefix(markdown);

  // Collect first, edit after: changing the tree while iterating it is not allowed.
  std::vector<cmark_node*> images;
  std::vector<cmark_node*> markers;
  {
    const CmarkIterPtr iter(cmark_iter_new(root.get()));
    for (auto event = cmark_iter_next(iter.get()); event != CMARK_EVENT_DONE;
         event = cmark_iter_next(iter.get())) {
      cmark_node* node = cmark_iter_get_node(iter.get());
      if (event != CMARK_EVENT_ENTER) {
        continue;
      }
      if (cmark_node_get_type(node) == CMARK_NODE_IMAGE) {
        images.push_back(node);
      } else if (cmark_node_get_type(node) == CMARK_NODE_HTML_BLOCK &&
                 std::strncmp(cmark_node_get_literal(node), "<!-- ej:", 8) == 0) {
        markers.push_back(node);
      }
    }
  }
  for (cmark_node* marker : markers) {
    cmark_node_free(marker); // unlinks it too
  }
  std::vector<std::pair<std::string, const std::string*>> slots;
  for (cmark_node* image : images) {
    const char* url = cmark_node_get_url(image);
    const auto svg = inline_svgs.find(url != nullptr ? url : "");
    cmark_node* text = cmark_node_new(CMARK_NODE_TEXT);
    if (svg != inline_svgs.end()) {
      slots.emplace_back(prefix + std::to_string(slots.size()) + "Z", &svg->second);
      cmark_node_set_literal(text, slots.back().first.c_str());
    } else {
      cmark_node_set_literal(text, ("[" + alt_text(image) + "]").c_str());
    }
    cmark_node_replace(image, text);
    cmark_node_free(image);
  }

  const HtmlPtr rendered(cmark_render_html(root.get(), CMARK_OPT_DEFAULT, nullptr));
  std::string body(rendered ? rendered.get() : "");
  for (const auto& [slot, svg] : slots) {
    const auto at = body.find(slot);
    if (at != std::string::npos) {
      body.replace(at, slot.size(), *svg);
    }
  }

  std::string page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>";
  page += escape_html(title);
  page += "</title>\n<style>";
  page += k_style;
  page += "</style>\n</head>\n<body>\n<main>\n";
  page += body;
  page += "</main>\n</body>\n</html>\n";
  return page;
}

} // namespace ej::render
