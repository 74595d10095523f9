#pragma once

#include <string>
#include <string_view>

namespace ej::render {

// Escaping of user text (titles, reasons, notes, commands) so that the markdown means what the
// journal says. Backslash escapes are used for the characters that could be syntax, not for all
// punctuation, so the markdown source stays readable ("3.5", "NCCL_ALGO" are left as they are).
// Always escaped: \ ` * [ ] < | ~ ; '_' except between two ASCII letters/digits (CommonMark never
// reads that as emphasis); '&' when an entity could follow (a letter, digit or '#').

// For one table cell. The cell's text (what markdown_check.h reads) equals the value, except
// that every line break ("\n", "\r\n", "\r") becomes one space. Leading and trailing spaces and
// tabs are written as character references (&#32; &#9;) because tables trim them otherwise.
std::string escape_table_cell(std::string_view text);

// For paragraphs and list items. Each line of the text stays a line: line breaks become
// CommonMark hard line breaks (a backslash at the end of the line) and blank lines are dropped, so
// the result is a single paragraph, safe as the text of a list item or after "**Reason:** ".
// Spaces and tabs around each line are dropped (markdown would drop them too). Lines are escaped
// so they cannot start a block: a leading '#', '>', '-', '+', '=' or "1." / "1)" is escaped.
std::string escape_markdown_inline(std::string_view text);

// For headings and other one-line contexts: like escape_markdown_inline, but line breaks become
// one space and every '#' is escaped (a heading would drop a trailing " #").
std::string escape_markdown_line(std::string_view text);

} // namespace ej::render
