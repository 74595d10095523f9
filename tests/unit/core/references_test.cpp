#include "core/references.h"
#include "util/error.h"

#include <catch2/catch.hpp>

using ej::core::parse_reference;
using ej::core::Reference;
using ej::core::run_reference;

TEST_CASE("a compared side is a run or an attempt, read with the run prefixes every command knows")
{
  for (const char* text : {"r5", "run5", "run:5"}) {
    INFO(text);
    const Reference side = parse_reference(text);
    CHECK(side.kind == Reference::Kind::Run);
    CHECK(side.number == 5);
    CHECK(side.selector.empty());
    CHECK(run_reference(text) == 5);
  }
  for (const char* text : {"12", "#12", "a12"}) {
    INFO(text);
    const Reference side = parse_reference(text);
    CHECK(side.kind == Reference::Kind::Attempt);
    CHECK(side.number == 12);
  }
}

TEST_CASE("a compared side may end in the combinations it takes")
{
  const Reference run = parse_reference("run:5:variant=naive,size=4096");
  CHECK(run.kind == Reference::Kind::Run);
  CHECK(run.number == 5);
  CHECK(run.selector == ej::core::ParamValues{{"size", "4096"}, {"variant", "naive"}});
  const Reference attempt = parse_reference("#12:variant=blocked");
  CHECK(attempt.kind == Reference::Kind::Attempt);
  CHECK(attempt.number == 12);
  CHECK(attempt.selector.at("variant") == "blocked");
}

TEST_CASE("a compared side that names nothing, or a selector without AXIS=VALUE, is a usage error")
{
  CHECK_THROWS_WITH(parse_reference("r5:variant"),
                    "'r5:variant': 'variant' is not AXIS=VALUE; write e.g. r5:variant=naive");
  CHECK_THROWS_WITH(parse_reference("best"),
                    "'best' names neither a run (r5, run:5, r5:AXIS=V) nor an attempt (12, #12)");
  CHECK_THROWS_AS(parse_reference("r0"), ej::UsageError);
}
