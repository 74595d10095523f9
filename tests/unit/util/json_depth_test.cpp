#include "util/json_depth.h"

#include <catch2/catch.hpp>

#include <string>

using ej::util::json_nesting_depth;

TEST_CASE("the nesting depth of JSON text counts brackets outside strings only")
{
  CHECK(json_nesting_depth("1", 64) == 0);
  CHECK(json_nesting_depth(R"({"a": [1, {"b": []}]})", 64) == 4);
  CHECK(json_nesting_depth(R"({"a": "[[[{{{", "b": "\"[["})", 64) == 1);
  CHECK(json_nesting_depth(R"([[], [], [[]]])", 64) == 3);
}

TEST_CASE("the nesting depth stops counting past its limit, however deep the text goes")
{
  const std::string deep = std::string(1000000, '[') + std::string(1000000, ']');
  CHECK(json_nesting_depth(deep, 64) == 65);
  CHECK(json_nesting_depth(std::string(10, '{'), 64) == 10); // unclosed: measured as far as it goes
}
