#pragma once

#include <CLI/CLI.hpp>

namespace ej::cli {

// Gives every command of the tree that has none its examples, shown by --help and the man page.
// A partial tree holds only the command being run: the others' examples are not looked for.
enum class TreeExtent { whole, partial };
void add_command_examples(CLI::App& root, TreeExtent extent);

} // namespace ej::cli
