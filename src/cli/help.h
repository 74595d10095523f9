#pragma once

#include <CLI/CLI.hpp>

// ej help [COMMAND...], ej completion SHELL, and the texts --help shows.
namespace ej::cli {

// Adds `ej help` (and `ej help --man`) and `ej completion`; both read the finished tree.
void register_help(CLI::App& app);

// Once every command is registered: each option's default joins its description ("(default:
// 20)"), where CLI11 would otherwise print it glued to the type ("INT=20").
void show_defaults(CLI::App& app);

} // namespace ej::cli
