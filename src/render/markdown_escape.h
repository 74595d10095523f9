#pragma once

#include <string>
#include <string_view>

namespace ej::render {

// Escaping of user text (titles, reasons, notes, hypotheses) so that the markdown means what the
// journal says and still reads like hand-written markdown: a character is escaped only where it
// would otherwise be syntax. "~30 ms", "-3.3%", "[-3.3, -3.3]", "R&D", "x < 15", "NCCL_ALGO" stay
// as they are; "*a*", "<b>", "&amp;", "[link](x)", "\*" and a line starting "- " or "1. " are
// escaped. Emphasis: a run of '*', '_' or '~' that could close emphasis is always escaped, so no
// text can close what another opened; one that can only open is escaped when a closing run of
// the same character follows it. A code span written as markdown writes it (`-march=native`: N
// backticks, the shortest run absent from its content, which does not start or end with a space)
// stays a code span; other backticks are escaped. A text is assumed to be placed after and
// before a space, punctuation or a line break, as the default template does.

// For one table cell. The cell's text (what markdown_check.h reads) equals the value, except
// that every line break ("\n", "\r\n", "\r") becomes one space. Leading and trailing spaces and
// tabs are written as character references (&#32; &#9;) because tables trim them otherwise.
std::string escape_table_cell(std::string_view text);

// For paragraphs and list items. Each line of the text stays a line: line breaks become
// CommonMark hard line breaks (a backslash at the end of the line) and blank lines are dropped, so
// the result is a single paragraph, safe as the text of a list item or after "**Reason:** ".
// Spaces and tabs around each line are dropped (markdown would drop them too). Lines are escaped
// so they cannot start a block (a heading, quote, list item, thematic break, setext underline,
// fence or table delimiter row).
std::string escape_markdown_inline(std::string_view text);

// For headings and other one-line contexts: like escape_markdown_inline, but line breaks become
// one space and a closing run of '#' is escaped (a heading would drop a trailing " #").
std::string escape_markdown_line(std::string_view text);

// The number of backticks a code span with this content is written between: the shortest run of
// backticks that does not occur in it.
std::size_t code_span_fence(std::string_view content);

} // namespace ej::render
