#include "core/param_range.h"
#include "util/error.h"

#include <catch2/catch.hpp>

using ej::core::expand_param_values;
using ej::core::expand_range;
using Values = std::vector<std::string>;

TEST_CASE("a range includes both ends, as hyperfine's --parameter-scan does")
{
  CHECK(expand_range("1024..4096:1024") == Values{"1024", "2048", "3072", "4096"});
  CHECK(expand_range("1..3") == Values{"1", "2", "3"});
  CHECK(expand_range("5..5") == Values{"5"});
  CHECK(expand_range("-2..2:2") == Values{"-2", "0", "2"});
  // A step that does not land on the end stops before it.
  CHECK(expand_range("0..10:4") == Values{"0", "4", "8"});
}

TEST_CASE("a decimal range is exact and written with the decimals of its ends and step")
{
  CHECK(expand_range("0.1..0.5:0.1") == Values{"0.1", "0.2", "0.3", "0.4", "0.5"});
  CHECK(expand_range("0..1:0.25") == Values{"0.00", "0.25", "0.50", "0.75", "1.00"});
  CHECK(expand_range("-0.5..0.5:0.5") == Values{"-0.5", "0.0", "0.5"});
}

TEST_CASE("a malformed range is a usage error that shows how to write one")
{
  CHECK_THROWS_MATCHES(expand_range("1..x"), ej::UsageError,
                       Catch::Matchers::Message("'1..x' is not a range; write MIN..MAX or MIN..MAX:STEP with "
                                                "numbers, e.g. 1024..4096:1024"));
  CHECK_THROWS_AS(expand_range("1..4:"), ej::UsageError);
  CHECK_THROWS_AS(expand_range("1.5."), ej::UsageError);
  CHECK_THROWS_AS(expand_range(""), ej::UsageError);
  CHECK_THROWS_WITH(expand_range("4096..1024:1024"),
                    "the range '4096..1024:1024' is empty: its start is above its end");
  CHECK_THROWS_WITH(expand_range("1..4:0"), "the range '1..4:0' needs a positive step");
  CHECK_THROWS_WITH(expand_range("1..4:-1"), "the range '1..4:-1' needs a positive step");
  CHECK_THROWS_WITH(expand_range("0..1000000"),
                    "the range '0..1000000' has more than 10000 values; use a larger step");
}

TEST_CASE("a value list expands its ranges in place and keeps other items as they are")
{
  CHECK(expand_param_values("8,16,1024..3072:1024") == Values{"8", "16", "1024", "2048", "3072"});
  CHECK(expand_param_values("naive,blocked") == Values{"naive", "blocked"});
  CHECK(expand_param_values("../build,./x") == Values{"../build", "./x"});
  CHECK_THROWS_AS(expand_param_values("1..2..3"), ej::UsageError);
}
