#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

// Reading ej's one CLI11 command tree: what help, usage errors, completions and the man page are
// made from, so that none of them keeps a second list of commands.
namespace ej::cli {

// The subcommands a user can type (hidden ones, in an empty group, left out), in the order added.
std::vector<const CLI::App*> visible_subcommands(const CLI::App& app);
std::vector<std::string> subcommand_names(const CLI::App& app);
// "ej plan use" for the app of `ej plan use`.
std::string command_path(const CLI::App& app);
// The apps from the root down to app.
std::vector<const CLI::App*> lineage(const CLI::App& app);

// Options (not positionals) that apply to the command: its own, then those of the apps above it,
// which the command passes on (CLI11's fallthrough: ej log --no-pager).
std::vector<const CLI::Option*> command_options(const CLI::App& app);
std::vector<const CLI::Option*> positionals(const CLI::App& app);
// Every name an option answers to: "--plan", "-n".
std::vector<std::string> option_names(const CLI::Option& option);
bool takes_value(const CLI::Option& option);
// The values an option or positional accepts when it checks against a set ("auto", "always", ...).
std::vector<std::string> choices(const CLI::Option& option);
// The examples of a command (the lines of its footer after "Examples:").
std::vector<std::string> examples(const CLI::App& app);

// Adds a command's examples; every command has one or two, shown by --help and the man page.
void add_examples(CLI::App& app, const std::vector<std::string>& lines);

// Walks the tree to the subcommand a list of words names; nullptr at the first word that names
// none (the caller says which).
const CLI::App* find_command(const CLI::App& root, const std::vector<std::string>& words,
                             std::size_t* matched);

} // namespace ej::cli
