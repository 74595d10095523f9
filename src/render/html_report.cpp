#include "render/html_report.h"

#include "render/cmark_parse.h"
#include "render/markdown_parts.h"
#include "render/svg_chart.h"

#include <fmt/format.h>

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

// GitHub's own markdown style (github-markdown-css), so that the page shows what the document
// looks like on GitHub: the same column width, font size and table cell padding.
constexpr std::string_view k_style = R"(
body { font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif;
       font-size: 16px; line-height: 1.5; color: #1f2328; background: #ffffff; margin: 0; }
main { box-sizing: border-box; max-width: 980px; margin: 0 auto; padding: 45px; }
@media (max-width: 767px) { main { padding: 15px; } }
h1, h2, h3 { line-height: 1.25; margin-top: 24px; margin-bottom: 16px; font-weight: 600; }
h1 { font-size: 2em; border-bottom: 1px solid #d1d9e0b3; padding-bottom: .3em; }
h2 { font-size: 1.5em; border-bottom: 1px solid #d1d9e0b3; padding-bottom: .3em; }
h3 { font-size: 1.25em; }
table { border-spacing: 0; border-collapse: collapse; display: block; width: max-content; max-width: 100%;
        overflow: auto; margin: 0 0 16px; }
th, td { border: 1px solid #d1d9e0; padding: 6px 13px; }
th { font-weight: 600; }
tr { background: #ffffff; border-top: 1px solid #d1d9e0b3; }
tr:nth-child(2n) { background: #f6f8fa; }
code, pre { font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
            font-size: 85%; }
code { background: #818b981f; padding: .2em .4em; border-radius: 6px; }
pre { background: #f6f8fa; padding: 16px; overflow: auto; border-radius: 6px; line-height: 1.45; }
pre code { background: none; padding: 0; font-size: 100%; }
blockquote { margin: 0; padding: 0 1em; color: #59636e; border-left: .25em solid #d1d9e0; }
svg { max-width: 100%; height: auto; display: block; margin: 1em 0; }
#ej-explorer { border-bottom: 1px solid #d1d9e0b3; margin-bottom: 24px; }
#ej-attempts { display: table; width: 100%; font-size: 14px; }
#ej-attempts th, #ej-attempts td { padding: 4px 8px; }
#ej-attempts th { cursor: pointer; user-select: none; }
#ej-attempts th[aria-sort=ascending]::after { content: " \25B2"; }
#ej-attempts th[aria-sort=descending]::after { content: " \25BC"; }
#ej-attempts tbody tr { cursor: pointer; }
#ej-attempts tr.ej-chosen { background: #ddf4ff; }
.ej-filters label { margin-right: .6em; white-space: nowrap; }
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

// One part of the document (markdown_parts.h) as HTML: its images become their SVGs' slots (or
// their alt text) and the ej region markers go.
std::string part_html(std::string_view part, const std::map<std::string, std::string>& inline_svgs,
                      const std::string& prefix)
{
  std::vector<std::pair<std::string, const std::string*>> slots;
  const auto root = parse_gfm(part);
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
  for (cmark_node* image : images) {
    const char* url = cmark_node_get_url(image);
    const auto svg = inline_svgs.find(url != nullptr ? url : "");
    cmark_node* text = cmark_node_new(CMARK_NODE_TEXT);
    if (svg != inline_svgs.end()) {
      slots.emplace_back(prefix + std::to_string(slots.size()) + "Z", &svg->second);
      cmark_node_set_literal(text, slots.back().first.c_str());
    } else {
      cmark_node_set_literal(text, fmt::format("[{}]", alt_text(image)).c_str());
    }
    cmark_node_replace(image, text);
    cmark_node_free(image);
  }
  const HtmlPtr rendered(cmark_render_html(root.get(), CMARK_OPT_DEFAULT, nullptr));
  std::string html(rendered ? rendered.get() : "");
  for (const auto& [slot, svg] : slots) {
    const auto at = html.find(slot);
    if (at != std::string::npos) {
      html.replace(at, slot.size(), *svg);
    }
  }
  return html;
}

// The history charts, each shown: a reader compares them by scrolling, never by picking one.
std::string history_html(const std::vector<ReportChart>& charts)
{
  if (charts.empty()) {
    return "";
  }
  std::string out = "<section id=\"ej-history\">\n<h2>History</h2>\n"
                    "<p>Each benchmark commit by commit along the branch: the median of its runs at each "
                    "commit with its 95% interval, the level between change points, and where it stepped, "
                    "was acknowledged or ran in another environment (hover a line for more).</p>\n";
  for (const auto& chart : charts) {
    out += "<div class=\"ej-history-chart\">\n<h3>" + escape_html(chart.name) + "</h3>\n" + chart.svg +
           "</div>\n";
  }
  out += "</section>\n";
  return out;
}

} // namespace

std::string render_html_report(std::string_view title, std::string_view markdown,
                               const std::map<std::string, std::string>& inline_svgs,
                               const ReportData& explorer)
{
  const auto prefix = placeholder_prefix(markdown);
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>";
  page += escape_html(title);
  page += "</title>\n<style>";
  page += k_style;
  page += "</style>\n</head>\n<body>\n<main>\n";
  page.reserve(page.size() + markdown.size() + markdown.size() / 2); // HTML is a little longer
  // Part by part: cmark's tree of a whole large plan's document took 300 MB.
  constexpr std::size_t k_part_size = 1 << 20;
  for (const auto part : markdown_parts(markdown, k_part_size)) {
    page += part_html(part, inline_svgs, prefix);
  }
  page += explorer_html(explorer);
  page += history_html(explorer.history);
  page += "</main>\n</body>\n</html>\n";
  return page;
}

} // namespace ej::render
