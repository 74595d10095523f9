#include "render/cmark_parse.h"
#include "render/markdown_parts.h"

#include <catch2/catch.hpp>

#include <random>

using namespace ej::render;

namespace {

std::string html_of(std::string_view markdown)
{
  const auto root = parse_gfm(markdown);
  char* html = cmark_render_html(root.get(), CMARK_OPT_DEFAULT, nullptr);
  std::string out(html);
  cmark_get_default_mem_allocator()->free(html);
  return out;
}

std::string joined_html(const std::vector<std::string_view>& parts)
{
  std::string out;
  for (const auto part : parts) {
    out += html_of(part);
  }
  return out;
}

std::string joined(const std::vector<std::string_view>& parts)
{
  std::string out;
  for (const auto part : parts) {
    out += part;
  }
  return out;
}

} // namespace

TEST_CASE("a document is cut before headings that follow a blank line, and its parts render as the whole")
{
  const std::string document = "# Plan\n\nintro\n\n## Attempts\n\n- a\n- b\n\n### #1 one\n\ntext\n"
                               "### #2 not after a blank line\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
                               "### #3 three\n\n> quoted\n\n#not a heading, still a cut\n";
  const auto parts = markdown_parts(document, 0);
  REQUIRE(parts.size() == 5);
  CHECK(parts[1].starts_with("## Attempts"));
  CHECK(parts[2].starts_with("### #1 one\n\ntext\n### #2")); // no blank line before #2
  CHECK(parts[4] == "#not a heading, still a cut\n");
  CHECK(joined(parts) == document);
  CHECK(joined_html(parts) == html_of(document));
  // Parts of at least the size asked for: fewer cuts.
  CHECK(markdown_parts(document, 30).size() == 3);
  CHECK(markdown_parts(document, 1 << 20).size() == 1);
  CHECK(markdown_parts("", 0).size() == 1);
}

TEST_CASE("no cut falls inside a fenced code block or a raw HTML block that spans blank lines")
{
  for (const std::string inside : {
           "```sh\nrun\n\n# a comment, not a heading\n```\n",
           "~~~~\n\n# x\n~~~\n\n# still in the fence\n~~~~\n",
           "<pre>\n\n# x\n</PRE>\n",
           "<!-- a comment\n\n# x\n-->\n",
           "<?php\n\n# x\n?>\n",
           "<!DOCTYPE\n\n# x\n>\n",
           "<![CDATA[\n\n# x\n]]>\n",
           "<script type=\"x\">\n\n# x\n</script>\n",
           "```\r\n\r\n# x\r\n```\r\n",
       }) {
    INFO(inside);
    const std::string document = "# T\n\n# in\n\n" + inside + "\n# after\n";
    const auto parts = markdown_parts(document, 0);
    REQUIRE(parts.size() == 3);
    CHECK(parts[1] == "# in\n\n" + inside + "\n");
    CHECK(joined_html(parts) == html_of(document));
  }
  // Indented one to three spaces, a fence may be in a list item (which ends before "# x") or not:
  // no cut until both readings agree, here none.
  const std::string maybe_in_item = "# T\n\n- a\n\n  ```\n\n# x\n```\n\n# in the fence?\n```\n";
  CHECK(markdown_parts(maybe_in_item, 0).size() == 1);
  CHECK_THAT(html_of(maybe_in_item), Catch::Contains("<pre><code>\n# in the fence?\n</code></pre>"));
  // Indented four spaces, a fence is code (or in a list item), and ends where they do.
  const std::string indented = "# T\n\n    ```\n\n# after\n";
  CHECK(markdown_parts(indented, 0).size() == 2);
  CHECK(joined_html(markdown_parts(indented, 0)) == html_of(indented));
}

TEST_CASE("what cmark reads differently from the CommonMark of the day is never cut inside")
{
  // Each: a real fence after a block that has ended for cmark-gfm 0.29 (or never began), around
  // "# x"; cut before "# x", the parts would render a heading where the whole renders code.
  for (const std::string tricky :
       {"<?>\n", "<!x\n", "```x`\n\n", "<textarea>\n\n", "<pre\f\n\n", "<!-->\n", "<?\xff\xff>?>\n\n"}) {
    const std::string document = "# T\n\n" + tricky + "```\n?>\n>\n</textarea>\n\n# x\n```\n";
    INFO(document);
    CHECK(joined_html(markdown_parts(document, 0)) == html_of(document));
  }
  // cmark's fence scanner takes an info string of valid UTF-8 only: "```\xf6x" is a paragraph,
  // and the "```" below it opens the fence "# after" is in (a fuzzer found it).
  const std::string invalid_info = "t# T\n\n```\xf6\xf5\xdc\xd7x\n```\n\n# after\n";
  CHECK(markdown_parts(invalid_info, 0).size() == 1);
  CHECK(joined_html(markdown_parts(invalid_info, 0)) == html_of(invalid_info));
  const std::string lone_cr = "# T\n\nfoo\r```\n\n# x\n```\n";
  CHECK(markdown_parts(lone_cr, 0).size() == 1);
  CHECK(markdown_parts("# T\r\n\r\n# U\r\n", 0).size() == 2); // "\r\n" is one line break
}

TEST_CASE("a document that may define a link reference is one part")
{
  const std::string document = "# T\n\nsee [the log][log]\n\n# more\n\n[log]: https://example.org\n";
  CHECK(markdown_parts(document, 0).size() == 1);
  // Escaped, "\]:" defines nothing: cut.
  CHECK(markdown_parts("# T\n\na \\]: b\n\n# U\n", 0).size() == 2);
  CHECK(markdown_parts("# T\n\na \\\\]: b\n\n# U\n", 0).size() == 1);
}

TEST_CASE("random documents cut at every heading render as the whole, over 20000 of them")
{
  static const std::vector<std::string> lines = {
      "# h", "## h2", "#x", "", "", "text", "- item", "1. item", "  - sub", "> quote", "```", "~~~", "````",
      "   ```", "    code", "<pre>", "</pre>", "<!--", "-->", "<div>", "</div>", "| a |", "|---|", "***",
      "---", "a\\", "<?", "?>", "<!X", ">", "\ttab", "*em", "em*", "[a]", "`code`", "<b>", "===", "  # h",
      "\r", "<script>", "</script>", "<div>", "  ```", "- ```", "> ```", "  <pre>", "1. ~~~", "   ~~~~",
      // What a review found cut wrongly: ends and starts versions of cmark read differently.
      "<?>", "<!x", "```a`", "<textarea>", "</textarea>", "x\r```", "<pre\f", "<!-->", "<![cdata[",
      // The fuzzer's: an end past a non-ASCII byte is not seen.
      "<?\xff>?>", "<!--\xc3\xa9-->", "\xff-->", "<pre>\xff</pre>"};
  std::mt19937 engine(20261202);
  for (int round = 0; round < 20000; ++round) {
    std::string document;
    const auto count = engine() % 30;
    for (std::uint32_t i = 0; i < count; ++i) {
      document += lines[engine() % lines.size()];
      document += '\n';
    }
    INFO(document);
    const auto parts = markdown_parts(document, 0);
    REQUIRE(joined(parts) == document);
    REQUIRE(joined_html(parts) == html_of(document));
  }
}
