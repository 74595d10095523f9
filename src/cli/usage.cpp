#include "cli/usage.h"

#include "cli/command_tree.h"
#include "util/closest.h"
#include "util/error.h"
#include "util/strings.h"

#include <fmt/format.h>

namespace ej::cli {

namespace {

// The command a parse stopped in: the last subcommand CLI11 recognised.
const CLI::App& deepest_command(const CLI::App& root)
{
  const CLI::App* node = &root;
  for (;;) {
    const auto parsed = node->get_subcommands();
    if (parsed.empty()) {
      return *node;
    }
    node = parsed.front();
  }
}

std::string quoted(const std::string& text)
{
  return "'" + util::visible_controls(text) + "'";
}

// "ej plan use" -> "plan use": how `ej help` names a command.
std::string help_words(const CLI::App& app)
{
  const auto path = command_path(app);
  const auto space = path.find(' ');
  return space == std::string::npos ? "" : path.substr(space + 1);
}

std::string see_help(const CLI::App& app)
{
  const auto words = help_words(app);
  return words.empty() ? "see 'ej help'" : fmt::format("see 'ej help {}'", words);
}

std::string unknown_command_message(const CLI::App& app, const std::string& word)
{
  const auto words = help_words(app);
  const auto typed = words.empty() ? word : words + " " + word;
  auto names = subcommand_names(app);
  const auto suggestion = did_you_mean(word, names);
  if (!suggestion.empty()) {
    auto prefixed = suggestion;
    if (!words.empty()) { // did you mean 'plan show'?
      for (const auto& name : util::closest_names(word, names)) {
        const auto at = prefixed.find("'" + name + "'");
        if (at != std::string::npos) {
          prefixed.replace(at, name.size() + 2, "'" + words + " " + name + "'");
        }
      }
    }
    return fmt::format("unknown command {}; {}", quoted(typed), prefixed);
  }
  if (words.empty()) {
    return fmt::format("unknown command {}; see 'ej help' for the commands", quoted(typed));
  }
  return fmt::format("unknown command {}; the {} commands are: {}", quoted(typed), words,
                     util::join(names, ", "));
}

std::string unknown_option_message(const CLI::App& app, const std::string& argument)
{
  const auto name = argument.substr(0, argument.find('='));
  std::vector<std::string> names;
  for (const auto* option : command_options(app)) {
    for (auto& option_name : option_names(*option)) {
      names.push_back(std::move(option_name));
    }
  }
  const auto suggestion = did_you_mean(name, names);
  return fmt::format("unknown option {} for '{}'; {}", quoted(name), command_path(app),
                     suggestion.empty() ? see_help(app) : suggestion);
}

std::string examples_text(const CLI::App& app)
{
  std::string out;
  for (const auto& example : examples(app)) {
    out += "\n  " + example;
  }
  return out.empty() ? "" : "\nfor example:" + out;
}

// "TEXT" for an option of type "TEXT:{a,b}".
std::string value_name(const CLI::Option& option)
{
  const auto type = option.get_type_name();
  return type.substr(0, type.find(':'));
}

std::string option_label(const CLI::Option& option)
{
  return option.get_positional() ? util::to_upper(option.get_name()) : option.get_name(false, true);
}

// What a command still needs: its first required option or positional that was not given.
std::string missing_message(const CLI::App& app)
{
  for (const auto* option : app.get_options()) {
    if (option->get_required() && option->count() == 0) {
      return fmt::format("'{}' needs {} ({}); usage: {}{}", command_path(app), option_label(*option),
                         option->get_description(), command_path(app) + " " + usage_words(app),
                         examples_text(app));
    }
  }
  return {};
}

} // namespace

std::string usage_words(const CLI::App& app)
{
  std::vector<std::string> words;
  if (!visible_subcommands(app).empty()) {
    words.push_back("COMMAND");
  }
  for (const auto* option : command_options(app)) {
    if (option->get_required()) {
      words.push_back(option->get_name(false, true) + " " + value_name(*option));
    }
  }
  words.push_back("[OPTIONS]");
  for (const auto* option : positionals(app)) {
    const auto name = util::to_upper(option->get_name());
    words.push_back(option->get_required() ? name : "[" + name + "]");
  }
  return util::join(words, " ");
}

void throw_unknown_command(const CLI::App& app, const std::string& word)
{
  fmt::print(stderr, "ej: {}\n", unknown_command_message(app, word)); // as a parse error says it
  throw ExitCode{2};
}

int report_parse_error(const CLI::App& root, const CLI::ParseError& error)
{
  const auto& command = deepest_command(root);
  const auto remaining = root.remaining();
  std::string message;
  if (!remaining.empty()) {
    const auto& first = remaining.front();
    if (first.size() > 1 && first.front() == '-') {
      message = unknown_option_message(command, first);
    } else if (!visible_subcommands(command).empty()) {
      message = unknown_command_message(command, first);
    } else {
      message = fmt::format("unexpected argument {} for '{}'; {}{}", quoted(first), command_path(command),
                            see_help(command), examples_text(command));
    }
  } else if (dynamic_cast<const CLI::RequiredError*>(&error) != nullptr) {
    if (!visible_subcommands(command).empty() && command.get_subcommands().empty()) {
      if (&command == &root) {
        fmt::print(stderr, "{}", root.help());
        return 2;
      }
      message = fmt::format("'{}' needs a command: {}; {}", command_path(command),
                            util::join(subcommand_names(command), ", "), see_help(command));
    } else {
      message = missing_message(command);
    }
  }
  if (message.empty()) {
    message = fmt::format("usage: {}; {}", util::visible_controls(error.what()), see_help(command));
  }
  fmt::print(stderr, "ej: {}\n", message);
  return 2;
}

} // namespace ej::cli
