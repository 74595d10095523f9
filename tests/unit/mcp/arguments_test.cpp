#include "mcp/schema.h"
#include "mcp/tool.h"
#include "util/error.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace ej::mcp;
using nlohmann::json;

namespace {

json log_schema()
{
  using namespace schema;
  return arguments({{"plan", string("only this plan")},
                    {"limit", integer("at most this many")},
                    {"id", either({"string", "integer"}, "an attempt")},
                    {"tags", array(string())},
                    {"all", boolean()}},
                   {"id"});
}

} // namespace

TEST_CASE("a tool's arguments are read as its input schema says")
{
  const Arguments args("log", log_schema(), {{"id", 12}, {"limit", 5}, {"tags", {"a", "b"}}, {"all", true}});
  CHECK(args.name_of("id") == "12");
  CHECK(args.integer("limit") == 5);
  CHECK(args.texts("tags") == std::vector<std::string>{"a", "b"});
  CHECK(args.flag("all"));
  CHECK_FALSE(args.has("plan"));
  CHECK(args.text("plan", "p") == "p");
  CHECK(Arguments("log", log_schema(), {{"id", "#12"}}).name_of("id") == "#12");
}

TEST_CASE("an argument the tool does not have, of another type, or missing is a usage error naming it")
{
  CHECK_THROWS_WITH(Arguments("log", log_schema(), {{"id", 1}, {"plans", "p"}}),
                    Catch::Contains("log has no argument 'plans'; did you mean 'plan'?"));
  CHECK_THROWS_WITH(Arguments("log", log_schema(), {{"id", 1}, {"limit", "many"}}),
                    Catch::Contains("the argument 'limit' of log takes integer, not string"));
  CHECK_THROWS_WITH(Arguments("log", log_schema(), {{"id", 1}, {"tags", {1}}}),
                    Catch::Contains("takes an array of strings"));
  CHECK_THROWS_WITH(Arguments("log", log_schema(), json::object()),
                    Catch::Contains("log needs the argument 'id' (an attempt)"));
  CHECK_THROWS_AS(Arguments("log", log_schema(), json::array()), ej::UsageError);
}

TEST_CASE("every tool's schemas are objects, and its required arguments are among its properties")
{
  CHECK(all_tools().size() == 17);
  for (const auto& tool : all_tools()) {
    INFO(tool.name);
    CHECK(tool.input_schema["type"] == "object");
    CHECK(tool.output_schema["type"] == "object");
    for (const auto& name : tool.input_schema["required"]) {
      CHECK(tool.input_schema["properties"].contains(name.get<std::string>()));
    }
    CHECK(find_tool(tool.name) == &tool);
  }
  CHECK(find_tool("nope") == nullptr);
}

TEST_CASE("run takes the options of an interleaved session, calibrate its own, and both answer alike")
{
  const auto* run = find_tool("run");
  const auto* calibrate = find_tool("calibrate");
  REQUIRE(run);
  REQUIRE(calibrate);
  for (const char* name : {"against", "until_decisive", "max_rounds", "budget", "block", "seed"}) {
    INFO(name);
    CHECK(run->input_schema["properties"].contains(name));
  }
  CHECK(run->input_schema["additionalProperties"] == false);
  std::vector<std::string> names;
  for (const auto& [name, _] : calibrate->input_schema["properties"].items()) {
    names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"bench", "block", "gpus", "rounds", "seed"});
  CHECK(calibrate->input_schema["required"] == json::array({"bench"}));
  CHECK(calibrate->input_schema["additionalProperties"] == false);
  CHECK(calibrate->output_schema["required"] == run->output_schema["required"]);
  CHECK_FALSE(calibrate->read_only); // it measures and records
  // An agent gives a seed as ej prints it, a string of up to 20 digits, or as a small integer.
  CHECK(Arguments("calibrate", calibrate->input_schema, {{"bench", "b"}, {"seed", "18446744073709551615"}})
            .name_of("seed") == "18446744073709551615");
  CHECK(Arguments("calibrate", calibrate->input_schema, {{"bench", "b"}, {"seed", 7}}).name_of("seed") ==
        "7");
}
