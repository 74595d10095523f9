// Item 2 of issue 13: the current plan (ej plan use), and the only plan as the default.
#include "support/ej_repo.h"

#include <catch2/catch.hpp>

using namespace ej::test;

TEST_CASE("with a single plan, commands that take a plan use it and say so")
{
  EjRepo repo;
  repo.ok({"plan", "new", "only", "--title", "Only"});
  const auto attempt = repo.ej({"try", "first"});
  CHECK(attempt.exit_code == 0);
  CHECK(attempt.out == "#1\n");
  CHECK(attempt.err == "ej: plan only (the only plan)\n");
  CHECK_THAT(repo.ok({"plan", "show"}), Catch::Contains("only Only") && Catch::Contains("first"));
  CHECK_THAT(repo.ok({"plan", "render", "--stdout"}), Catch::Contains("first"));
}

TEST_CASE("ej plan use chooses the plan commands use when --plan is omitted, in this clone only")
{
  EjRepo repo;
  repo.ok({"plan", "new", "alpha", "--title", "Alpha"});
  repo.ok({"plan", "new", "beta", "--title", "Beta"});
  repo.ok({"try", "in alpha", "--plan", "alpha"});

  const auto which = repo.ej({"try", "where?"});
  CHECK(which.exit_code == 2);
  CHECK_THAT(which.err, Catch::Contains("which plan? the journal has 2 (alpha, beta)") &&
                            Catch::Contains("ej plan use SLUG"));
  CHECK(repo.ok({"plan", "use"}) == "no current plan; choose one with: ej plan use SLUG\n");

  const auto events_before = repo.ok({"export", "--no-blobs"});
  CHECK_THAT(repo.ok({"plan", "use", "beta"}), Catch::StartsWith("current plan: beta"));
  CHECK(repo.ok({"export", "--no-blobs"}) == events_before); // a local setting, not a shared event
  CHECK(repo.ok({"plan", "use"}) == "beta\n");
  CHECK_THAT(repo.ok({"plan", "list"}), Catch::Contains("Beta  (current)"));

  const auto attempt = repo.ej({"try", "in beta"});
  CHECK(attempt.exit_code == 0);
  CHECK(attempt.out == "#2\n");
  CHECK(attempt.err == "ej: plan beta (the current plan; change it with 'ej plan use SLUG')\n");

  const auto log = repo.ej({"log"});
  CHECK(log.exit_code == 0);
  CHECK_THAT(log.out, Catch::Contains("in beta") && !Catch::Contains("in alpha"));
  CHECK(log.err == "ej: plan beta (the current plan; --all-plans for every plan)\n");
  const auto all = repo.ej({"log", "--all-plans"});
  CHECK_THAT(all.out, Catch::Contains("in beta") && Catch::Contains("in alpha"));
  CHECK(all.err.empty());
  CHECK_THAT(repo.ok({"log", "--plan", "alpha"}), Catch::Contains("in alpha") && !Catch::Contains("in beta"));
  CHECK_THAT(repo.ok({"plan", "baseline"}), Catch::Contains("plan beta has no baseline"));

  const auto nope = repo.ej({"plan", "use", "gamma"});
  CHECK(nope.exit_code == 1);
  CHECK(nope.err == "ej: error: no plan named 'gamma'; see 'ej plan list'\n");
  CHECK(repo.ok({"plan", "use"}) == "beta\n");

  repo.ok({"plan", "use", "--clear"});
  CHECK(repo.ej({"try", "again"}).exit_code == 2);
}
