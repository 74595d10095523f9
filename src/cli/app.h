#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string_view>
#include <vector>

namespace ej::cli {

// Adds every ej command to the app, each with its options and the run() it calls.
void register_commands(CLI::App& app);

// Adds what parsing these arguments needs: ej's own options and the one command they name, or
// every command when they name none, ask ej for its help, or name one ej does not know (whose
// suggestions come from every name). `ej --version` gets no command at all.
void register_commands_for(CLI::App& app, int argc, const char* const* argv);

// The first argument that is not one of ej's own options: the command typed, if any.
struct CommandWord {
  std::optional<std::string_view> word;
  bool asks_help = false;    // -h or --help before it
  bool asks_version = false; // -V or --version before it
};
CommandWord command_word(int argc, const char* const* argv);

// The top-level commands each register function adds, space-separated (for a test that keeps
// this list equal to the tree).
std::vector<std::string_view> command_group_words();

} // namespace ej::cli
