// Item 7 of issue 13: colours and the pager on a real pseudo-terminal, and never on a pipe.
#include "support/ej_repo.h"
#include "support/pty_session.h"

#include <catch2/catch.hpp>

using namespace ej::test;

namespace {

// A journal with one attempt, so that ej log prints a coloured line.
struct LogRepo {
  EjRepo repo;
  LogRepo()
  {
    repo.ok({"plan", "new", "p", "--title", "P"});
    repo.ok({"try", "blocked kernels", "--plan", "p"});
  }
  PtyResult at_terminal(const std::vector<std::string>& args,
                        const std::map<std::string, std::string>& env = {}) const
  {
    std::vector<std::string> argv{EJ_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_in_pty(argv, repo.path(), env);
  }
};

const std::string k_paging = "sed s/^/paged:/"; // a pager whose work shows

// PATH with a "less" first that says which LESS it was given, then passes its input on.
std::string fake_less_path()
{
  static const TempDir dir("ej-fake-less", false);
  static const bool written = [] {
    write_text(dir / "less", "#!/bin/sh\necho \"less saw LESS=$LESS\"\nexec cat\n");
    std::filesystem::permissions(dir / "less", std::filesystem::perms::owner_all);
    return true;
  }();
  (void)written;
  return dir.path().string() + ":" + std::getenv("PATH");
}

bool coloured(const std::string& text)
{
  return text.find("\x1b[") != std::string::npos;
}

} // namespace

TEST_CASE("on a terminal ej log is coloured and goes through the pager, on a pipe neither")
{
  LogRepo r;
  const auto terminal = r.at_terminal({"log"}, {{"EJ_PAGER", k_paging}});
  CHECK(terminal.exit_code == 0);
  CHECK(coloured(terminal.output));
  CHECK_THAT(terminal.output, Catch::Contains("paged:") && Catch::Contains("blocked kernels"));

  const auto pipe = r.repo.ej({"log"}, {{"EJ_PAGER", k_paging}});
  CHECK(pipe.exit_code == 0);
  CHECK_FALSE(coloured(pipe.out));
  CHECK(pipe.out.find("paged:") == std::string::npos);
  CHECK_THAT(pipe.out, Catch::Contains("blocked kernels"));
}

TEST_CASE("the pager is EJ_PAGER, else PAGER, else less -FRX, --no-pager, cat or empty means none")
{
  LogRepo r;
  CHECK_THAT(r.at_terminal({"log"}, {{"PAGER", "sed s/^/from-pager:/"}}).output,
             Catch::Contains("from-pager:"));
  CHECK_THAT(r.at_terminal({"log"}, {{"EJ_PAGER", k_paging}, {"PAGER", "sed s/^/from-pager:/"}}).output,
             Catch::Contains("paged:") && !Catch::Contains("from-pager:"));
  // less is the default, given git's LESS=FRX unless LESS is set.
  CHECK_THAT(r.at_terminal({"log"}, {{"PATH", fake_less_path()}}).output,
             Catch::Contains("less saw LESS=FRX"));
  CHECK_THAT(r.at_terminal({"log"}, {{"PATH", fake_less_path()}, {"LESS", "R"}}).output,
             Catch::Contains("less saw LESS=R"));
  for (const auto& quiet :
       std::vector<PtyResult>{r.at_terminal({"--no-pager", "log"}, {{"EJ_PAGER", k_paging}}),
                              r.at_terminal({"log", "--no-pager"}, {{"EJ_PAGER", k_paging}}),
                              r.at_terminal({"log"}, {{"EJ_PAGER", "cat"}})}) {
    CHECK(quiet.exit_code == 0);
    CHECK_THAT(quiet.output, Catch::Contains("blocked kernels") && !Catch::Contains("paged:"));
  }
}

TEST_CASE("show, why and show run --output page too, commands with short output do not")
{
  LogRepo r;
  CHECK_THAT(r.at_terminal({"show", "1"}, {{"EJ_PAGER", k_paging}, {"NO_COLOR", "1"}}).output,
             Catch::Contains("paged:#1 blocked kernels"));
  CHECK_THAT(r.at_terminal({"why", "blocked"}, {{"EJ_PAGER", k_paging}}).output, Catch::Contains("paged:"));
  r.repo.ok({"bench", "add", "b", "--repeat", "1", "--shell", "echo hello-from-bench"});
  r.repo.ok({"run", "b", "--quiet"});
  CHECK_THAT(r.at_terminal({"show", "run", "1", "--output"}, {{"EJ_PAGER", k_paging}}).output,
             Catch::Contains("paged:hello-from-bench"));
  CHECK_THAT(r.at_terminal({"plan", "list"}, {{"EJ_PAGER", k_paging}}).output, !Catch::Contains("paged:"));
}

TEST_CASE("the colours follow --color, NO_COLOR and TERM=dumb")
{
  LogRepo r;
  const std::map<std::string, std::string> no_pager{{"EJ_PAGER", "cat"}};
  CHECK(coloured(r.at_terminal({"log"}, no_pager).output));
  CHECK_FALSE(coloured(r.at_terminal({"log"}, {{"EJ_PAGER", "cat"}, {"NO_COLOR", "1"}}).output));
  CHECK_FALSE(coloured(r.at_terminal({"--color=never", "log"}, no_pager).output));
  CHECK_FALSE(coloured(r.at_terminal({"log", "--color", "never"}, no_pager).output));
  const auto dumb = r.at_terminal({"log"}, {{"EJ_PAGER", k_paging}, {"TERM", "dumb"}});
  CHECK_FALSE(coloured(dumb.output));
  CHECK(dumb.output.find("paged:") == std::string::npos); // no pager on a dumb terminal either
  CHECK(coloured(r.at_terminal({"--color=always", "log"}, {{"EJ_PAGER", "cat"}, {"NO_COLOR", "1"}}).output));

  CHECK(coloured(r.repo.ok({"--color=always", "log"})));
  CHECK_FALSE(coloured(r.repo.ok({"--color=auto", "log"})));
  const auto bad = r.repo.ej({"--color=sometimes", "log"});
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("sometimes"));
}
