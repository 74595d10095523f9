#include "util/strings.h"

#include <algorithm>
#include <cctype>

namespace ej::util {

std::string_view trim(std::string_view text)
{
  const auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!text.empty() && is_space(text.front())) {
    text.remove_prefix(1);
  }
  while (!text.empty() && is_space(text.back())) {
    text.remove_suffix(1);
  }
  return text;
}

std::vector<std::string_view> split_views(std::string_view text, char separator)
{
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const auto end = text.find(separator, start);
    if (end == std::string_view::npos) {
      parts.push_back(text.substr(start));
      return parts;
    }
    parts.push_back(text.substr(start, end - start));
    start = end + 1;
  }
}

std::vector<std::string> split(std::string_view text, char separator)
{
  const auto views = split_views(text, separator);
  return {views.begin(), views.end()};
}

std::string join(const std::vector<std::string>& parts, std::string_view separator)
{
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) {
      out += separator;
    }
    out += parts[i];
  }
  return out;
}

std::string double_quoted(std::string_view text)
{
  std::string out = "\"";
  for (const char c : text) {
    out += c;
    if (c == '"') {
      out += '"';
    }
  }
  return out + "\"";
}

std::string to_lower(std::string_view text)
{
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string to_upper(std::string_view text)
{
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

bool contains_ci(std::string_view haystack, std::string_view needle)
{
  return to_lower(haystack).find(to_lower(needle)) != std::string::npos;
}

namespace {

// Length of the valid UTF-8 sequence starting at text[i], or 0 when it is invalid.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i)
{
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  std::size_t length = 0;
  unsigned min_code = 0;
  unsigned code = 0;
  if (c < 0x80) {
    return 1;
  } else if ((c & 0xE0) == 0xC0) {
    length = 2, code = c & 0x1F, min_code = 0x80;
  } else if ((c & 0xF0) == 0xE0) {
    length = 3, code = c & 0x0F, min_code = 0x800;
  } else if ((c & 0xF8) == 0xF0) {
    length = 4, code = c & 0x07, min_code = 0x10000;
  } else {
    return 0;
  }
  if (i + length > text.size()) {
    return 0;
  }
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) {
      return 0;
    }
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  if (code < min_code || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
    return 0;
  }
  return length;
}

} // namespace

bool is_valid_utf8(std::string_view text)
{
  for (std::size_t i = 0; i < text.size();) {
    const auto length = utf8_sequence_length(text, i);
    if (length == 0) {
      return false;
    }
    i += length;
  }
  return true;
}

std::string sanitize_utf8(std::string_view text)
{
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto length = utf8_sequence_length(text, i);
    if (length == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  return out;
}

std::string first_line(std::string_view text, std::size_t max_chars)
{
  auto line = text.substr(0, text.find('\n'));
  if (line.size() <= max_chars) {
    return std::string(line);
  }
  std::size_t cut = max_chars;
  while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) {
    --cut;
  }
  return std::string(line.substr(0, cut)) + "...";
}

std::vector<std::string> lines(std::string_view text)
{
  auto parts = split(text, '\n');
  if (!parts.empty() && parts.back().empty()) {
    parts.pop_back();
  }
  return parts;
}

std::string visible_controls(std::string_view text, bool keep_cr)
{
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const bool line_end = c == '\r' && (keep_cr || (i + 1 < text.size() && text[i + 1] == '\n'));
    if ((c < 0x20 && c != '\n' && c != '\t' && !line_end) || c == 0x7f) {
      const unsigned picture = c == 0x7f ? 0x2421 : 0x2400 + c; // U+2400..U+241F, U+2421
      out += static_cast<char>(0xe0 | (picture >> 12));
      out += static_cast<char>(0x80 | ((picture >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (picture & 0x3f));
    } else if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      constexpr std::string_view hex = "0123456789abcdef";
      const auto code = static_cast<unsigned char>(text[i + 1]);
      out += "\\u00";
      out += hex[code >> 4];
      out += hex[code & 0xf];
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

} // namespace ej::util
