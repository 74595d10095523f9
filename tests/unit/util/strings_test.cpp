#include "util/strings.h"

#include <catch2/catch.hpp>

using namespace ej::util;

TEST_CASE("trim removes surrounding white space only")
{
  CHECK(trim("  a b \n") == "a b");
  CHECK(trim("") == "");
}

TEST_CASE("split keeps empty fields")
{
  CHECK(split("a,,b", ',') == std::vector<std::string>{"a", "", "b"});
}

TEST_CASE("invalid UTF-8 is detected and replaced, valid text is kept")
{
  CHECK(is_valid_utf8("caf\xC3\xA9"));
  CHECK_FALSE(is_valid_utf8("bad \xFF byte"));
  CHECK_FALSE(is_valid_utf8("overlong \xC0\xAF"));
  CHECK(sanitize_utf8("a\xFF" "b") == "a\xEF\xBF\xBD" "b");
}

TEST_CASE("first_line cuts on a character boundary")
{
  CHECK(first_line("one\ntwo", 10) == "one");
  CHECK(first_line("\xC3\xA9\xC3\xA9\xC3\xA9", 3) == "\xC3\xA9...");
}
