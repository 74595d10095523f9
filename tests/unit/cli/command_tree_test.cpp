#include "cli/app.h"
#include "cli/command_tree.h"
#include "cli/completion.h"
#include "cli/man_page.h"

#include <catch2/catch.hpp>

using namespace ej::cli;

namespace {

void every_command(const CLI::App& app, std::vector<const CLI::App*>& out)
{
  for (const auto* sub : visible_subcommands(app)) {
    out.push_back(sub);
    every_command(*sub, out);
  }
}

} // namespace

TEST_CASE("every command has a description and one or two examples that run ej")
{
  CLI::App app{"ej", "ej"};
  register_commands(app);
  std::vector<const CLI::App*> commands;
  every_command(app, commands);
  REQUIRE(commands.size() > 40);
  for (const auto* command : commands) {
    INFO(command_path(*command));
    CHECK_FALSE(command->get_description().empty());
    const auto lines = examples(*command);
    CHECK(!lines.empty());
    CHECK(lines.size() <= 4);
    for (const auto& line : lines) {
      CHECK_THAT(line, Catch::Contains("ej " + command->get_name()) || Catch::Contains("ej "));
    }
  }
}

TEST_CASE("the completion scripts and the man page name every command of the tree")
{
  CLI::App app{"ej", "ej"};
  register_commands(app);
  const auto bash = bash_completion(app);
  const auto fish = fish_completion(app);
  const auto zsh = zsh_completion(app);
  const auto man = man_page(app);
  std::vector<const CLI::App*> commands;
  every_command(app, commands);
  for (const auto* command : commands) {
    INFO(command_path(*command));
    const auto path = command_path(*command).substr(3); // "plan use"
    CHECK_THAT(bash, Catch::Contains("'" + path + "')"));
    CHECK_THAT(zsh, Catch::Contains("'" + path + "')"));
    CHECK_THAT(fish,
               Catch::Contains("__ej_at '" + path + "'") || Catch::Contains("__ej_at \\'" + path + "\\'"));
    if (visible_subcommands(*command).empty()) {
      std::string roff_path;
      for (const char c : command_path(*command)) {
        roff_path += c == '-' ? std::string("\\-") : std::string(1, c);
      }
      CHECK_THAT(man, Catch::Contains(".SS \"" + roff_path));
    }
  }
}

TEST_CASE("an option's choices and whether it takes a value are read from the tree")
{
  CLI::App app{"ej", "ej"};
  register_commands(app);
  const auto* color = app.get_option("--color");
  CHECK(takes_value(*color));
  CHECK(choices(*color) == std::vector<std::string>{"auto", "always", "never"});
  CHECK_FALSE(takes_value(*app.get_option("--no-pager")));
  std::size_t matched = 0;
  CHECK(find_command(app, {"plan", "use"}, &matched) != nullptr);
  CHECK(find_command(app, {"plan", "nope"}, &matched) == nullptr);
  CHECK(matched == 1);
}
