// What a journal shared through git keeps and gives away (issue 26): an export of a plan.
#include "support/ej_repo.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace ej::test;
using nlohmann::json;

TEST_CASE("ej export --plan of a plan whose baseline runs have no attempt, or another plan's, imports")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"plan", "new", "q", "--title", "Another plan"});
  repo.ok({"bench", "add", "b", "--repeat", "2", "--metric", "x=regex:x=([0-9.]+)", "--shell", "echo x=1.5"});
  repo.ok({"run", "b", "--quiet"}); // run #1: no attempt
  repo.ok({"plan", "baseline", "p", "--run", "1"});
  repo.ok({"try", "in q", "--plan", "q"});
  repo.ok({"run", "b", "--attempt", "1", "--quiet"}); // run #2: another plan's attempt
  repo.ok({"plan", "baseline", "p", "--run", "2", "--reason", "measured for q"});
  repo.ok({"try", "in p", "--plan", "p"});
  repo.ok({"run", "b", "--attempt", "2", "--quiet"});
  const auto file = repo.path() / "p.jsonl";
  repo.ok({"export", "--plan", "p", "-o", file.string()});

  EjRepo other;
  const auto imported = other.ej({"import", file.string()});
  INFO(imported.out << imported.err);
  REQUIRE(imported.exit_code == 0);
  const auto baselines = json::parse(other.ok({"plan", "baseline", "p", "--json"}));
  REQUIRE(baselines.size() == 2);
  CHECK(baselines[1]["reason"] == "measured for q");
  CHECK(json::parse(other.ok({"log", "--plan", "p", "--json"})).size() == 1);
  CHECK_THAT(other.ok({"fsck", "--full"}), Catch::Contains("is ok"));
  CHECK(other.ok({"plan", "baseline", "p"}) == repo.ok({"plan", "baseline", "p"}));
}
