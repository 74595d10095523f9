#pragma once

#include "util/closest.h"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

// What a user sees when a command line is wrong: the word that was not understood, what was
// probably meant, and the examples of the command (exit 2).
namespace ej::cli {

// Prints the message for a parse error of the root app to stderr; returns the exit code (2).
int report_parse_error(const CLI::App& root, const CLI::ParseError& error);

// The words after a command's name in its usage line: "COMMAND", required options, "[OPTIONS]",
// positionals ("ej try --plan TEXT [OPTIONS] TITLE" reads "--plan TEXT [OPTIONS] TITLE").
std::string usage_words(const CLI::App& app);

using util::did_you_mean; // "did you mean 'log'?" (util/closest.h)

// The error for a word that names no command under app (ej help lgo, ej plan foo).
[[noreturn]] void throw_unknown_command(const CLI::App& app, const std::string& word);

} // namespace ej::cli
