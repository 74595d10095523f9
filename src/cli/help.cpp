#include "cli/help.h"

#include "cli/command_tree.h"
#include "cli/completion.h"
#include "cli/man_page.h"
#include "cli/usage.h"
#include "util/error.h"

#include <fmt/format.h>

#include <memory>

namespace ej::cli {

namespace {

struct HelpOptions {
  std::vector<std::string> words;
  bool man = false;
};

void run_help(const CLI::App& root, const HelpOptions& options)
{
  if (options.man) {
    fmt::print("{}", man_page(root));
    return;
  }
  std::size_t matched = 0;
  const auto* command = find_command(root, options.words, &matched);
  if (command == nullptr) {
    const auto* parent =
        find_command(root, {options.words.begin(), options.words.begin() + matched}, nullptr);
    throw_unknown_command(*parent, options.words[matched]);
  }
  // The formatter itself: App::help() of a command with a parsed subcommand (ej itself, here
  // running `help`) shows that subcommand's help instead.
  fmt::print(
      "{}", command->get_formatter()->make_help(command, command_path(*command), CLI::AppFormatMode::Normal));
}

struct CompletionOptions {
  std::string shell;
};

void run_completion(const CLI::App& root, const CompletionOptions& options)
{
  if (options.shell == "bash") {
    fmt::print("{}", bash_completion(root));
  } else if (options.shell == "zsh") {
    fmt::print("{}", zsh_completion(root));
  } else {
    fmt::print("{}", fish_completion(root));
  }
}

bool says_default(const std::string& description)
{
  return description.find("default") != std::string::npos;
}

} // namespace

void register_help(CLI::App& app)
{
  auto help_options = std::make_shared<HelpOptions>();
  auto* help = app.add_subcommand("help", "Show the help of ej or of a command (ej help plan use)");
  help->add_option("command", help_options->words, "The command, as typed after ej");
  help->add_flag("--man", help_options->man, "Print the man page, ej(1), in roff");
  add_examples(*help, {"ej help run", "ej help plan use"});
  const CLI::App* root = &app;
  help->callback([root, help_options] { run_help(*root, *help_options); });

  auto completion_options = std::make_shared<CompletionOptions>();
  auto* completion =
      app.add_subcommand("completion", "Print the shell completion script for bash, zsh or fish");
  completion->add_option("shell", completion_options->shell, "The shell")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh", "fish"}));
  add_examples(*completion, {"ej completion bash > ~/.local/share/bash-completion/completions/ej",
                             "ej completion fish > ~/.config/fish/completions/ej.fish"});
  completion->callback([root, completion_options] { run_completion(*root, *completion_options); });
}

void show_defaults(CLI::App& app)
{
  for (auto* option : app.get_options()) {
    if (!takes_value(*option) || option->get_required() || says_default(option->get_description())) {
      continue;
    }
    option->capture_default_str();
    const auto value = option->get_default_str();
    option->default_str("");
    // Unset values ("", 0 meaning none, an empty list) are no default worth a word.
    if (!value.empty() && value != "0" && value != "[]" && value != "{}" && value != "\"\"") {
      option->description(fmt::format("{} (default: {})", option->get_description(), value));
    }
  }
  for (auto* sub : app.get_subcommands({})) {
    show_defaults(*sub);
  }
}

} // namespace ej::cli
