#include "render/markdown_check.h"

#include "render/cmark_parse.h"
#include "render/markdown_escape.h"

#include <cstring>

namespace ej::render {

namespace {

bool is_extension_node(cmark_node* node, const char* type_name)
{
  return std::strcmp(cmark_node_get_type_string(node), type_name) == 0;
}

void append_text(cmark_node* node, std::string& out)
{
  switch (cmark_node_get_type(node)) {
  case CMARK_NODE_TEXT:
    out += cmark_node_get_literal(node);
    return;
  case CMARK_NODE_CODE: {
    const std::string_view code = cmark_node_get_literal(node);
    const std::string fence(code_span_fence(code), '`');
    out += fence;
    out += code;
    out += fence;
  }
    return;
  case CMARK_NODE_SOFTBREAK:
  case CMARK_NODE_LINEBREAK:
    out += '\n';
    return;
  default:
    break;
  }
  for (cmark_node* child = cmark_node_first_child(node); child != nullptr; child = cmark_node_next(child)) {
    append_text(child, out);
  }
}

std::string text_of(cmark_node* node)
{
  std::string out;
  append_text(node, out);
  return out;
}

// Calls visit(node) for every node entered, in document order.
template <typename Visit> void walk(std::string_view markdown, Visit visit)
{
  const auto root = parse_gfm(markdown);
  const CmarkIterPtr iter(cmark_iter_new(root.get()));
  for (auto event = cmark_iter_next(iter.get()); event != CMARK_EVENT_DONE;
       event = cmark_iter_next(iter.get())) {
    if (event == CMARK_EVENT_ENTER) {
      visit(cmark_iter_get_node(iter.get()));
    }
  }
}

// The text of every node of one type, in document order.
std::vector<std::string> texts_of_type(std::string_view markdown, cmark_node_type type)
{
  std::vector<std::string> texts;
  walk(markdown, [&](cmark_node* node) {
    if (cmark_node_get_type(node) == type) {
      texts.push_back(text_of(node));
    }
  });
  return texts;
}

} // namespace

std::vector<std::vector<std::vector<std::string>>> parse_markdown_tables(std::string_view markdown)
{
  std::vector<std::vector<std::vector<std::string>>> tables;
  walk(markdown, [&](cmark_node* node) {
    if (!is_extension_node(node, "table")) {
      return;
    }
    auto& table = tables.emplace_back();
    for (cmark_node* row = cmark_node_first_child(node); row != nullptr; row = cmark_node_next(row)) {
      auto& cells = table.emplace_back();
      for (cmark_node* cell = cmark_node_first_child(row); cell != nullptr; cell = cmark_node_next(cell)) {
        cells.push_back(text_of(cell));
      }
    }
  });
  return tables;
}

std::vector<std::string> parse_markdown_paragraphs(std::string_view markdown)
{
  return texts_of_type(markdown, CMARK_NODE_PARAGRAPH);
}

std::vector<std::string> parse_markdown_headings(std::string_view markdown)
{
  return texts_of_type(markdown, CMARK_NODE_HEADING);
}

} // namespace ej::render
