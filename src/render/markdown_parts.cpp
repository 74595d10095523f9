#include "render/markdown_parts.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>
#include <string>

namespace ej::render {

namespace {

// "]:" with an unescaped ']': what a link reference definition has (and, rarely, other text).
bool may_define_references(std::string_view markdown)
{
  for (auto at = markdown.find("]:"); at != std::string_view::npos; at = markdown.find("]:", at + 1)) {
    std::size_t backslashes = 0;
    while (backslashes < at && markdown[at - 1 - backslashes] == '\\') {
      ++backslashes;
    }
    if (backslashes % 2 == 0) {
      return true;
    }
  }
  return false;
}

bool has_lone_carriage_return(std::string_view markdown)
{
  for (auto at = markdown.find('\r'); at != std::string_view::npos; at = markdown.find('\r', at + 1)) {
    if (at + 1 == markdown.size() || markdown[at + 1] != '\n') {
      return true;
    }
  }
  return false;
}

// What cmark's scanners read alike in every version: past a NUL or a byte of UTF-8 (valid or not)
// a scanner may stop where the text's ASCII would let it go on.
bool is_ascii_without_nul(std::string_view text)
{
  return std::none_of(text.begin(), text.end(),
                      [](char c) { return c == '\0' || static_cast<unsigned char>(c) >= 0x80; });
}

// A line as a block start sees it: after the up to three spaces it may have, and how many;
// nullopt with more (or a tab): such a line is inside a container, which a blank line followed by
// an unindented line ends, or code.
struct BlockStart {
  std::string_view text;
  std::size_t indent = 0;
};

std::optional<BlockStart> block_start(std::string_view line)
{
  std::size_t spaces = 0;
  while (spaces < line.size() && line[spaces] == ' ') {
    ++spaces;
  }
  if (spaces > 3 || (spaces < line.size() && line[spaces] == '\t')) {
    return std::nullopt;
  }
  return BlockStart{line.substr(spaces), spaces};
}

struct Fence {
  char mark = '`';
  std::size_t length = 0;
};

std::optional<Fence> fence_opening(std::string_view text)
{
  if (text.empty() || (text.front() != '`' && text.front() != '~')) {
    return std::nullopt;
  }
  const auto length = std::min(text.find_first_not_of(text.front()), text.size());
  if (length < 3) {
    return std::nullopt;
  }
  return Fence{text.front(), length};
}

// A backtick fence whose info string has a backtick is no fence ("```a`" is code inline), and
// cmark's scanner matches an info string of valid UTF-8 only: one with a NUL or a non-ASCII byte
// may be no fence either ("```\xf6" is a paragraph).
bool surely_fence(std::string_view text, const Fence& fence)
{
  const auto info = text.substr(fence.length);
  return is_ascii_without_nul(info) && (fence.mark != '`' || info.find('`') == std::string_view::npos);
}

bool closes_fence(std::string_view line, char mark, std::size_t opened_with)
{
  const auto start = block_start(line);
  if (!start || start->text.empty() || start->text.front() != mark) {
    return false;
  }
  const auto& text = start->text;
  const auto length = std::min(text.find_first_not_of(mark), text.size());
  return length >= opened_with && text.find_first_not_of(" \t\r\n", length) == std::string_view::npos;
}

std::string lowercase(std::string_view text)
{
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// The raw HTML blocks a blank line does not end (CommonMark's kinds 1 to 5).
enum class HtmlBlock { Raw, Comment, Instruction, Declaration, Cdata };

// Whether a line ends such a block: Yes, No, or Maybe where versions of cmark read it differently
// (cmark-gfm 0.29 knows no <textarea>, which CommonMark 0.30 added).
enum class Ends { Yes, No, Maybe };

Ends ends_html_block(HtmlBlock kind, std::string_view lower, std::size_t from = 0)
{
  // cmark's scanners look for an end over ASCII: past a NUL or a non-ASCII byte (or one it made
  // U+FFFD of) they may not see it.
  const bool plain = is_ascii_without_nul(lower);
  const auto ended = [&](bool found) { return !found ? Ends::No : plain ? Ends::Yes : Ends::Maybe; };
  const auto has = [&](std::string_view end) { return lower.find(end, from) != std::string_view::npos; };
  switch (kind) {
  case HtmlBlock::Raw: // any of the end tags, whichever opened it
    if (has("</script>") || has("</pre>") || has("</style>")) {
      return ended(true);
    }
    return has("</textarea>") ? Ends::Maybe : Ends::No;
  case HtmlBlock::Comment:
    return ended(has("-->"));
  case HtmlBlock::Instruction:
    return ended(has("?>"));
  case HtmlBlock::Declaration:
    return ended(has(">"));
  case HtmlBlock::Cdata:
    return ended(has("]]>"));
  }
  return Ends::Maybe;
}

// The raw HTML blocks a line beginning with '<' may open and leave open, read loosely: any case,
// <textarea>, a declaration's letter of either case, its end looked for from the line's start and
// from after the opening (versions differ: "<?>" ends where it starts for cmark-gfm 0.29). More
// than cmark opens only costs cuts; fewer would cut inside a block.
std::vector<HtmlBlock> raw_html_openings(std::string_view text)
{
  std::vector<HtmlBlock> out;
  if (text.empty() || text.front() != '<') {
    return out;
  }
  const auto lower = lowercase(text);
  const auto may_open = [&](HtmlBlock kind, std::size_t opening) {
    if (ends_html_block(kind, lower, 0) != Ends::Yes || ends_html_block(kind, lower, opening) != Ends::Yes) {
      out.push_back(kind);
    }
  };
  for (const std::string_view tag : {"script", "pre", "style", "textarea"}) {
    if (lower.compare(1, tag.size(), tag) == 0) {
      const auto after = 1 + tag.size();
      if (after == lower.size() ||
          std::string_view(" \t\v\f\r\n>").find(lower[after]) != std::string_view::npos) {
        may_open(HtmlBlock::Raw, after);
      }
    }
  }
  if (lower.starts_with("<!--")) {
    may_open(HtmlBlock::Comment, 4);
  }
  if (lower.starts_with("<?")) {
    may_open(HtmlBlock::Instruction, 2);
  }
  if (lower.starts_with("<![cdata[")) {
    may_open(HtmlBlock::Cdata, 9);
  }
  if (lower.size() > 2 && lower[1] == '!' && std::isalpha(static_cast<unsigned char>(lower[2])) != 0) {
    may_open(HtmlBlock::Declaration, 2);
  }
  return out;
}

bool is_blank_line(std::string_view line)
{
  return line.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// Where the text may be after a line, as cmark's block parser sees the document's top level.
struct State {
  enum class Kind { Outside, Fence, RawHtml, OtherHtml } kind = Kind::Outside;
  char mark = 0;                   // a fence's
  std::size_t length = 0;          // a fence's
  HtmlBlock html = HtmlBlock::Raw; // a raw HTML block's (kinds 1 to 5)
  auto operator<=>(const State&) const = default;
};

// The states the text may be in after `line`, from `state`. What a line opens depends on what
// holds it: "```" inside a <div> block (an HTML block a blank line ends, CommonMark's kinds 6 and
// 7, which may or may not have started: "<b>" alone is one only outside a paragraph) is HTML, and
// a fence indented one to three spaces may be in a list item, which ends with it. Where it
// cannot be told without parsing as cmark does, both are followed.
void next_states(const State& state, std::string_view line, bool blank, std::set<State>& out)
{
  using Kind = State::Kind;
  switch (state.kind) {
  case Kind::Fence:
    out.insert(closes_fence(line, state.mark, state.length) ? State{} : state);
    return;
  case Kind::RawHtml:
    switch (ends_html_block(state.html, lowercase(line))) {
    case Ends::Yes:
      out.insert(State{});
      return;
    case Ends::Maybe:
      out.insert(State{});
      break;
    case Ends::No:
      break;
    }
    out.insert(state);
    return;
  case Kind::OtherHtml:
    out.insert(blank ? State{} : state);
    return;
  case Kind::Outside:
    break;
  }
  const auto start = block_start(line);
  if (blank || !start) {
    out.insert(State{});
    return;
  }
  const bool surely_top_level = start->indent == 0; // no list item holds an unindented block
  if (const auto fence = fence_opening(start->text)) {
    out.insert(State{Kind::Fence, fence->mark, fence->length});
    if (!surely_top_level || !surely_fence(start->text, *fence)) {
      out.insert(State{});
    }
  } else if (start->text.starts_with('<')) {
    // Whatever else it opens, it may open a block that a blank line ends, or nothing.
    for (const auto kind : raw_html_openings(start->text)) {
      out.insert(State{Kind::RawHtml, 0, 0, kind});
    }
    out.insert(State{Kind::OtherHtml});
    out.insert(State{});
  } else {
    out.insert(State{});
  }
}

} // namespace

std::vector<std::string_view> markdown_parts(std::string_view markdown, std::size_t size)
{
  // A lone "\r" ends a line for cmark: too rare in a document to follow.
  if (may_define_references(markdown) || has_lone_carriage_return(markdown)) {
    return {markdown};
  }
  std::set<State> states{State{}};
  std::vector<std::string_view> parts;
  std::size_t part_start = 0;
  bool after_blank = false;
  for (std::size_t start = 0; start < markdown.size();) {
    auto end = markdown.find('\n', start);
    end = end == std::string_view::npos ? markdown.size() : end + 1;
    const auto line = markdown.substr(start, end - start);
    const bool outside_only = states.size() == 1 && states.begin()->kind == State::Kind::Outside;
    if (after_blank && outside_only && line.front() == '#' && start - part_start >= size) {
      parts.push_back(markdown.substr(part_start, start - part_start));
      part_start = start;
    }
    const bool blank = is_blank_line(line);
    std::set<State> next;
    for (const auto& state : states) {
      next_states(state, line, blank, next);
    }
    states = std::move(next);
    after_blank = blank;
    start = end;
  }
  parts.push_back(markdown.substr(part_start));
  return parts;
}

} // namespace ej::render
