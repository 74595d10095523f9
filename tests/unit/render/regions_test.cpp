#include "render/regions.h"

#include "util/error.h"
#include "util/hash.h"

#include <catch2/catch.hpp>

using ej::render::merge_document;
using ej::render::parse_regions;

namespace {

std::string parse_error(std::string_view document)
{
  try {
    parse_regions(document, "journal/x.md");
  } catch (const ej::Error& error) {
    return error.what();
  }
  return "(no error)";
}

// The end marker ej writes after content.
std::string end_of(const std::string& name, const std::string& content)
{
  return "<!-- ej:end " + name + " hash=" + ej::render::region_hash(content) + " -->";
}

const std::string k_summary = "new summary\n";
const std::string k_table = "| a | b |\n|---|---|\n| 1 | 2 |\n";

const std::string k_rendered =
    "# Plan\n\n"
    "<!-- ej:begin summary -->\nnew summary\n<!-- ej:end summary -->\n\n"
    "## Attempts\n\n"
    "<!-- ej:begin attempts -->\n| a | b |\n|---|---|\n| 1 | 2 |\n<!-- ej:end attempts -->\n";

} // namespace

TEST_CASE("regions are found with their content and lines")
{
  const auto regions = parse_regions(k_rendered);
  REQUIRE(regions.size() == 2);
  CHECK(regions[0].name == "summary");
  CHECK(regions[0].content == "new summary\n");
  CHECK(regions[0].begin_line == 3);
  CHECK(regions[0].end_line == 5);
  CHECK(regions[1].name == "attempts");
  CHECK(regions[1].content == "| a | b |\n|---|---|\n| 1 | 2 |\n");
  CHECK(k_rendered.substr(regions[1].content_begin, regions[1].content_end - regions[1].content_begin) ==
        regions[1].content);
}

TEST_CASE("an empty region and CRLF markers with trailing spaces are recognised")
{
  const auto regions = parse_regions("<!-- ej:begin a -->  \r\n<!-- ej:end a -->\r\n");
  REQUIRE(regions.size() == 1);
  CHECK(regions[0].content.empty());
}

TEST_CASE("markers inside code blocks are text, not markers")
{
  const std::string document = "```\n<!-- ej:begin shown -->\n```\n\n    <!-- ej:end indented -->\n\n"
                               "<!-- ej:begin real -->\nx\n<!-- ej:end real -->\n";
  const auto regions = parse_regions(document);
  REQUIRE(regions.size() == 1);
  CHECK(regions[0].name == "real");
}

TEST_CASE("fenced code is told as CommonMark tells it, in and out of lists and HTML blocks")
{
  const auto names = [](const std::string& document) {
    std::vector<std::string> out;
    for (const auto& region : parse_regions(document)) {
      out.push_back(region.name);
    }
    return out;
  };
  const std::string real = "<!-- ej:begin real -->\nx\n<!-- ej:end real -->\n";
  const std::vector<std::string> only_real = {"real"};
  // A shorter fence does not close a longer one; a tilde fence is closed by tildes only.
  CHECK(names("~~~~\n<!-- ej:begin a -->\n~~~\n```\n<!-- ej:end a -->\n~~~~~\n" + real) == only_real);
  // A closing fence may be indented up to 3 spaces and followed by spaces; 4 spaces is content.
  CHECK(names("```\n    ```\n<!-- ej:begin a -->\n   ```  \n" + real) == only_real);
  // A backtick in a backtick fence's info string makes it text.
  CHECK(names("``` a`b\n" + real) == only_real);
  // Fences in a list item or a block quote belong to it; one at column 0 after it is top-level.
  CHECK(names("- item\n\n  ```\n  <!-- ej:begin a -->\n  ```\n" + real + "  ```\n") == only_real);
  CHECK(names("> ```\n> x\n> ```\n" + real + "```\n<!-- ej:begin a -->\n").size() == 1);
  // A fence inside an HTML block is HTML.
  CHECK(names("<div>\n```\n</div>\n\n" + real) == only_real);
  // An unclosed fence runs to the end of the document.
  CHECK(names("```sh\n" + real).empty());
  CHECK(names(real + "<!-- a comment -->\n```\n<!-- ej:begin a -->\n").size() == 1);
}

TEST_CASE("malformed region markers are errors with the line number")
{
  CHECK(parse_error("a\n<!-- ej:begin x -->\nb\n") ==
        "journal/x.md, line 2: region 'x' is never ended; add <!-- ej:end x --> where it should end");
  CHECK_THAT(
      parse_error("<!-- ej:begin x -->\n<!-- ej:begin y -->\n<!-- ej:end y -->\n<!-- ej:end x -->\n"),
      Catch::StartsWith("journal/x.md, line 2: region 'y' begins inside region 'x' (begun on line 1)"));
  CHECK_THAT(parse_error("\n\n<!-- ej:end x -->\n"),
             Catch::StartsWith("journal/x.md, line 3: region 'x' ends but never began"));
  CHECK_THAT(parse_error("<!-- ej:begin x -->\n<!-- ej:end x -->\n<!-- ej:begin x -->\n<!-- ej:end x -->\n"),
             Catch::StartsWith("journal/x.md, line 3: region 'x' appears twice (first on line 1)"));
  CHECK_THAT(parse_error("<!-- ej:begin x -->\n<!-- ej:end y -->\n"),
             Catch::StartsWith("journal/x.md, line 2: end of region 'y' while region 'x' (line 1) is open"));
  CHECK_THAT(parse_error("ok\n<!-- ej:begin bad name -->\n"),
             Catch::StartsWith("journal/x.md, line 2: malformed ej marker"));
  CHECK_THAT(parse_error("<!-- ej:begin x-->\n"),
             Catch::StartsWith("journal/x.md, line 1: malformed ej marker"));
}

TEST_CASE("the first render writes the whole document and the hash of each region")
{
  const auto result = merge_document(std::nullopt, k_rendered, {}, false);
  CHECK(result.document ==
        "# Plan\n\n<!-- ej:begin summary -->\nnew summary\n" + end_of("summary", k_summary) +
            "\n\n## Attempts\n\n<!-- ej:begin attempts -->\n" + k_table + end_of("attempts", k_table) + "\n");
  CHECK(result.warnings.empty());
  REQUIRE(result.hashes.size() == 2);
  CHECK(result.hashes.at("summary") == ej::util::sha256_hex("new summary\n"));
}

TEST_CASE("a later render replaces only regions and keeps the author's text byte for byte")
{
  const std::string existing = "# My own title  \r\n\nIntro written by hand.\n\n"
                               "<!-- ej:begin summary -->\nold summary\n<!-- ej:end summary -->\n"
                               "Between, by hand.\n"
                               "<!-- ej:begin attempts -->\nold table\n<!-- ej:end attempts -->\n"
                               "Trailing notes, no final newline";
  const std::map<std::string, std::string> stored{{"summary", ej::util::sha256_hex("old summary\n")},
                                                  {"attempts", ej::util::sha256_hex("old table\n")}};
  const auto result = merge_document(existing, k_rendered, stored, false);
  CHECK(result.document == "# My own title  \r\n\nIntro written by hand.\n\n"
                           "<!-- ej:begin summary -->\nnew summary\n" +
                               end_of("summary", k_summary) +
                               "\n"
                               "Between, by hand.\n"
                               "<!-- ej:begin attempts -->\n| a | b |\n|---|---|\n| 1 | 2 |\n" +
                               end_of("attempts", k_table) +
                               "\n"
                               "Trailing notes, no final newline");
  CHECK(result.warnings.empty());
  CHECK(result.hashes.at("attempts") == ej::util::sha256_hex("| a | b |\n|---|---|\n| 1 | 2 |\n"));
  // Rendering again with the new hashes changes nothing: deterministic and idempotent.
  const auto again = merge_document(result.document, k_rendered, result.hashes, false);
  CHECK(again.document == result.document);
  CHECK(ej::render::document_up_to_date(result.document, k_rendered));
  CHECK_FALSE(ej::render::document_up_to_date(existing, k_rendered));
}

TEST_CASE("a region edited by hand is not overwritten without force, and the error names it")
{
  const std::string existing = "<!-- ej:begin summary -->\nI edited this\n<!-- ej:end summary -->\n";
  const std::map<std::string, std::string> stored{{"summary", ej::util::sha256_hex("what ej wrote\n")}};
  try {
    merge_document(existing, k_rendered, stored, false, "journal/x.md");
    FAIL("no error");
  } catch (const ej::Error& error) {
    CHECK_THAT(error.what(), Catch::StartsWith("journal/x.md: generated region 'summary' changed by hand"));
    CHECK_THAT(error.what(), Catch::Contains("--force"));
  }
  const auto forced = merge_document(existing, k_rendered, stored, true);
  CHECK_THAT(forced.document, Catch::StartsWith("<!-- ej:begin summary -->\nnew summary\n" +
                                                end_of("summary", k_summary) + "\n"));
  CHECK_THAT(forced.warnings.at(0), Catch::Contains("region 'summary' (line 1) had hand edits; overwritten"));
}

TEST_CASE("a region without a stored hash is filled when blank and protected when not")
{
  const std::string blank = "<!-- ej:begin summary -->\n\n<!-- ej:end summary -->\n";
  CHECK_THAT(merge_document(blank, k_rendered, {}, false).document, Catch::Contains("new summary"));
  const std::string written = "<!-- ej:begin summary -->\nsomething\n<!-- ej:end summary -->\n";
  CHECK_THROWS_AS(merge_document(written, k_rendered, {}, false), ej::Error);
  const std::string same = "<!-- ej:begin summary -->\nnew summary\n<!-- ej:end summary -->\n";
  CHECK_NOTHROW(merge_document(same, k_rendered, {}, false));
}

TEST_CASE("a region the template dropped is left alone and one it added is appended, with warnings")
{
  const std::string existing = "Intro\n<!-- ej:begin summary -->\nold\n<!-- ej:end summary -->\n"
                               "<!-- ej:begin retired -->\nkeep me\n<!-- ej:end retired -->\nEnd";
  const std::map<std::string, std::string> stored{{"summary", ej::util::sha256_hex("old\n")},
                                                  {"retired", "abc"}};
  const auto result = merge_document(existing, k_rendered, stored, false, "journal/x.md");
  CHECK(result.document == "Intro\n<!-- ej:begin summary -->\nnew summary\n" + end_of("summary", k_summary) +
                               "\n"
                               "<!-- ej:begin retired -->\nkeep me\n<!-- ej:end retired -->\nEnd\n"
                               "\n<!-- ej:begin attempts -->\n| a | b |\n|---|---|\n| 1 | 2 |\n" +
                               end_of("attempts", k_table) + "\n");
  REQUIRE(result.warnings.size() == 2);
  CHECK(result.warnings[0] ==
        "journal/x.md: region 'retired' (line 5) is no longer produced by the template; left as it is");
  CHECK_THAT(result.warnings[1],
             Catch::StartsWith("journal/x.md: region 'attempts' was not in the document; appended"));
  CHECK(result.hashes.at("retired") == "abc");
  CHECK(parse_regions(result.document).size() == 3);
}

TEST_CASE("malformed markers in the existing document stop the merge")
{
  CHECK_THROWS_WITH(
      merge_document(std::string_view("<!-- ej:begin summary -->\n"), k_rendered, {}, false, "journal/x.md"),
      Catch::StartsWith("journal/x.md, line 1: region 'summary' is never ended"));
  CHECK_THROWS_WITH(merge_document(std::nullopt, "<!-- ej:end a -->\n", {}, false),
                    Catch::StartsWith("the rendered template, line 1: region 'a' ends but never began"));
}

TEST_CASE("the hash in an end marker tells ej's text from an edit, whatever the stored hashes say")
{
  const auto written = merge_document(std::nullopt, k_rendered, {}, false).document;
  // Another clone: no stored hash, other content to write. The marker says the text is ej's.
  const std::string later = "<!-- ej:begin summary -->\nlater summary\n<!-- ej:end summary -->\n";
  const auto merged = merge_document(written, later, {}, false);
  CHECK_THAT(merged.document, Catch::Contains("later summary\n" + end_of("summary", "later summary\n")));
  // An edit inside the region no longer matches its marker's hash, stored hashes or not.
  auto edited = written;
  edited.replace(edited.find("new summary"), 3, "my");
  CHECK_THROWS_WITH(merge_document(edited, later, {{"summary", ej::util::sha256_hex("my summary\n")}}, false),
                    Catch::Contains("'summary' changed by hand"));
  // CRLF line endings (a Windows checkout) are not an edit.
  std::string crlf;
  for (const char c : written) {
    crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  }
  CHECK_NOTHROW(merge_document(crlf, later, {}, false));
  // A marker of an older ej, without a hash, still parses; the next render adds it.
  const auto old = parse_regions("<!-- ej:begin a -->\nx\n<!-- ej:end a -->\n");
  REQUIRE(old.size() == 1);
  CHECK_FALSE(old[0].hash);
  CHECK_THAT(parse_error("<!-- ej:begin a hash=0123456789abcdef -->\n<!-- ej:end a -->\n"),
             Catch::Contains("malformed ej marker"));
  CHECK_THAT(parse_error("<!-- ej:begin a -->\n<!-- ej:end a hash=xyz -->\n"),
             Catch::Contains("malformed ej marker"));
}
