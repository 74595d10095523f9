#include "render/regions.h"

#include "render/cmark_parse.h"
#include "util/error.h"
#include "util/hash.h"

#include <cmark-gfm.h>

#include <algorithm>
#include <set>

namespace ej::render {

namespace {

using NodePtr = CmarkNodePtr;
using IterPtr = CmarkIterPtr;

constexpr std::string_view k_begin_prefix = "<!-- ej:begin ";
constexpr std::string_view k_end_prefix = "<!-- ej:end ";
constexpr std::string_view k_marker_start = "<!-- ej:";
constexpr std::string_view k_marker_suffix = " -->";
constexpr std::string_view k_hash_key = "hash=";

// 1-based lines that CommonMark reads as code, where marker-like lines are just text.
std::vector<bool> code_lines_by_cmark(std::string_view document, std::size_t line_count)
{
  std::vector<bool> code(line_count + 2, false);
  const NodePtr root(cmark_parse_document(document.data(), document.size(), CMARK_OPT_DEFAULT));
  if (!root) {
    return code;
  }
  const IterPtr iter(cmark_iter_new(root.get()));
  for (auto event = cmark_iter_next(iter.get()); event != CMARK_EVENT_DONE;
       event = cmark_iter_next(iter.get())) {
    cmark_node* node = cmark_iter_get_node(iter.get());
    if (event != CMARK_EVENT_ENTER || cmark_node_get_type(node) != CMARK_NODE_CODE_BLOCK) {
      continue;
    }
    const auto first = static_cast<std::size_t>(std::max(cmark_node_get_start_line(node), 1));
    const auto last =
        std::min(static_cast<std::size_t>(std::max(cmark_node_get_end_line(node), 0)), line_count);
    for (auto line = first; line <= last; ++line) {
      code[line] = true;
    }
  }
  return code;
}

struct Fence {
  char c = 0;
  std::size_t length = 0;
  std::size_t indent = 0;
  std::string_view rest; // after the fence characters
};

// A line that could open or close a fenced code block: up to 3 spaces, then 3 or more '`' or '~'.
std::optional<Fence> fence_of(std::string_view line)
{
  Fence fence;
  while (fence.indent < line.size() && line[fence.indent] == ' ') {
    ++fence.indent;
  }
  if (fence.indent > 3 || fence.indent == line.size() || (line[fence.indent] != '`' && line[fence.indent] != '~')) {
    return std::nullopt;
  }
  fence.c = line[fence.indent];
  auto end = fence.indent;
  while (end < line.size() && line[end] == fence.c) {
    ++end;
  }
  fence.length = end - fence.indent;
  if (fence.length < 3) {
    return std::nullopt;
  }
  fence.rest = line.substr(end);
  return fence;
}

// The same as code_lines_by_cmark for the documents ej writes, in a fraction of the time (cmark
// parses every inline of a large document only to answer this). A marker counts only at column 0,
// where no list item, block quote or indented code block can hold it, so only fenced code blocks
// opened at the top level matter. nullopt when the document has anything that could make the scan
// differ from cmark: a fence not at column 0, perhaps in a list item or block quote (cmark even ends
// such a block on the line that closes its container, so a marker there is code); a line opening an
// HTML block, inside which a fence is text; a bare "\r" line ending. cmark decides then.
std::optional<std::vector<bool>> code_lines_by_scan(std::string_view document, std::size_t line_count)
{
  for (auto cr = document.find('\r'); cr != std::string_view::npos; cr = document.find('\r', cr + 1)) {
    if (cr + 1 == document.size() || document[cr + 1] != '\n') {
      return std::nullopt;
    }
  }
  std::vector<bool> code(line_count + 2, false);
  std::optional<Fence> open;
  std::size_t offset = 0;
  for (std::size_t line_number = 1; offset <= document.size(); ++line_number) {
    const auto newline = document.find('\n', offset);
    const auto line_end = newline == std::string_view::npos ? document.size() : newline;
    auto line = document.substr(offset, line_end - offset);
    offset = line_end + 1;
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    const auto fence = fence_of(line);
    if (open) {
      code[line_number] = true;
      if (fence && fence->c == open->c && fence->length >= open->length &&
          fence->rest.find_first_not_of(" \t") == std::string_view::npos) {
        open.reset();
      }
      continue;
    }
    if (fence && fence->indent == 0) {
      if (fence->c == '`' && fence->rest.find('`') != std::string_view::npos) {
        continue; // not a fence: a backtick fence's info string has no backtick
      }
      code[line_number] = true;
      open = fence;
      continue;
    }
    if (line.find("```") != std::string_view::npos || line.find("~~~") != std::string_view::npos) {
      return std::nullopt; // perhaps a fence in a list item or block quote
    }
    const auto first = line.find_first_not_of(' ');
    if (first != std::string_view::npos && first <= 3 && line[first] == '<') {
      const auto html = line.substr(first);
      // A one-line comment (the markers themselves) is an HTML block that ends on its own line.
      if (html.substr(0, 4) != "<!--" || html.find("-->", 4) == std::string_view::npos) {
        return std::nullopt;
      }
    }
  }
  return code;
}

std::vector<bool> code_lines(std::string_view document, std::size_t line_count)
{
  if (auto code = code_lines_by_scan(document, line_count)) {
    return std::move(*code);
  }
  return code_lines_by_cmark(document, line_count);
}

bool valid_name(std::string_view name)
{
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.' || c == ':';
  });
}

struct Marker {
  bool begin = false;
  std::string name;
  std::optional<std::string> hash; // an end marker's
  std::size_t length = 0;          // of the marker text, up to and with "-->"
};

bool valid_hash(std::string_view hash)
{
  return hash.size() == 16 && hash.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

// nullopt: not a marker line. Throws for a line that starts like a marker but is not one.
std::optional<Marker> parse_marker(std::string_view line, std::string_view source, std::size_t line_number)
{
  if (line.substr(0, k_marker_start.size()) != k_marker_start) {
    return std::nullopt;
  }
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) {
    line.remove_suffix(1);
  }
  Marker marker;
  marker.length = line.size();
  std::string_view rest;
  if (line.substr(0, k_begin_prefix.size()) == k_begin_prefix) {
    marker.begin = true;
    rest = line.substr(k_begin_prefix.size());
  } else if (line.substr(0, k_end_prefix.size()) == k_end_prefix) {
    rest = line.substr(k_end_prefix.size());
  }
  if (rest.size() > k_marker_suffix.size() &&
      rest.substr(rest.size() - k_marker_suffix.size()) == k_marker_suffix) {
    auto name = rest.substr(0, rest.size() - k_marker_suffix.size());
    if (const auto space = name.find(' '); space != std::string_view::npos && !marker.begin) {
      const auto hash = name.substr(space + 1);
      if (hash.substr(0, k_hash_key.size()) == k_hash_key && valid_hash(hash.substr(k_hash_key.size()))) {
        marker.hash = std::string(hash.substr(k_hash_key.size()));
        name = name.substr(0, space);
      }
    }
    marker.name = std::string(name);
    if (valid_name(marker.name)) {
      return marker;
    }
  }
  throw Error("{}, line {}: malformed ej marker '{}'; write <!-- ej:begin NAME --> or <!-- ej:end NAME --> "
              "(NAME of letters, digits, '_', '-', '.', ':') alone on the line",
              source, line_number, line);
}

// The end marker of a region and the sha256 of its content (what result.hashes keeps): one pass
// of sha256 serves both when the content has no CRLF to normalize (hashing was a twelfth of a render).
std::string end_marker(std::string_view name, std::string_view content, const std::string& sha256)
{
  const auto hash =
      content.find("\r\n") == std::string_view::npos ? sha256.substr(0, 16) : region_hash(content);
  return fmt::format("{}{} {}{}{}", k_end_prefix, name, k_hash_key, hash, k_marker_suffix);
}

} // namespace

std::string region_hash(std::string_view content)
{
  std::string normalized;
  normalized.reserve(content.size());
  for (std::size_t i = 0; i < content.size(); ++i) {
    if (!(content[i] == '\r' && i + 1 < content.size() && content[i + 1] == '\n')) {
      normalized += content[i];
    }
  }
  return util::sha256_hex(normalized).substr(0, 16);
}

std::vector<Region> parse_regions(std::string_view document, std::string_view source)
{
  const auto line_count = static_cast<std::size_t>(std::count(document.begin(), document.end(), '\n')) + 1;
  const auto code = code_lines(document, line_count);
  std::vector<Region> regions;
  std::optional<Region> open;
  std::map<std::string, std::size_t> seen; // name -> begin line

  std::size_t offset = 0;
  for (std::size_t line_number = 1; offset <= document.size(); ++line_number) {
    const auto newline = document.find('\n', offset);
    const auto line_end = newline == std::string_view::npos ? document.size() : newline;
    const auto next = newline == std::string_view::npos ? document.size() + 1 : newline + 1;
    const auto line = document.substr(offset, line_end - offset);
    const auto marker = code[line_number] ? std::nullopt : parse_marker(line, source, line_number);
    if (marker && marker->begin) {
      if (open) {
        throw Error(
            "{}, line {}: region '{}' begins inside region '{}' (begun on line {}); regions cannot nest: "
            "end '{}' first",
            source, line_number, marker->name, open->name, open->begin_line, open->name);
      }
      if (const auto previous = seen.find(marker->name); previous != seen.end()) {
        throw Error("{}, line {}: region '{}' appears twice (first on line {}); remove one of them", source,
                    line_number, marker->name, previous->second);
      }
      seen.emplace(marker->name, line_number);
      open = Region{marker->name, {}, line_number, 0, std::min(next, document.size()), 0, 0, std::nullopt};
    } else if (marker) {
      if (!open) {
        throw Error("{}, line {}: region '{}' ends but never began; add <!-- ej:begin {} --> above or remove "
                    "the end marker",
                    source, line_number, marker->name, marker->name);
      }
      if (open->name != marker->name) {
        throw Error("{}, line {}: end of region '{}' while region '{}' (line {}) is open; end '{}' first",
                    source, line_number, marker->name, open->name, open->begin_line, open->name);
      }
      open->end_line = line_number;
      open->content_end = offset;
      open->end_marker_end = offset + marker->length;
      open->hash = marker->hash;
      open->content = std::string(document.substr(open->content_begin, offset - open->content_begin));
      regions.push_back(std::move(*open));
      open.reset();
    }
    offset = next;
  }
  if (open) {
    throw Error("{}, line {}: region '{}' is never ended; add <!-- ej:end {} --> where it should end", source,
                open->begin_line, open->name, open->name);
  }
  return regions;
}

MergeResult merge_document(std::optional<std::string_view> existing, std::string_view rendered,
                           const std::map<std::string, std::string>& stored_hashes, bool force,
                           std::string_view source)
{
  const auto fresh = parse_regions(rendered, "the rendered template");
  // A new document is the rendered one merged into itself: every region gets its hash.
  const bool is_new = !existing;
  if (is_new) {
    existing = rendered;
  }
  const auto current = is_new ? fresh : parse_regions(*existing, source);
  std::map<std::string, const Region*> fresh_by_name;
  for (const auto& region : fresh) {
    fresh_by_name[region.name] = &region;
  }

  // First find hand edits, so that nothing is merged when one blocks the render.
  std::vector<std::string> edited;
  for (const auto& region : current) {
    const auto replacement = fresh_by_name.find(region.name);
    if (replacement == fresh_by_name.end() || region.content == replacement->second->content) {
      continue;
    }
    const auto stored = stored_hashes.find(region.name);
    const bool blank = region.content.find_first_not_of(" \t\r\n") == std::string::npos;
    bool changed = false;
    if (region.hash) {
      changed = *region.hash != region_hash(region.content);
    } else {
      changed = stored == stored_hashes.end() ? !blank : stored->second != util::sha256_hex(region.content);
    }
    if (changed) {
      edited.push_back(region.name);
    }
  }
  if (!edited.empty() && !force) {
    std::string names;
    for (const auto& name : edited) {
      names += (names.empty() ? "'" : ", '") + name + "'";
    }
    throw Error("{}: generated region{} {} changed by hand since ej wrote {}; move the text outside the "
                "ej:begin/ej:end markers, or render with --force to overwrite",
                source, edited.size() == 1 ? "" : "s", names, edited.size() == 1 ? "it" : "them");
  }

  MergeResult result;
  std::size_t copied_to = 0;
  for (const auto& region : current) {
    const auto replacement = fresh_by_name.find(region.name);
    if (replacement == fresh_by_name.end()) {
      result.document.append(existing->substr(copied_to, region.end_marker_end - copied_to));
      copied_to = region.end_marker_end;
      result.warnings.push_back(
          fmt::format("{}: region '{}' (line {}) is no longer produced by the template; left as it is",
                      source, region.name, region.begin_line));
      if (const auto stored = stored_hashes.find(region.name); stored != stored_hashes.end()) {
        result.hashes[region.name] = stored->second;
      }
      continue;
    }
    result.document.append(existing->substr(copied_to, region.content_begin - copied_to));
    copied_to = region.end_marker_end;
    if (std::find(edited.begin(), edited.end(), region.name) != edited.end()) {
      result.warnings.push_back(fmt::format("{}: region '{}' (line {}) had hand edits; overwritten (--force)",
                                            source, region.name, region.begin_line));
    }
    const auto& content = replacement->second->content;
    auto sha256 = util::sha256_hex(content);
    result.document.append(content);
    result.document.append(end_marker(region.name, content, sha256));
    result.hashes[region.name] = std::move(sha256);
  }
  result.document.append(existing->substr(copied_to));

  std::set<std::string> present;
  for (const auto& region : current) {
    present.insert(region.name);
  }
  for (const auto& region : fresh) {
    if (present.count(region.name) != 0) {
      continue;
    }
    if (!result.document.empty() && result.document.back() != '\n') {
      result.document += '\n';
    }
    auto sha256 = util::sha256_hex(region.content);
    result.document += fmt::format("\n<!-- ej:begin {} -->\n{}{}\n", region.name, region.content,
                                   end_marker(region.name, region.content, sha256));
    result.hashes[region.name] = std::move(sha256);
    result.warnings.push_back(
        fmt::format("{}: region '{}' was not in the document; appended at the end (move it, "
                    "markers included, where it belongs)",
                    source, region.name));
  }
  return result;
}

bool document_up_to_date(std::string_view existing, std::string_view rendered)
{
  return merge_document(existing, rendered, {}, true).document == existing;
}

} // namespace ej::render
