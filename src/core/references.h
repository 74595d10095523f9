#pragma once

#include "core/bench_definition.h"

#include <optional>
#include <string>
#include <string_view>

// How ej names attempts and runs, read the same way by every front end (the command line, the MCP
// server), and the text it stores, checked before it is.
namespace ej::core {

// "12" or "#12" -> 12, "@k3f9qx" -> its provisional number; anything else is a usage error naming
// the argument.
int parse_attempt_number(std::string_view text);
// Checks user text before it is stored: valid UTF-8, and not empty when required.
std::string checked_text(std::string_view text, std::string_view what, bool allow_empty = true);

// A run: "5", "#5", "r5", "run5", "run:5", or a provisional name ("@k3f9qx", "r@k3f9qx"); anything
// else is a usage error that names the argument.
int parse_run_number(std::string_view text);

// For what takes an attempt or a run (ej show, ej checkout, ej compare): the run that a text with a
// run prefix names ("r5", "run:5", "run5", "r@k3f9qx"), or nullopt for anything else.
std::optional<int> run_reference(std::string_view text);

// What ej compare names on each side: a run ("r5", "run:5", "r@k3f9qx") or an attempt ("12",
// "#12", "a12", "@k3f9qx"), either ending in ":AXIS=V[,AXIS=V]" to take only those combinations.
struct Reference {
  enum class Kind { Run, Attempt };
  Kind kind = Kind::Attempt;
  int number = 0;
  ParamValues selector; // empty: every combination
};
Reference parse_reference(std::string_view text);

} // namespace ej::core
