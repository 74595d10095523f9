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

namespace {

std::vector<std::string> top_names(const CLI::App& app)
{
  std::vector<std::string> out;
  for (const auto* sub : app.get_subcommands({})) {
    out.push_back(sub->get_name());
  }
  return out;
}

std::vector<std::string> split_words(std::string_view words)
{
  std::vector<std::string> out;
  std::string word;
  for (const char c : words) {
    if (c == ' ') {
      out.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  out.push_back(word);
  return out;
}

// The tree ej builds for these arguments.
std::vector<std::string> tree_for(std::vector<const char*> argv)
{
  argv.insert(argv.begin(), "ej");
  CLI::App app{"ej", "ej"};
  register_commands_for(app, static_cast<int>(argv.size()), argv.data());
  return top_names(app);
}

} // namespace

TEST_CASE("the command groups name exactly the commands of the whole tree, each once")
{
  CLI::App whole{"ej", "ej"};
  register_commands(whole);
  std::vector<std::string> grouped;
  for (const auto words : command_group_words()) {
    for (const auto& word : split_words(words)) {
      grouped.push_back(word);
    }
  }
  CHECK(grouped == top_names(whole)); // same names, same order: the help lists them as before
}

TEST_CASE("a command typed builds that command's group alone, as the whole tree has it")
{
  for (const auto words : command_group_words()) {
    const auto names = split_words(words);
    INFO(words);
    const auto built = tree_for({names.front().c_str(), "--help"});
    if (names.front() == "help") {
      CHECK(built.size() > 20); // help describes every command
      continue;
    }
    CHECK(built == names);
  }
  CHECK(tree_for({"--color", "never", "--no-pager", "log", "-n", "5"}) ==
        std::vector<std::string>{"log", "show", "search"});
  CHECK(tree_for({"--color=never", "plan", "list"}) == std::vector<std::string>{"plan", "report"});
}

TEST_CASE("no command, --help before the command, or an unknown word builds the whole tree")
{
  const auto whole = tree_for({"help"});
  CHECK(whole.size() > 20);
  CHECK(tree_for({}) == whole);
  CHECK(tree_for({"--help"}) == whole);
  CHECK(tree_for({"--help", "log"}) == whole);
  CHECK(tree_for({"lgo"}) == whole);
  CHECK(tree_for({"--color", "log"}) == whole); // "log" is --color's (wrong) value, no command
  CHECK(tree_for({"--version"}).empty());
  CHECK(tree_for({"-V"}).empty());
}

TEST_CASE("a command built alone has the same options, defaults and examples as in the whole tree")
{
  CLI::App whole{"ej", "ej"};
  register_commands(whole);
  for (const auto words : command_group_words()) {
    const auto names = split_words(words);
    std::vector<const char*> argv{"ej", names.front().c_str()};
    CLI::App alone{"ej", "ej"};
    register_commands_for(alone, 2, argv.data());
    for (const auto& name : names) {
      INFO(name);
      const auto* in_whole = whole.get_subcommand(name);
      const auto* by_itself = alone.get_subcommand(name);
      CHECK(by_itself->help() == in_whole->help());
    }
  }
}
