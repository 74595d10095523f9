#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace ej::render {

// Cuts a markdown document into consecutive parts of about `size` bytes or more that parse, one by
// one, into the same blocks as the whole: cmark renders each block on its own, so the parts'
// HTML, joined, is the document's, byte for byte. cmark's tree of a whole 20 MB plan document
// took 300 MB; a part's takes a few.
//
// A cut goes only before a line starting with '#' (an ATX heading, at the first column) that
// follows a blank line: every block open before it has ended there (lists, quotes and tables end
// at a blank line followed by an unindented line that continues none of them), except a fenced
// code block and the raw HTML blocks a blank line does not end (<pre>, <script>, <style>,
// <!-- -->, <? ?>, <!X >, <![CDATA[ ]]>). Whether a line opens one depends on what holds it ("```"
// inside a <div> block is HTML) and, for some, on cmark's version: every reading is followed at
// once, and a cut needs all of them outside any block. A document with a link reference
// definition anywhere ("[x]: url", needed by every part that uses it), or a lone carriage return
// (a line break for cmark), is one part.
std::vector<std::string_view> markdown_parts(std::string_view markdown, std::size_t size);

} // namespace ej::render
