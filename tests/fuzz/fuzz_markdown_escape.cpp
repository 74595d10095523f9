// libFuzzer target: user text escaped for markdown (markdown_escape.h) must read back through
// cmark-gfm as exactly the text, in a table cell, a list item and a heading, alone and beside
// another escaped text. A difference aborts, so the fuzzer keeps the input.
#include "render/markdown_check.h"
#include "render/markdown_escape.h"
#include "util/strings.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

void require(bool ok, const char* what, const std::string& markdown)
{
  if (!ok) {
    std::fprintf(stderr, "%s does not read back:\n%s\n", what, markdown.c_str());
    std::abort();
  }
}

// One line of text as escape_* document their results: tabs and spaces around it dropped.
std::string one_line(std::string_view text)
{
  std::string out;
  for (const char c : text) {
    out += c == '\n' || c == '\r' ? ' ' : c;
  }
  const auto first = out.find_first_not_of(" \t");
  return first == std::string::npos ? "" : out.substr(first, out.find_last_not_of(" \t") - first + 1);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  if (!ej::util::is_valid_utf8(input) || input.find('\0') != std::string_view::npos) {
    return 0; // ej stores UTF-8 text only
  }
  // Control characters are shown as pictures (tested elsewhere); here only markdown syntax.
  for (std::size_t i = 0; i < input.size(); ++i) {
    const auto c = static_cast<unsigned char>(input[i]);
    const bool c1 = c == 0xc2 && i + 1 < input.size() && static_cast<unsigned char>(input[i + 1]) <= 0x9f;
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f || c1) {
      return 0;
    }
  }
  const auto half = input.find('\n');
  const auto first = one_line(input.substr(0, half));
  const auto second = one_line(half == std::string_view::npos ? "" : input.substr(half + 1));
  if (first.empty() || first.find("  ") != std::string::npos || first.find('\t') != std::string::npos) {
    return 0; // inner runs of blanks: a cell keeps them, a paragraph too; keep the oracle simple
  }

  const auto cell = "| a |\n|---|\n| " + ej::render::escape_table_cell(first) + " |\n";
  const auto tables = ej::render::parse_markdown_tables(cell);
  require(tables.size() == 1 && tables[0].size() == 2 && tables[0][1].size() == 1 && tables[0][1][0] == first,
          "a table cell", cell);

  const auto item = "- **Reason:** " + ej::render::escape_markdown_inline(first) + "\n";
  const auto items = ej::render::parse_markdown_paragraphs(item);
  require(items.size() == 1 && items[0] == "Reason: " + first, "a list item", item);

  const auto heading = "### #1 " + ej::render::escape_markdown_line(first) + "\n";
  const auto headings = ej::render::parse_markdown_headings(heading);
  require(headings.size() == 1 && headings[0] == "#1 " + first, "a heading", heading);

  if (!second.empty() && second.find("  ") == std::string::npos && second.find('\t') == std::string::npos) {
    const auto pair = "- run #1 \"" + ej::render::escape_markdown_inline(first) +
                      "\": " + ej::render::escape_markdown_inline(second) + "\n";
    const auto paragraphs = ej::render::parse_markdown_paragraphs(pair);
    require(paragraphs.size() == 1 && paragraphs[0] == "run #1 \"" + first + "\": " + second, "two texts",
            pair);
  }
  return 0;
}
