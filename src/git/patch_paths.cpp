#include "git/patch_paths.h"

namespace ej::git {

namespace {

constexpr std::string_view k_header = "diff --git ";

// A path as git quotes one: in double quotes, with C escapes.
std::string quoted(std::string_view prefix, std::string_view path)
{
  std::string out = "\"";
  out += prefix;
  for (const char c : path) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\t') {
      out += "\\t";
    } else {
      out += c;
    }
  }
  return out + '"';
}

// The header's paths quoted, or nothing to change. An unquoted "a/P b/P" splits one way only:
// both halves have the length (size - 5) / 2.
std::string quoted_header(std::string_view paths)
{
  if (paths.size() < 7 || (paths.size() - 5) % 2 != 0 || paths.front() == '"') {
    return {};
  }
  const std::size_t length = (paths.size() - 5) / 2;
  const auto old_path = paths.substr(2, length);
  if (!paths.starts_with("a/") || paths.substr(2 + length, 3) != " b/" ||
      paths.substr(5 + length) != old_path || old_path.find_first_of(" \t") == std::string_view::npos) {
    return {};
  }
  return std::string(k_header) + quoted("a/", old_path) + ' ' + quoted("b/", old_path);
}

} // namespace

std::string quote_blank_header_paths(std::string_view patch)
{
  std::string out;
  out.reserve(patch.size());
  std::size_t start = 0;
  while (start < patch.size()) {
    auto end = patch.find('\n', start);
    end = end == std::string_view::npos ? patch.size() : end;
    const auto line = patch.substr(start, end - start);
    std::string changed;
    if (line.starts_with(k_header)) {
      changed = quoted_header(line.substr(k_header.size()));
    }
    out += changed.empty() ? line : std::string_view(changed);
    if (end < patch.size()) {
      out += '\n';
    }
    start = end + 1;
  }
  return out;
}

} // namespace ej::git
