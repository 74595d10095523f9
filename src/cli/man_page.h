#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace ej::cli {

// ej(1) in roff, made from the command tree: every command with its options, defaults and
// examples (ej help --man; the build writes it to ej.1).
std::string man_page(const CLI::App& root);

} // namespace ej::cli
