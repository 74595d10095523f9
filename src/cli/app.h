#pragma once

#include <CLI/CLI.hpp>

namespace ej::cli {

// Adds every ej command to the app, each with its options and the run() it calls.
void register_commands(CLI::App& app);

} // namespace ej::cli
