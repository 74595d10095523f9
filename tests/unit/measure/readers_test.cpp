#include "measure/readers.h"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace ej::measure;

TEST_CASE("every reader in the table has a distinct name, a syntax, help and an example that parses")
{
  std::set<std::string> names;
  for (const auto& reader : readers()) {
    CAPTURE(reader.name);
    CHECK(names.insert(std::string(reader.name)).second);
    CHECK(reader.syntax.starts_with(reader.name));
    CHECK_FALSE(reader.help.empty());
    CHECK(reader.read != nullptr);
    REQUIRE(reader.example.starts_with("--metric '"));
    const auto spec = reader.example.substr(10, reader.example.size() - 11);
    CHECK(parse_metric_spec(spec).kind == reader.kind);
    CHECK(&reader_for(reader.kind) == &reader);
    CHECK(find_reader(reader.name) == &reader);
  }
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
