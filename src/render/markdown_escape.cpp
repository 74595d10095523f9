#include "render/markdown_escape.h"

#include "util/strings.h"

#include <optional>
#include <vector>

namespace ej::render {

namespace {

enum class Context { Cell, Paragraph, Heading };

bool is_ascii_alnum(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool is_ascii_letter(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool is_ascii_punctuation(char c)
{
  return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') || (c >= '{' && c <= '~');
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

// What CommonMark's flanking rules see next to a delimiter run. Any non-ASCII byte is Unknown
// (Unicode spaces and punctuation count as such), and a decision must hold for every class it
// could be. The edges of a text are a Boundary: a template puts a text after and before a space,
// punctuation or a line break, never straight after or before a letter.
enum class Side { Space, Punctuation, Other, Unknown, Boundary };

Side side_at(std::string_view line, std::size_t i, bool inside)
{
  if (!inside) {
    return Side::Boundary;
  }
  const char c = line[i];
  if (static_cast<unsigned char>(c) >= 0x80) {
    return Side::Unknown;
  }
  if (is_blank(c)) {
    return Side::Space;
  }
  return is_ascii_punctuation(c) ? Side::Punctuation : Side::Other;
}

std::vector<Side> possible(Side side)
{
  if (side == Side::Unknown) {
    return {Side::Space, Side::Punctuation, Side::Other};
  }
  if (side == Side::Boundary) {
    return {Side::Space, Side::Punctuation};
  }
  return {side};
}

bool left_flanking(Side before, Side after)
{
  return after != Side::Space &&
         (after != Side::Punctuation || before == Side::Space || before == Side::Punctuation);
}

bool right_flanking(Side before, Side after)
{
  return before != Side::Space &&
         (before != Side::Punctuation || after == Side::Space || after == Side::Punctuation);
}

struct Run {
  std::size_t start = 0;
  std::size_t length = 0;
  bool can_open = false;
  bool can_close = false;
};

// Whether a run of '*', '_' or '~' could open or close emphasis (strikethrough) for any of the
// classes its neighbours could be.
Run classify_run(std::string_view line, std::size_t start, std::size_t length)
{
  Run run{start, length};
  const char c = line[start];
  for (const auto before : possible(side_at(line, start - 1, start > 0))) {
    for (const auto after : possible(side_at(line, start + length, start + length < line.size()))) {
      const bool left = left_flanking(before, after);
      const bool right = right_flanking(before, after);
      if (c == '_') { // intraword '_' is never emphasis
        run.can_open |= left && (!right || before == Side::Punctuation);
        run.can_close |= right && (!left || after == Side::Punctuation);
      } else {
        run.can_open |= left;
        run.can_close |= right;
      }
    }
  }
  return run;
}

// Brackets are link syntax only with a link after them or a reference definition somewhere in
// the document. A pair around numbers and punctuation with a space or comma in it ("[-3.3, -3.3]",
// an interval) is kept: no link follows it and no one names a reference like that. The closing
// bracket of such a pair opened at `open`, or npos. code: the characters inside code spans (empty:
// none).
std::size_t kept_bracket_close(std::string_view line, std::size_t open, Context context,
                               const std::vector<bool>& code)
{
  if ((open == 0 && context != Context::Cell) || (open > 0 && line[open - 1] == '!')) {
    return std::string_view::npos; // a definition, a task list item or an image
  }
  bool separated = false;
  for (std::size_t i = open + 1; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ']') {
      // At the end of the text the template follows, never with '(' or '['.
      const bool link_after = i + 1 < line.size() && (line[i + 1] == '(' || line[i + 1] == '[');
      return separated && !link_after ? i : std::string_view::npos;
    }
    if (is_ascii_letter(c) || static_cast<unsigned char>(c) >= 0x80 || (i < code.size() && code[i]) ||
        std::string_view("[\\`<&*_~!|").find(c) != std::string_view::npos) {
      return std::string_view::npos;
    }
    separated |= c == ' ' || c == ',';
  }
  return std::string_view::npos;
}

// What one line of user text keeps as markdown syntax, and what it escapes.
class LineEscaper {
public:
  LineEscaper(std::string_view line, Context context)
      : m_line(line), m_context(context), m_escape(line.size())
  {
    find_code_spans();
    mark_delimiter_runs();
    mark_brackets();
    mark_other_characters();
  }

  void write(std::string& out) const
  {
    for (std::size_t i = 0; i < m_line.size(); ++i) {
      if (m_escape[i]) {
        out += '\\';
      }
      out += m_line[i];
    }
  }

  // A character at the start of the line that could start a block is escaped by the caller.
  void escape_at(std::size_t i) { m_escape[i] = true; }
  bool in_code(std::size_t i) const { return m_code[i]; }

private:
  // Backticks that the text closes the way a code span is written in markdown stay a code span
  // (`-march=native`): a run of N backticks, content on the same line that does not start or end
  // with a space, and N the shortest run absent from the content, so that the code span reads back
  // as exactly the text (markdown_check.h writes code back that way). Others are escaped.
  void find_code_spans()
  {
    m_code.assign(m_line.size(), false);
    std::size_t i = 0;
    while (i < m_line.size()) {
      if (m_line[i] != '`') {
        ++i;
        continue;
      }
      const auto length = run_length(i, '`');
      const auto close = find_closing_run(i + length, length);
      if (close == std::string_view::npos) {
        i += length;
        continue;
      }
      const auto content = m_line.substr(i + length, close - i - length);
      if (keeps_code_span(i, length, content)) {
        for (std::size_t k = i; k < close + length; ++k) {
          m_code[k] = true;
        }
      }
      i = close + length;
    }
  }

  bool keeps_code_span(std::size_t start, std::size_t fence, std::string_view content) const
  {
    if (content.empty() || is_blank(content.front()) || is_blank(content.back())) {
      return false;
    }
    if (fence != code_span_fence(content)) {
      return false;
    }
    if (m_context == Context::Cell && content.find('|') != std::string_view::npos) {
      return false; // a pipe would end the cell
    }
    return m_context == Context::Cell || start > 0 || fence < 3; // ``` at a line start opens a fence
  }

  std::size_t run_length(std::size_t i, char c) const
  {
    std::size_t length = 0;
    while (i + length < m_line.size() && m_line[i + length] == c) {
      ++length;
    }
    return length;
  }

  std::size_t find_closing_run(std::size_t from, std::size_t length) const
  {
    for (std::size_t i = from; i < m_line.size();) {
      if (m_line[i] != '`') {
        ++i;
        continue;
      }
      const auto found = run_length(i, '`');
      if (found == length) {
        return i;
      }
      i += found;
    }
    return std::string_view::npos;
  }

  // A run that could close emphasis is escaped, so no text ever closes one (also not one opened
  // by another text in the same paragraph); a run that could only open is escaped when a closing
  // run of the same character follows in the line, and otherwise left readable ("~30 ms").
  void mark_delimiter_runs()
  {
    std::vector<Run> runs;
    for (std::size_t i = 0; i < m_line.size();) {
      const char c = m_line[i];
      if (m_code[i] || (c != '*' && c != '_' && c != '~')) {
        ++i;
        continue;
      }
      const auto length = run_length(i, c);
      runs.push_back(classify_run(m_line, i, length));
      i += length;
    }
    for (std::size_t r = 0; r < runs.size(); ++r) {
      bool escape = runs[r].can_close;
      for (std::size_t later = r + 1; !escape && runs[r].can_open && later < runs.size(); ++later) {
        escape = runs[later].can_close && m_line[runs[later].start] == m_line[runs[r].start];
      }
      if (escape) {
        for (std::size_t k = 0; k < runs[r].length; ++k) {
          m_escape[runs[r].start + k] = true;
        }
      }
    }
  }

  // A pair kept_bracket_close() keeps stays; every other bracket is escaped.
  void mark_brackets()
  {
    for (std::size_t i = 0; i < m_line.size(); ++i) {
      if (m_code[i] || (m_line[i] != '[' && m_line[i] != ']')) {
        continue;
      }
      if (m_line[i] == '[') {
        const auto close = kept_bracket_pair(i);
        if (close != std::string_view::npos) {
          i = close;
          continue;
        }
      }
      m_escape[i] = true;
    }
  }

  std::size_t kept_bracket_pair(std::size_t open) const
  {
    return kept_bracket_close(m_line, open, m_context, m_code);
  }

  void mark_other_characters()
  {
    for (std::size_t i = 0; i < m_line.size(); ++i) {
      if (m_code[i]) {
        continue;
      }
      const char c = m_line[i];
      const bool last = i + 1 == m_line.size();
      const char after = last ? '\0' : m_line[i + 1];
      switch (c) {
      case '`':
        m_escape[i] = true;
        break;
      case '\\': // an escape before punctuation; a hard line break at the end of a line
        m_escape[i] = last || is_ascii_punctuation(after);
        break;
      case '<': // raw HTML and URI autolinks start with a letter, '/', '!' or '?'; <1@bs> is an email
        m_escape[i] = last || is_ascii_letter(after) || after == '/' || after == '!' || after == '?' ||
                      starts_email(i + 1);
        break;
      case '&':
        m_escape[i] = starts_entity(i);
        break;
      case '|':
        m_escape[i] = m_context == Context::Cell;
        break;
      default:
        break;
      }
    }
  }

  // An email autolink's local part and its '@' ("1@bs>" after a '<'): cmark links <1@bs>.
  bool starts_email(std::size_t k) const
  {
    const auto start = k;
    while (k < m_line.size() &&
           (is_ascii_alnum(m_line[k]) ||
            std::string_view(".!#$%&'*+/=?^_`{|}~-").find(m_line[k]) != std::string_view::npos)) {
      ++k;
    }
    return k > start && k < m_line.size() && m_line[k] == '@';
  }

  // "&amp;", "&#32;", "&#x1F;": what cmark could read as a character reference.
  bool starts_entity(std::size_t i) const
  {
    std::size_t k = i + 1;
    if (k < m_line.size() && m_line[k] == '#') {
      ++k;
    }
    const auto name_start = k;
    while (k < m_line.size() && is_ascii_alnum(m_line[k])) {
      ++k;
    }
    return k > name_start && k < m_line.size() && m_line[k] == ';';
  }

  std::string_view m_line;
  Context m_context;
  std::vector<bool> m_escape;
  std::vector<bool> m_code;
};

// A line that only holds one character (and blanks), at least `least` times: "---", "* * *".
bool repeats_only(std::string_view line, char c, std::size_t least)
{
  std::size_t count = 0;
  for (const char k : line) {
    if (k == c) {
      ++count;
    } else if (!is_blank(k)) {
      return false;
    }
  }
  return count >= least;
}

// A GFM table's delimiter row ("---|:-:"), which would turn the line above into a table header.
bool looks_like_delimiter_row(std::string_view line)
{
  return line.find('-') != std::string_view::npos && line.find('|') != std::string_view::npos &&
         line.find_first_not_of("|-: \t") == std::string_view::npos;
}

// The first character of a line of a paragraph when it would start another block: a heading, a
// quote, a list item, a thematic break, a setext underline, a fence or a table's delimiter row.
std::optional<std::size_t> block_start_to_escape(std::string_view line)
{
  if (line.empty()) {
    return std::nullopt;
  }
  const char first = line.front();
  const char second = line.size() > 1 ? line[1] : ' ';
  std::size_t hashes = 0;
  while (hashes < line.size() && line[hashes] == '#') {
    ++hashes;
  }
  if (hashes > 0 && hashes <= 6 && (hashes == line.size() || is_blank(line[hashes]))) {
    return 0;
  }
  if (first == '>' || ((first == '-' || first == '+' || first == '*') && is_blank(second)) ||
      ((first == '-' || first == '+' || first == '*') && line.size() == 1)) {
    return 0;
  }
  if (repeats_only(line, '-', 1) || repeats_only(line, '=', 1) || repeats_only(line, '*', 3) ||
      repeats_only(line, '_', 3) || line.rfind("~~~", 0) == 0 || looks_like_delimiter_row(line)) {
    return 0;
  }
  std::size_t digits = 0;
  while (digits < line.size() && line[digits] >= '0' && line[digits] <= '9') {
    ++digits;
  }
  if (digits > 0 && digits <= 9 && digits < line.size() && (line[digits] == '.' || line[digits] == ')') &&
      (digits + 1 == line.size() || is_blank(line[digits + 1]))) {
    return digits;
  }
  return std::nullopt;
}

// A heading's closing sequence: a run of '#' at the end, after a blank (or alone), is dropped.
std::optional<std::size_t> closing_hashes(std::string_view line)
{
  std::size_t start = line.size();
  while (start > 0 && line[start - 1] == '#') {
    --start;
  }
  if (start == line.size() || (start > 0 && !is_blank(line[start - 1]))) {
    return std::nullopt;
  }
  return start;
}

void escape_line(std::string_view line, Context context, std::string& out)
{
  LineEscaper escaper(line, context);
  if (context != Context::Cell) {
    if (const auto at = block_start_to_escape(line); at && !escaper.in_code(*at)) {
      escaper.escape_at(*at);
    }
  }
  if (context == Context::Heading) {
    if (const auto at = closing_hashes(line)) {
      escaper.escape_at(*at);
    }
  }
  escaper.write(out);
}

// Whether every escaper above leaves a text as it is, decided in one pass: most texts of a large
// document (benchmark names, sources, units, "looked at the profile") are plain, and the escapers
// cost a few allocations and passes each (a tenth of rendering 100,000 runs). Plain: one line of
// printable ASCII without blanks at its edges, none of the characters that can be syntax inside a
// line (* ~ \ ` & |), '_' only between letters or digits (never emphasis there), brackets only as a
// pair the escaper keeps and '<' only before what cannot start a tag (the verdicts of every run:
// "+5.9% [+1.9%, +9.5%] ... (p<0.0001)"), and no block start at its beginning (a paragraph line)
// or closing '#' run at its end (a heading). Any doubt (non-ASCII, a control) goes the full way.
bool is_plain(std::string_view text, Context context)
{
  if (text.empty()) {
    return true; // (most reasons and labels)
  }
  if (is_blank(text.front()) || is_blank(text.back())) {
    return false;
  }
  std::size_t kept_close = std::string_view::npos; // the ']' of the bracket pair open, if any
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c < 0x20 || c > 0x7e) {
      return false; // controls, line breaks, DEL and every non-ASCII byte
    }
    switch (c) {
    case '*':
    case '~':
    case '\\':
    case '`':
    case '&':
    case '|':
      return false;
    case '[': // a pair the escaper keeps ("[+1.9%, +9.5%]", an interval), whose inside is plain
      kept_close = kept_bracket_close(text, i, context, {});
      if (kept_close == std::string_view::npos) {
        return false;
      }
      break;
    case ']':
      if (i != kept_close) {
        return false;
      }
      break;
    case '<': // "p<0.01": nothing after it that starts HTML, an autolink or an email
      if (i + 1 == text.size() || is_ascii_letter(text[i + 1]) || text[i + 1] == '/' || text[i + 1] == '!' ||
          text[i + 1] == '?' || text.find('@') != std::string_view::npos) {
        return false;
      }
      break;
    case '_':
      if (i == 0 || i + 1 == text.size() || !is_ascii_alnum(text[i - 1]) || !is_ascii_alnum(text[i + 1])) {
        return false;
      }
      break;
    default:
      break;
    }
  }
  if (context != Context::Cell && block_start_to_escape(text)) {
    return false;
  }
  return context != Context::Heading || !closing_hashes(text);
}

// The lines of a text with their blanks trimmed, the empty ones left out, and control characters
// made visible (ESC, BEL, ... shown, never sent).
std::vector<std::string> visible_lines(std::string_view text)
{
  const auto visible = util::visible_controls(text, true);
  std::vector<std::string> out;
  for (const auto raw : split_lines(visible)) {
    if (const auto line = trim_blanks(raw); !line.empty()) {
      out.emplace_back(line);
    }
  }
  return out;
}

} // namespace

std::size_t code_span_fence(std::string_view content)
{
  std::vector<bool> present(content.size() + 2, false);
  std::size_t run = 0;
  for (std::size_t i = 0; i <= content.size(); ++i) {
    if (i < content.size() && content[i] == '`') {
      ++run;
    } else {
      if (run > 0 && run < present.size()) {
        present[run] = true;
      }
      run = 0;
    }
  }
  std::size_t fence = 1;
  while (present[fence]) {
    ++fence;
  }
  return fence;
}

std::string escape_table_cell(std::string_view text)
{
  if (is_plain(text, Context::Cell)) {
    return std::string(text);
  }
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
  escape_line(core, Context::Cell, out);
  for (std::size_t i = value.size() - trail; i < value.size(); ++i) {
    out += reference(value[i]);
  }
  return out;
}

std::string escape_markdown_inline(std::string_view text)
{
  if (is_plain(text, Context::Paragraph)) {
    return std::string(text);
  }
  std::string out;
  for (const auto& line : visible_lines(text)) {
    if (!out.empty()) {
      out += "\\\n";
    }
    escape_line(line, Context::Paragraph, out);
  }
  return out;
}

std::string escape_markdown_line(std::string_view text)
{
  if (is_plain(text, Context::Heading)) {
    return std::string(text);
  }
  std::string out;
  escape_line(util::join(visible_lines(text), " "), Context::Heading, out);
  return out;
}

} // namespace ej::render
