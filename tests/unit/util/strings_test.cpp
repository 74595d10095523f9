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

TEST_CASE("split_views gives split's fields as views into the text")
{
  const std::string text = "a,,b,";
  const auto views = split_views(text, ',');
  CHECK(views == std::vector<std::string_view>{"a", "", "b", ""});
  CHECK(views.front().data() == text.data());
}

TEST_CASE("double_quoted wraps text in quotes and doubles the quotes inside")
{
  CHECK(double_quoted("a \"b\"") == "\"a \"\"b\"\"\"");
  CHECK(double_quoted("") == "\"\"");
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

TEST_CASE("control characters are made visible, newlines, tabs and CRLF kept")
{
  CHECK(ej::util::visible_controls("a\x1b[31mb\x07") == "a\xe2\x90\x9b[31mb\xe2\x90\x87");
  CHECK(ej::util::visible_controls("x\ry\r\nz\tw\n") == "x\xe2\x90\x8dy\r\nz\tw\n");
  CHECK(ej::util::visible_controls("x\ry", true) == "x\ry");
  CHECK(ej::util::visible_controls(std::string("nul\0del\x7f", 8)) == "nul\xe2\x90\x80"
                                                                      "del\xe2\x90\xa1");
  CHECK(ej::util::visible_controls("csi \xc2\x9b, degree \xc2\xb0") == "csi \\u009b, degree \xc2\xb0");
}
