#include "render/markdown_check.h"
#include "render/markdown_escape.h"

#include <catch2/catch.hpp>

#include <random>

using namespace ej::render;

namespace {

// Random user text from the characters that are markdown syntax, plus letters, digits,
// multibyte UTF-8, tabs and line breaks. Fixed seed, and only the engine's raw output is used, so
// every platform generates the same strings.
class TextGenerator {
public:
  std::string next()
  {
    static const std::vector<std::string> alphabet = {
        "|",      "`",    "*",   "_",    "[",       "]",         "(",          ")",   "<",   ">",  "#",
        "\\",     "!",    "&",   ";",    ":",       "-",         "+",          ".",   "=",   "~",  " ",
        " ",      " ",    "\t",  "a",    "b",       "Z",         "x",          "0",   "1",   "9",  "é",
        "→",      "🚀",    "\n",  "\r\n", "&amp;",   "&#32;",     "http://x.y", "<b>", "1. ", "- ", "# ",
        "```",    "    ", "**",  "__",   "![a](b)", "NCCL_ALGO", "~~",         "~~~", "`x`", "``", "[1, 2]",
        "&#x1F;", "---",  "|-|", "*x*",  "~30",     "-3.3%",     "a_b_"};
    const auto length = m_engine() % 24;
    std::string out;
    for (std::uint32_t i = 0; i < length; ++i) {
      out += alphabet[m_engine() % alphabet.size()];
    }
    return out;
  }

private:
  std::mt19937 m_engine{20240607};
};

std::vector<std::string> split_lines(const std::string& text)
{
  std::vector<std::string> out(1);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' || text[i] == '\r') {
      if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
        ++i;
      }
      out.emplace_back();
    } else {
      out.back() += text[i];
    }
  }
  return out;
}

std::string trim_blanks(const std::string& text)
{
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) {
    return "";
  }
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// What escape_table_cell documents: every line break becomes one space.
std::string expected_cell(const std::string& value)
{
  const auto lines = split_lines(value);
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    out += (i == 0 ? "" : " ") + lines[i];
  }
  return out;
}

// What escape_markdown_inline documents: trimmed lines, blank lines dropped, joined by breaks.
std::string expected_lines(const std::string& value, const std::string& separator)
{
  std::string out;
  for (const auto& line : split_lines(value)) {
    const auto trimmed = trim_blanks(line);
    if (!trimmed.empty()) {
      out += (out.empty() ? "" : separator) + trimmed;
    }
  }
  return out;
}

} // namespace

TEST_CASE("escaped table cells read back as the original values over 2000 random strings")
{
  TextGenerator generator;
  std::vector<std::vector<std::string>> rows;
  std::string markdown = "Intro paragraph.\n\n| id | title | reason | command |\n|---|:---|---:|:-:|\n";
  for (int i = 0; i < 500; ++i) {
    std::vector<std::string> row;
    markdown += "|";
    for (int column = 0; column < 4; ++column) {
      row.push_back(generator.next());
      markdown += " " + escape_table_cell(row.back()) + " |";
    }
    markdown += "\n";
    rows.push_back(row);
  }
  const auto tables = parse_markdown_tables(markdown);
  REQUIRE(tables.size() == 1);
  REQUIRE(tables[0].size() == rows.size() + 1);
  CHECK(tables[0][0] == std::vector<std::string>{"id", "title", "reason", "command"});
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& cells = tables[0][i + 1];
    REQUIRE(cells.size() == 4);
    for (std::size_t column = 0; column < 4; ++column) {
      INFO("value: " << rows[i][column] << "\nescaped: " << escape_table_cell(rows[i][column]));
      CHECK(cells[column] == expected_cell(rows[i][column]));
    }
  }
}

TEST_CASE("escaped paragraphs and list items read back as the original lines over 2000 random strings")
{
  TextGenerator generator;
  for (int i = 0; i < 2000; ++i) {
    const auto value = generator.next();
    const auto escaped = escape_markdown_inline(value);
    const auto expected = expected_lines(value, "\n");
    INFO("value: " << value << "\nescaped: " << escaped);
    const std::vector<std::pair<std::string, std::string>> contexts = {
        {"", ""}, {"- ", ""}, {"**Reason:** ", "Reason: "}}; // markdown before the text, what it reads as
    for (const auto& [before, prefix] : contexts) {
      const auto markdown = before + escaped + "\n";
      const auto paragraphs = parse_markdown_paragraphs(markdown);
      CHECK(parse_markdown_tables(markdown).empty());
      if (expected.empty()) {
        CHECK(paragraphs.size() <= 1);
        continue;
      }
      REQUIRE(paragraphs.size() == 1);
      CHECK(paragraphs[0] == prefix + expected);
    }
  }
}

TEST_CASE("escaped headings read back as the original text on one line over 2000 random strings")
{
  TextGenerator generator;
  for (int i = 0; i < 2000; ++i) {
    const auto value = generator.next();
    const auto markdown = "## " + escape_markdown_line(value) + "\n\nBody.\n";
    INFO("value: " << value << "\nmarkdown: " << markdown);
    const auto headings = parse_markdown_headings(markdown);
    REQUIRE(headings.size() == 1);
    CHECK(headings[0] == expected_lines(value, " "));
  }
}

TEST_CASE("two escaped texts side by side in one paragraph read back as both, over 2000 random pairs")
{
  // Emphasis or a link must not start in one text and end in the next.
  TextGenerator generator;
  for (int i = 0; i < 2000; ++i) {
    const auto first = expected_lines(generator.next(), " ");
    const auto second = expected_lines(generator.next(), " ");
    if (first.empty() || second.empty()) {
      continue;
    }
    for (const std::string separator : {" ", ": ", " (", ", "}) {
      const auto markdown = "- run #1 \"" + escape_markdown_inline(first) + "\"" + separator +
                            escape_markdown_inline(second) + "\n";
      INFO("first: " << first << "\nsecond: " << second << "\nmarkdown: " << markdown);
      const auto paragraphs = parse_markdown_paragraphs(markdown);
      REQUIRE(paragraphs.size() == 1);
      CHECK(paragraphs[0] == "run #1 \"" + first + "\"" + separator + second);
    }
  }
}

TEST_CASE("escaping leaves ordinary text readable")
{
  CHECK(escape_markdown_inline("NCCL_ALGO=Tree is 3.5% faster (R&D)") ==
        "NCCL_ALGO=Tree is 3.5% faster (R&D)");
  CHECK(escape_markdown_inline("net negative: the verify pass takes ~30 ms") ==
        "net negative: the verify pass takes ~30 ms");
  CHECK(escape_markdown_inline("-3.3% inconclusive [-3.3, -3.3] vs x < 15") ==
        "-3.3% inconclusive [-3.3, -3.3] vs x < 15");
  CHECK(escape_markdown_inline("use *fast* path | [link](x) <b> `code`") ==
        "use \\*fast\\* path | \\[link\\](x) \\<b> `code`");
  CHECK(escape_markdown_inline("# not a heading\n\n- not a list\n1. nor this") ==
        "\\# not a heading\\\n\\- not a list\\\n1\\. nor this");
  CHECK(escape_markdown_inline("a ~~struck~~ b, 2*3*4, C:\\path\\*") ==
        "a \\~\\~struck\\~\\~ b, 2\\*3\\*4, C:\\path\\\\\\*");
  CHECK(escape_table_cell("a|b\nc") == "a\\|b c");
  CHECK(escape_table_cell("+3.5% [2.9%, 4.1%]") == "+3.5% [2.9%, 4.1%]");
  CHECK(escape_table_cell("  x ") == "&#32;&#32;x&#32;");
  CHECK(escape_markdown_line("Issue #12\nsecond line") == "Issue #12 second line");
  CHECK(escape_markdown_line("C# and F#") == "C# and F#");
  CHECK(escape_markdown_line("closing #") == "closing \\#");
  CHECK(escape_markdown_inline("&amp; & &#32;") == "\\&amp; & \\&#32;");
}

TEST_CASE("inline code in user text stays code, and reads back as the text")
{
  const std::string note = "try `-march=native` and ``a`b``";
  const auto escaped = escape_markdown_inline(note);
  CHECK(escaped == note);
  const auto paragraphs = parse_markdown_paragraphs("- " + escaped + "\n");
  REQUIRE(paragraphs.size() == 1);
  CHECK(paragraphs[0] == note);
  // Not written as markdown writes code: escaped, so it reads back as typed.
  CHECK(escape_markdown_inline("`` x ``") == "\\`\\` x \\`\\`");
  CHECK(escape_table_cell("`a | b`") == "\\`a \\| b\\`");
  CHECK(escape_table_cell("`-O3`") == "`-O3`");
}

TEST_CASE("an email autolink in a text is escaped: the fuzzer's <1@bs>")
{
  // cmark links <local@domain>, whatever character the local part starts with.
  for (const std::string value : {"tryc1o <!@bs>amp#<!`bs>-6.3% inc1o <1@bs>-6.3% iancoz", "ask <1@bs>",
                                  "<a.b+c@example.org>", "x <-@y> z"}) {
    INFO(value);
    const auto tables = parse_markdown_tables("| a |\n|---|\n| " + escape_table_cell(value) + " |\n");
    REQUIRE(tables.size() == 1);
    REQUIRE(tables[0].size() == 2);
    CHECK(tables[0][1].front() == value);
  }
  CHECK(escape_markdown_inline("latency < 15 ms, a <= b, 1 <2") == "latency < 15 ms, a <= b, 1 <2");
}

TEST_CASE("plain texts come back as they are, and texts one character from plain are still escaped")
{
  // Plain: escaped in one pass (markdown_escape.cpp is_plain), unchanged.
  for (const std::string value : {"verify", "lab notebook", "NCCL_ALGO=Tree", "CUDA 12.8 -> 13.0",
                                  "#17 (a, b)", "27.80 ms; n=5", "x_1_y", "C# and F#!"}) {
    CHECK(escape_markdown_inline(value) == value);
    CHECK(escape_table_cell(value) == value);
    CHECK(escape_markdown_line(value) == value);
  }
  CHECK(escape_markdown_inline("").empty());
  CHECK(escape_table_cell("").empty());
  CHECK(escape_markdown_line("").empty());
  // One character from plain: the full escaper decides.
  CHECK(escape_markdown_inline("_x_") == "\\_x\\_");
  CHECK(escape_markdown_inline("x_") == "x\\_");
  CHECK(escape_markdown_inline("1. first") == "1\\. first");
  CHECK(escape_markdown_inline("> quoted") == "\\> quoted");
  CHECK(escape_markdown_inline("- item") == "\\- item");
  CHECK(escape_markdown_inline("===") == "\\===");
  CHECK(escape_table_cell("1. first") == "1. first"); // a cell starts no block
  CHECK(escape_markdown_line("closing #") == "closing \\#");
  CHECK(escape_markdown_inline("closing #") == "closing #");
  CHECK(escape_table_cell(" x") == "&#32;x");
  CHECK(escape_markdown_inline("x ") == "x");
  CHECK(escape_markdown_inline("caf\xc3\xa9 *a*") == "caf\xc3\xa9 \\*a\\*");
  CHECK(escape_markdown_inline("bell\x07") == "bell\xe2\x90\x87");
  // A verdict (an interval in brackets, p<...) is plain; brackets or '<' that could be syntax are not.
  for (const std::string value : {"+5.95% [+1.91%, +9.48%] 1.06x slower, regressed (p<0.0001) vs run #1",
                                  "x [1 2] and [3, 4]", "a <= b, 1 <2", "p < 0.05"}) {
    CHECK(escape_markdown_inline(value) == value);
    CHECK(escape_table_cell(value) == value);
  }
  CHECK(escape_markdown_inline("x [1,2](y)") == "x \\[1,2\\](y)");
  CHECK(escape_markdown_inline("x [12]") == "x \\[12\\]");
  CHECK(escape_markdown_inline("x [1, a]") == "x \\[1, a\\]");
  CHECK(escape_markdown_inline("x ] [1, 2") == "x \\] \\[1, 2");
  CHECK(escape_markdown_inline("[1, 2] first") == "\\[1, 2\\] first");
  CHECK(escape_table_cell("[1, 2] first") == "[1, 2] first");
  CHECK(escape_markdown_inline("x <") == "x \\<");
  CHECK(escape_markdown_inline("x <b") == "x \\<b");
  CHECK(escape_markdown_inline("mail <1@bs>") == "mail \\<1@bs>");
  CHECK(escape_markdown_inline("1 <2 a@b") == "1 <2 a@b");
}
