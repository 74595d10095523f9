#pragma once

#include <CLI/CLI.hpp>

// One register function per command file in src/cli/.
namespace ej::cli {

void register_init(CLI::App& app);

} // namespace ej::cli
