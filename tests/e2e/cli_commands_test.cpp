// Item 1 of issue 13: what a user sees for a mistyped command, option or filter.
#include "support/ej_repo.h"

#include <catch2/catch.hpp>

#include <regex>

using namespace ej::test;

TEST_CASE("a mistyped command is answered with the command meant, exit 2")
{
  TempDir dir;
  const auto lgo = run_ej(dir.path(), {"lgo"});
  CHECK(lgo.exit_code == 2);
  CHECK(lgo.err == "ej: unknown command 'lgo'; did you mean 'log'?\n");
  CHECK(lgo.out.empty());

  const auto hlep = run_ej(dir.path(), {"hlep"});
  CHECK(hlep.exit_code == 2);
  CHECK(hlep.err == "ej: unknown command 'hlep'; did you mean 'help'?\n");

  const auto nothing_close = run_ej(dir.path(), {"xyzzy"});
  CHECK(nothing_close.exit_code == 2);
  CHECK(nothing_close.err == "ej: unknown command 'xyzzy'; see 'ej help' for the commands\n");
}

TEST_CASE("a mistyped subcommand names its group and what the group has, exit 2")
{
  TempDir dir;
  const auto foo = run_ej(dir.path(), {"plan", "foo"});
  CHECK(foo.exit_code == 2);
  CHECK(foo.err ==
        "ej: unknown command 'plan foo'; the plan commands are: new, edit, list, show, baseline, use, "
        "render\n");

  const auto shwo = run_ej(dir.path(), {"plan", "shwo"});
  CHECK(shwo.exit_code == 2);
  CHECK(shwo.err == "ej: unknown command 'plan shwo'; did you mean 'plan show'?\n");

  const auto bare = run_ej(dir.path(), {"plan"});
  CHECK(bare.exit_code == 2);
  CHECK_THAT(bare.err, Catch::StartsWith("ej: 'ej plan' needs a command: new, edit, list, show") &&
                           Catch::Contains("see 'ej help plan'"));
}

TEST_CASE("a mistyped option is answered with the option meant, for the command it was given to")
{
  TempDir dir;
  const auto plna = run_ej(dir.path(), {"log", "--plna", "x"});
  CHECK(plna.exit_code == 2);
  CHECK(plna.err == "ej: unknown option '--plna' for 'ej log'; did you mean '--plan'?\n");

  const auto with_value = run_ej(dir.path(), {"runs", "--bnech=x"});
  CHECK(with_value.exit_code == 2);
  CHECK(with_value.err == "ej: unknown option '--bnech' for 'ej runs'; did you mean '--bench'?\n");

  const auto top = run_ej(dir.path(), {"--hlep"});
  CHECK(top.exit_code == 2);
  CHECK(top.err == "ej: unknown option '--hlep' for 'ej'; did you mean '--help'?\n");
}

TEST_CASE("a command missing its argument says what it needs, with the command's examples")
{
  TempDir dir;
  const auto show = run_ej(dir.path(), {"show"});
  CHECK(show.exit_code == 2);
  CHECK_THAT(show.err, Catch::StartsWith("ej: 'ej show' needs WHAT (Attempt number, or: run N)") &&
                           Catch::Contains("for example:\n  ej show 12 --diff\n  ej show run 5 --output"));

  const auto none = run_ej(dir.path(), {});
  CHECK(none.exit_code == 2);
  CHECK_THAT(none.err, Catch::Contains("Subcommands:") && Catch::Contains("plan"));
}

TEST_CASE("ej help shows the help of ej or of any command, and names an unknown one")
{
  TempDir dir;
  const auto top = run_ej(dir.path(), {"help"});
  CHECK(top.exit_code == 0);
  CHECK_THAT(top.out, Catch::Contains("Subcommands:") && Catch::Contains("completion") &&
                          Catch::Contains("--no-pager") && Catch::Contains("Examples:"));

  const auto use = run_ej(dir.path(), {"help", "plan", "use"});
  CHECK(use.exit_code == 0);
  CHECK_THAT(use.out, Catch::Contains("Usage: ej plan use") &&
                          Catch::Contains("Examples:\n  ej plan use eagle-fast-verify"));
  CHECK(use.out == run_ej(dir.path(), {"plan", "use", "--help"}).out);

  const auto unknown = run_ej(dir.path(), {"help", "plan", "nope"});
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.err, Catch::StartsWith("ej: unknown command 'plan nope'; the plan commands are: new,"));
}

TEST_CASE("every --help shows examples and the defaults of options")
{
  TempDir dir;
  const auto search = run_ej(dir.path(), {"search", "--help"});
  CHECK(search.exit_code == 0);
  CHECK_THAT(search.out,
             Catch::Contains("(default 20)") && Catch::Contains("Examples:\n  ej search allreduce"));
  const auto color = run_ej(dir.path(), {"--help"});
  CHECK_THAT(color.out, Catch::Contains("--color") && Catch::Contains("(default: auto)"));
}

TEST_CASE("ej -V and --version print the version and the commit, cheaply and anywhere")
{
  TempDir dir; // not a git repository: --version opens no journal
  const auto v = run_ej(dir.path(), {"-V"});
  CHECK(v.exit_code == 0);
  CHECK(std::regex_match(v.out, std::regex(R"(ej \d+\.\d+\.\d+ \(commit [0-9a-f]{12}[^)]*\)\n)")));
  CHECK(run_ej(dir.path(), {"--version"}).out == v.out);
  CHECK(std::filesystem::is_empty(dir.path()));
  // The commit the binary was built from (the source tree may have moved on since): one of its commits.
  const auto at = v.out.find("(commit ");
  REQUIRE(at != std::string::npos);
  const auto commit = v.out.substr(at + 8, 12);
  const auto known = run_command({"git", "-C", EJ_SOURCE_DIR, "cat-file", "-e", commit + "^{commit}"});
  CHECK(known.exit_code == 0);
}

TEST_CASE("a filter naming a plan, benchmark, attempt or run that does not exist is an error naming it")
{
  EjRepo repo;
  repo.ok({"plan", "new", "eagle-fast-verify", "--title", "E"});
  repo.ok({"bench", "add", "decode", "--repeat", "1", "--shell", "true"});

  const auto plan = repo.ej({"log", "--plan", "nope"});
  CHECK(plan.exit_code == 1);
  CHECK(plan.err == "ej: error: no plan named 'nope'; see 'ej plan list'\n");
  const auto close_plan = repo.ej({"log", "--plan", "eagle-fast-verfy"});
  CHECK(close_plan.exit_code == 1);
  CHECK(close_plan.err == "ej: error: no plan named 'eagle-fast-verfy'; did you mean 'eagle-fast-verify'?\n");

  const auto bench = repo.ej({"runs", "--bench", "nope"});
  CHECK(bench.exit_code == 1);
  CHECK(bench.err == "ej: error: no benchmark named 'nope'; see 'ej bench list'\n");
  CHECK(repo.ej({"runs", "--bench", "decod"}).err ==
        "ej: error: no benchmark named 'decod'; did you mean 'decode'?\n");
  CHECK(repo.ej({"compare", "r1", "--bench", "nope"}).exit_code == 1);

  const auto attempt = repo.ej({"runs", "--attempt", "99"});
  CHECK(attempt.exit_code == 1);
  CHECK(attempt.err == "ej: error: there is no attempt #99; see 'ej log' for the attempts\n");

  const auto run = repo.ej({"show", "run", "99"});
  CHECK(run.exit_code == 1);
  CHECK_THAT(run.err, Catch::StartsWith("ej: error: there is no run #99"));

  const auto exported = repo.ej({"export", "--plan", "nope"});
  CHECK(exported.exit_code == 1);
  CHECK_THAT(exported.err, Catch::Contains("no plan named 'nope'"));

  // What does exist still lists as before.
  CHECK_THAT(repo.ok({"runs", "--bench", "decode"}), Catch::Contains("no runs yet"));
}

TEST_CASE("a tag no attempt has is an error naming the closest tag, and a mistyped status gets a suggestion")
{
  EjRepo repo;
  repo.ok({"plan", "new", "p", "--title", "P"});
  CHECK(repo.ej({"log", "--tag", "nccl"}).err ==
        "ej: error: no attempt is tagged 'nccl'; no attempt has a tag yet (ej try ... --tag NAME)\n");
  repo.ok({"try", "tree algorithm", "--plan", "p", "--tag", "nccl"});
  const auto nope = repo.ej({"log", "--tag", "nope"});
  CHECK(nope.exit_code == 1);
  CHECK(nope.err == "ej: error: no attempt is tagged 'nope'; the tags are: nccl\n");
  CHECK(repo.ej({"log", "--tag", "ncl"}).err ==
        "ej: error: no attempt is tagged 'ncl'; did you mean 'nccl'?\n");
  CHECK_THAT(repo.ok({"log", "--tag", "nccl"}), Catch::Contains("tree algorithm"));
  // A tag that exists but matches nothing under the other filters is an empty listing, not an error.
  CHECK_THAT(repo.ok({"log", "--tag", "nccl", "--status", "blocked"}), Catch::Contains("no attempts match"));

  const auto blockd = repo.ej({"log", "--status", "blockd"});
  CHECK(blockd.exit_code == 2);
  CHECK_THAT(blockd.err, Catch::Contains("'blockd' is not a status; did you mean 'blocked'?"));
  const auto status = repo.ej({"status", "1", "rejeted", "--reason", "x"});
  CHECK(status.exit_code == 2);
  CHECK_THAT(status.err, Catch::Contains("did you mean 'rejected'?"));
}

TEST_CASE("control characters in what the user typed are shown, never sent to the terminal")
{
  TempDir dir;
  const auto command = run_ej(dir.path(), {"\x1b[2Jlgo"});
  CHECK(command.exit_code == 2);
  CHECK(command.err.find('\x1b') == std::string::npos);
  CHECK_THAT(command.err, Catch::Contains("\xe2\x90\x9b[2Jlgo")); // ␛
  EjRepo repo;
  const auto attempt = repo.ej({"show", "\x07\x1b]0;title\x07"});
  CHECK(attempt.exit_code == 2);
  CHECK(attempt.err.find('\x1b') == std::string::npos);
  CHECK(attempt.err.find('\x07') == std::string::npos);
}
