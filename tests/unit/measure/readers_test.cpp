#include "measure/readers.h"

#include "support/temp_dir.h"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace ej::measure;

TEST_CASE("every reader in the table has a distinct name, a syntax, help and an example that parses")
{
  std::set<std::string> names;
  for (const auto& reader : readers()) {
    const auto name = to_string(reader.kind);
    CAPTURE(name);
    CHECK(names.insert(std::string(name)).second);
    CHECK(reader.syntax.starts_with(name));
    CHECK_FALSE(reader.help.empty());
    CHECK((reader.read == nullptr) != (reader.scanner == nullptr)); // one way to read, whole or scanned
    REQUIRE(reader.example.starts_with("--metric '"));
    const auto spec = reader.example.substr(10, reader.example.size() - 11);
    CHECK(parse_metric_spec(spec).kind == reader.kind);
    CHECK(&reader_for(reader.kind) == &reader);
    CHECK(find_reader(name) == &reader);
    CHECK(parse_extractor_kind(name) == reader.kind);
  }
  CHECK(names.size() == 14); // a row for every ExtractorKind
  CHECK(find_reader("csv") == nullptr);
}

TEST_CASE("the kinds stored by earlier ej versions are still read by their names")
{
  for (const auto* name : {"regex", "kv", "json", "nvbench", "gbench", "hyperfine"}) {
    CAPTURE(name);
    const auto kind = parse_extractor_kind(name);
    REQUIRE(kind);
    CHECK(to_string(*kind) == name);
  }
}

TEST_CASE("docs/benchmarks.md lists every reader of the table with its syntax and example line")
{
  const auto readme = std::filesystem::path(EJ_SOURCE_DIR) / "docs" / "benchmarks.md";
  REQUIRE(std::filesystem::is_regular_file(readme));
  const auto text = ej::test::read_text(readme);
  for (const auto& reader : readers()) {
    CAPTURE(to_string(reader.kind));
    std::string syntax(reader.syntax);
    for (std::size_t at = syntax.find('|'); at != std::string::npos; at = syntax.find('|', at + 2)) {
      syntax.insert(at, "\\"); // escaped in a markdown table
    }
    CHECK_THAT(text, Catch::Contains("| `" + syntax + "` |"));
    CHECK_THAT(text, Catch::Contains("`" + std::string(reader.example) + "`"));
  }
}
