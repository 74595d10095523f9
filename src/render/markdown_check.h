#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ej::render {

// What a GitHub-flavoured markdown reader sees, for tests and `ej plan render --check`-style
// validation: cmark-gfm parses the text and these return the plain text of what it found.
// "Text" is the concatenation of the text and code nodes (inside emphasis, links... too), with
// soft and hard line breaks as "\n"; raw HTML is left out. A code span is written back as
// markdown writes it, between the shortest run of backticks absent from it (`-march=native`).

// Every table: rows (the header row first), each a list of cell texts.
std::vector<std::vector<std::vector<std::string>>> parse_markdown_tables(std::string_view markdown);

// The text of every paragraph, in document order (including paragraphs inside lists and quotes).
std::vector<std::string> parse_markdown_paragraphs(std::string_view markdown);

// The text of every heading, in document order.
std::vector<std::string> parse_markdown_headings(std::string_view markdown);

} // namespace ej::render
