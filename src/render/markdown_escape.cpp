#include "render/markdown_escape.h"

#include "util/strings.h"

#include <vector>

namespace ej::render {

namespace {

bool is_ascii_alnum(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool is_blank(char c)
{
  return c == ' ' || c == '\t';
}

// The lines of a text; "\r\n" and a lone "\r" end a line as "\n" does.
std::vector<std::string_view> split_lines(std::string_view text)
{
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' || text[i] == '\r') {
      out.push_back(text.substr(start, i - start));
      if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
        ++i;
      }
      start = i + 1;
    }
  }
  out.push_back(text.substr(start));
  return out;
}

std::string_view trim_blanks(std::string_view text)
{
  while (!text.empty() && is_blank(text.front())) {
    text.remove_prefix(1);
  }
  while (!text.empty() && is_blank(text.back())) {
    text.remove_suffix(1);
  }
  return text;
}

// Escapes the characters that are syntax anywhere inside a line.
void escape_inline_characters(std::string_view text, bool escape_hash, std::string& out)
{
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const char before = i > 0 ? text[i - 1] : ' ';
    const char after = i + 1 < text.size() ? text[i + 1] : ' ';
    bool escape = false;
    switch (c) {
    case '\\':
    case '`':
    case '*':
    case '[':
    case ']':
    case '<':
    case '|':
    case '~':
      escape = true;
      break;
    case '_':
      escape = !(is_ascii_alnum(before) && is_ascii_alnum(after));
      break;
    case '&':
      escape = is_ascii_alnum(after) || after == '#';
      break;
    case '#':
      escape = escape_hash;
      break;
    default:
      break;
    }
    if (escape) {
      out += '\\';
    }
    out += c;
  }
}

// A line of a paragraph: escapes what would start another block at the beginning of a line.
void escape_line(std::string_view line, bool escape_hash, std::string& out)
{
  std::size_t digits = 0;
  while (digits < line.size() && line[digits] >= '0' && line[digits] <= '9') {
    ++digits;
  }
  if (digits > 0 && digits < line.size() && (line[digits] == '.' || line[digits] == ')')) {
    out += line.substr(0, digits);
    out += '\\';
    escape_inline_characters(line.substr(digits), escape_hash, out);
    return;
  }
  if (!line.empty() && std::string_view("#>-+=").find(line.front()) != std::string_view::npos) {
    out += '\\';
    out += line.front();
    line.remove_prefix(1);
  }
  escape_inline_characters(line, escape_hash, out);
}

} // namespace

std::string escape_table_cell(std::string_view text)
{
  const auto visible = util::visible_controls(text, true); // ESC, BEL, ... shown, never sent
  text = visible;
  std::string joined;
  const auto lines = split_lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    joined += i == 0 ? "" : " ";
    joined += lines[i];
  }
  const std::string_view value(joined);
  const auto core = trim_blanks(value);
  const auto lead = static_cast<std::size_t>(core.data() - value.data());
  const auto trail = value.size() - lead - core.size();
  const auto reference = [](char c) { return c == ' ' ? "&#32;" : "&#9;"; };

  std::string out;
  for (std::size_t i = 0; i < lead; ++i) {
    out += reference(value[i]);
  }
  escape_inline_characters(core, false, out);
  for (std::size_t i = value.size() - trail; i < value.size(); ++i) {
    out += reference(value[i]);
  }
  return out;
}

std::string escape_markdown_inline(std::string_view text)
{
  const auto visible = util::visible_controls(text, true); // ESC, BEL, ... shown, never sent
  text = visible;
  std::string out;
  for (const auto raw : split_lines(text)) {
    const auto line = trim_blanks(raw);
    if (line.empty()) {
      continue;
    }
    if (!out.empty()) {
      out += "\\\n";
    }
    escape_line(line, false, out);
  }
  return out;
}

std::string escape_markdown_line(std::string_view text)
{
  const auto visible = util::visible_controls(text, true); // ESC, BEL, ... shown, never sent
  text = visible;
  std::string joined;
  for (const auto raw : split_lines(text)) {
    const auto line = trim_blanks(raw);
    if (!line.empty()) {
      joined += joined.empty() ? "" : " ";
      joined += line;
    }
  }
  std::string out;
  escape_line(joined, true, out);
  return out;
}

} // namespace ej::render
