// Templates that would exhaust memory or never end fail with a message naming the template and
// the bound (template_engine.h), end to end.
#include "support/command.h"
#include "support/skip.h"
#include "support/ej_repo.h"

#include <catch2/catch.hpp>

#include <string>
#include <sys/stat.h>

using namespace ej::test;
namespace fs = std::filesystem;

namespace {

// ej under `timeout`, so that a template that never ends fails the test instead of hanging it; and
// (outside sanitizer builds, which reserve huge address space) with bounded memory.
CommandResult bounded_render(const EjRepo& repo, const std::string& template_path)
{
#if defined(__SANITIZE_ADDRESS__)
  const std::string limit_memory;
#else
  const std::string limit_memory = "ulimit -v 4000000; ";
#endif
  CommandOptions options;
  options.cwd = repo.path();
  options.env.emplace("NO_COLOR", "1");
  return run_command({"sh", "-c", limit_memory + "exec timeout 120 \"$0\" plan render p --template \"$1\"",
                      EJ_BINARY, template_path},
                     options);
}

// A plan with two attempts: {{#summary}} (one row per attempt) repeats what it holds twice.
void make_plan(const EjRepo& repo)
{
  repo.ok({"plan", "new", "p", "--title", "Plan"});
  repo.ok({"try", "first", "--plan", "p"});
  repo.ok({"try", "second", "--plan", "p"});
}

std::string repeat(const std::string& text, int times)
{
  std::string out;
  for (int i = 0; i < times; ++i) {
    out += text;
  }
  return out;
}

} // namespace

TEST_CASE("a device or a FIFO given as template is refused without reading it")
{
  EjRepo repo;
  make_plan(repo);
  const auto zero = bounded_render(repo, "/dev/zero");
  CHECK(zero.exit_code == 1);
  CHECK_THAT(zero.err, Catch::Contains("/dev/zero") && Catch::Contains("not a regular file"));

  const auto fifo = repo.path() / "fifo.mustache";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto from_fifo = bounded_render(repo, fifo.string());
  CHECK(from_fifo.exit_code == 1);
  CHECK_THAT(from_fifo.err, Catch::Contains("fifo.mustache") && Catch::Contains("not a regular file"));
  CHECK_FALSE(fs::exists(repo.path() / "journal"));
}

TEST_CASE("a template file over 1 MiB is refused with the limit")
{
  EjRepo repo;
  make_plan(repo);
  const auto tmpl = repo.path() / "huge.mustache";
  write_text(tmpl, "# {{plan.title}}\n" + std::string(2 * 1024 * 1024, 'x'));
  const auto result = bounded_render(repo, tmpl.string());
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("huge.mustache") && Catch::Contains("1024 KiB"));
  CHECK_FALSE(fs::exists(repo.path() / "journal"));
}

TEST_CASE("40,000 nested sections are refused with the depth limit, not a crash")
{
  EjRepo repo;
  make_plan(repo);
  const auto tmpl = repo.path() / "deep.mustache";
  write_text(tmpl, "# x\n" + repeat("{{#plan}}", 40000) + "x" + repeat("{{/plan}}", 40000) + "\n");
  const auto result = bounded_render(repo, tmpl.string());
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("deep.mustache") && Catch::Contains("deeper than 100"));
  CHECK_FALSE(fs::exists(repo.path() / "journal"));
}

TEST_CASE("a section repeated inside itself stops at the output limit")
{
  EjRepo repo;
  make_plan(repo);
  const auto tmpl = repo.path() / "doubling.mustache";
  // 2^17 copies of 1 KiB: 128 MiB.
  write_text(tmpl, "# x\n" + repeat("{{#summary}}", 17) + std::string(1024, 'y') +
                       repeat("{{/summary}}", 17) + "\n");
  const auto result = bounded_render(repo, tmpl.string());
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("doubling.mustache") && Catch::Contains("64 MiB"));
  CHECK_FALSE(fs::exists(repo.path() / "journal"));
}

TEST_CASE("a section repeated inside itself that writes nothing stops at the expansion limit")
{
#if defined(__SANITIZE_ADDRESS__)
  // Ten million expansions take minutes under AddressSanitizer; the release build runs this.
  EJ_SKIP_NOT_APPLICABLE("under AddressSanitizer: reaching the expansion limit takes minutes there");
#endif
  EjRepo repo;
  make_plan(repo);
  const auto tmpl = repo.path() / "silent.mustache";
  write_text(tmpl, "# x\n" + repeat("{{#summary}}", 60) + repeat("{{/summary}}", 60) + "\n");
  const auto result = bounded_render(repo, tmpl.string());
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("silent.mustache") && Catch::Contains("expands more than"));
  CHECK_FALSE(fs::exists(repo.path() / "journal"));
}
