#include "core/target.h"

#include "util/error.h"

#include <catch2/catch.hpp>

#include <limits>

using namespace ej::core;

TEST_CASE("A target with spaces parses into metric, comparator and value")
{
  const auto target = parse_target("verify_ms < 15");
  CHECK(target.metric == "verify_ms");
  CHECK(target.comparator == Comparator::Less);
  CHECK(target.value == 15.0);
  CHECK(to_string(target) == "verify_ms < 15");
}

TEST_CASE("Targets without spaces, with decimals and exponents parse and print normalised")
{
  CHECK(to_string(parse_target("tok_s > 89.5")) == "tok_s > 89.5");
  CHECK(to_string(parse_target("x<=3")) == "x <= 3");
  CHECK(to_string(parse_target("x >= 1e3")) == "x >= 1000");
  CHECK(to_string(parse_target("  gpu.0.mem_gb\t<  -2.50  ")) == "gpu.0.mem_gb < -2.5");
  CHECK(to_string(parse_target("_a>=-0")) == "_a >= 0");
  CHECK(parse_target("x >= 1e3").comparator == Comparator::GreaterEqual);
  CHECK(parse_target("x<=3").comparator == Comparator::LessEqual);
  CHECK(parse_target("tok_s > 89.5").comparator == Comparator::Greater);
}

TEST_CASE("meets compares a value with the target's bound, boundary included only for <= and >=")
{
  CHECK(meets(parse_target("verify_ms < 15"), 14.9));
  CHECK_FALSE(meets(parse_target("verify_ms < 15"), 15.0));
  CHECK(meets(parse_target("verify_ms <= 15"), 15.0));
  CHECK_FALSE(meets(parse_target("verify_ms <= 15"), 15.1));
  CHECK(meets(parse_target("tok_s > 89.5"), 92.6));
  CHECK_FALSE(meets(parse_target("tok_s > 89.5"), 89.5));
  CHECK(meets(parse_target("tok_s >= 89.5"), 89.5));
  CHECK_FALSE(meets(parse_target("tok_s >= 89.5"), 54.1));
}

TEST_CASE("A NaN measurement never meets a target")
{
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK_FALSE(meets(parse_target("x < 1"), nan));
  CHECK_FALSE(meets(parse_target("x >= 1"), nan));
}

TEST_CASE("Targets that do not parse are usage errors that say why")
{
  CHECK_THROWS_WITH(parse_target(""), Catch::Contains("it is empty"));
  CHECK_THROWS_WITH(parse_target("   "), Catch::Contains("it is empty"));
  CHECK_THROWS_WITH(parse_target("15 > x"), Catch::Contains("must start with a letter"));
  CHECK_THROWS_WITH(parse_target("verify_ms"), Catch::Contains("operator is missing"));
  CHECK_THROWS_WITH(parse_target("verify-ms < 15"), Catch::Contains("only letters, digits"));
  CHECK_THROWS_WITH(parse_target("x == 3"), Catch::Contains("'==' is not a supported operator"));
  CHECK_THROWS_WITH(parse_target("x => 3"), Catch::Contains("'=>' is not a supported operator"));
  CHECK_THROWS_WITH(parse_target("x <"), Catch::Contains("the number is missing"));
  CHECK_THROWS_WITH(parse_target("x < 15 ms"), Catch::Contains("'15 ms' is not a number"));
  CHECK_THROWS_WITH(parse_target("x < +3"), Catch::Contains("'+3' is not a number"));
  CHECK_THROWS_WITH(parse_target("x < 0x10"), Catch::Contains("is not a number"));
  CHECK_THROWS_WITH(parse_target("x < inf"), Catch::Contains("'inf' is not a finite number"));
  CHECK_THROWS_WITH(parse_target("x < nan"), Catch::Contains("not a finite number"));
  CHECK_THROWS_WITH(parse_target("x < 1e999"), Catch::Contains("out of the range"));
  CHECK_THROWS_AS(parse_target("x < 1 < 2"), ej::UsageError);
}

TEST_CASE("The usage error quotes the target and shows an example")
{
  CHECK_THROWS_WITH(parse_target("x ! 3"),
                    Catch::Contains("invalid target 'x ! 3'") && Catch::Contains("e.g. 'verify_ms < 15'"));
}

TEST_CASE("Comparators print as their symbols")
{
  CHECK(to_string(Comparator::Less) == "<");
  CHECK(to_string(Comparator::LessEqual) == "<=");
  CHECK(to_string(Comparator::Greater) == ">");
  CHECK(to_string(Comparator::GreaterEqual) == ">=");
}

TEST_CASE("A target may name the benchmark that measures its metric")
{
  const auto target = parse_target("verify:verify_ms < 15");
  CHECK(target.bench == "verify");
  CHECK(target.metric == "verify_ms");
  CHECK(to_string(target) == "verify_ms < 15");
  CHECK(qualified(target) == "verify:verify_ms < 15");
  CHECK(qualified(parse_target(" bench-serving : tok_s>=89.5")) == "bench-serving:tok_s >= 89.5");
  CHECK(parse_target("verify_ms < 15").bench.empty());
  CHECK(qualified(parse_target("verify_ms < 15")) == "verify_ms < 15");
  CHECK_THROWS_AS(parse_target(":verify_ms < 15"), ej::UsageError);
  CHECK_THROWS_AS(parse_target("Verify:verify_ms < 15"), ej::UsageError); // benchmark names are slugs
}
