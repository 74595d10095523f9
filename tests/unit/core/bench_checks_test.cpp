#include "core/bench_definition.h"
#include "util/error.h"

#include <catch2/catch.hpp>

using namespace ej::core;

TEST_CASE("the text of --same-output reads stdout, @FILE and a metric's name, and refuses an empty one")
{
  CHECK(parse_same_output("stdout") == SameOutput{SameOutput::Kind::Stdout, "", 0});
  CHECK(parse_same_output("@out/result.bin") == SameOutput{SameOutput::Kind::File, "out/result.bin", 0});
  CHECK(parse_same_output("checksum") == SameOutput{SameOutput::Kind::Metric, "checksum", 0});
  CHECK_THROWS_AS(parse_same_output(""), ej::UsageError);
  CHECK_THROWS_AS(parse_same_output("@"), ej::UsageError);
  CHECK(describe(SameOutput{SameOutput::Kind::Metric, "sum", 0.5}) == "sum within 0.5%");
  CHECK(describe(SameOutput{SameOutput::Kind::File, "a.bin", 0}) == "@a.bin");
}

TEST_CASE(
    "the text of --floor reads METRIC=VALUE with a finite number and refuses anything else with an example")
{
  CHECK(parse_floor("copy_ms=0.8") == MetricFloor{"copy_ms", 0.8});
  CHECK(parse_floor("tput=1e3") == MetricFloor{"tput", 1000});
  for (const auto* bad : {"copy_ms", "=1", "copy_ms=", "copy_ms=fast", "copy_ms=1x", "copy_ms=inf"}) {
    INFO(bad);
    CHECK_THROWS_WITH(parse_floor(bad), Catch::Contains("e.g. --floor copy_ms=0.8"));
  }
}

TEST_CASE("the checks go into a definition's JSON only when set, and come back as they went")
{
  BenchDefinition plain;
  plain.argv = {"true"};
  const auto json = to_json(plain);
  CHECK_FALSE(json.contains("check"));
  CHECK_FALSE(json.contains("check_every"));
  CHECK_FALSE(json.contains("same_output"));
  CHECK_FALSE(json.contains("floors"));

  BenchDefinition checked = plain;
  checked.check = "cmp a b";
  checked.check_every = 4;
  checked.same_output = {SameOutput::Kind::Metric, "sum", 0.25};
  checked.floors = {{"t", 0.5}, {"wall_s", 0.001}};
  const auto back = bench_definition_from_json(to_json(checked));
  CHECK(back.check == "cmp a b");
  CHECK(back.check_every == 4);
  CHECK(back.same_output == checked.same_output);
  CHECK(back.floors == checked.floors);
}

TEST_CASE("a stored same_output of an unknown kind is damage that names the option to repair it")
{
  auto json = to_json(BenchDefinition{});
  json["same_output"] = {{"kind", "hologram"}};
  std::vector<std::string> problems;
  const auto read = bench_definition_from_json(json, problems);
  CHECK(read.same_output.kind == SameOutput::Kind::None);
  REQUIRE(problems.size() == 1);
  CHECK_THAT(problems.front(), Catch::Contains("--same-output"));
}

TEST_CASE("printed times are checked unless a definition opts out, and only the opt-out is stored")
{
  BenchDefinition plain;
  plain.argv = {"true"};
  CHECK(plain.check_times);
  CHECK_FALSE(to_json(plain).contains("check_times"));
  CHECK(bench_definition_from_json(to_json(plain)).check_times);
  // Stored by an ej of before the default, with the option asked for or not: checked either way.
  auto asked = to_json(plain);
  asked["check_times"] = true;
  CHECK(bench_definition_from_json(asked).check_times);

  BenchDefinition summed = plain;
  summed.check_times = false;
  CHECK(to_json(summed)["check_times"] == false);
  CHECK_FALSE(bench_definition_from_json(to_json(summed)).check_times);
}
