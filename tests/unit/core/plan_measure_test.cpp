#include "core/plan_measure.h"

#include "util/error.h"

#include <catch2/catch.hpp>

using namespace ej::core;

TEST_CASE("A measure names a benchmark, optionally its metric and a headline combination")
{
  const auto full = parse_plan_measure("serve:tok_s@concurrency=1");
  CHECK(full.bench == "serve");
  CHECK(full.metric == "tok_s");
  CHECK(full.headline == ParamValues{{"concurrency", "1"}});
  CHECK(to_string(full) == "serve:tok_s@concurrency=1");
  CHECK(to_string(parse_plan_measure("verify")) == "verify");
  CHECK(parse_plan_measure("verify").metric.empty());
  CHECK(to_string(parse_plan_measure("serve@concurrency=1,input=1024")) == "serve@concurrency=1,input=1024");
  CHECK(to_string(parse_plan_measure(" serve:gpu.0.mem_gb ")) == "serve:gpu.0.mem_gb");
}

TEST_CASE("A measure that does not parse is refused with an example")
{
  for (const auto* text : {"", ":tok_s", "serve:", "serve:tok s", "serve@", "serve@concurrency",
                           "Serve:tok_s", "serve@a=1,a=2"}) {
    INFO(text);
    CHECK_THROWS_AS(parse_plan_measure(text), ej::UsageError);
  }
  try {
    parse_plan_measure("serve:");
  } catch (const ej::UsageError& error) {
    CHECK_THAT(error.what(), Catch::Contains("e.g. 'serve:tok_s@concurrency=1'"));
  }
}

TEST_CASE("A headline combination parses into axis values")
{
  CHECK(parse_combination("concurrency=1", "--headline") == ParamValues{{"concurrency", "1"}});
  CHECK(parse_combination(" a = 1 , b=x ", "--headline") == ParamValues{{"a", "1"}, {"b", "x"}});
  CHECK(parse_combination("", "--headline").empty());
  CHECK_THROWS_AS(parse_combination("concurrency", "--headline"), ej::UsageError);
  CHECK_THROWS_AS(parse_combination("=1", "--headline"), ej::UsageError);
}
