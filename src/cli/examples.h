#pragma once

#include <CLI/CLI.hpp>

namespace ej::cli {

// Gives every command that has none its examples, shown by --help and the man page.
void add_command_examples(CLI::App& root);

} // namespace ej::cli
