#pragma once

#include "core/records.h"
#include "evidence/records_json.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

// How commands print: colours only on a terminal (or with --color=always) and never with NO_COLOR
// or TERM=dumb; JSON with stable names.
namespace ej::cli {

enum class Colour { Bold, Dim, Red, Green, Yellow, Blue, Magenta, Cyan };

// Whether stdout is coloured (--color, NO_COLOR, TERM=dumb, a terminal): decided once, on the
// terminal itself, before a pager takes stdout over.
bool stdout_colour();
// Wraps text in an ANSI colour when stdout_colour().
std::string paint(std::string_view text, Colour colour);
std::string paint_status(core::Status status);

// The documented JSON is built a floor down, where `ej mcp` builds the same objects.
using evidence::json_number;
using evidence::k_json_schema;
using evidence::to_json;
using evidence::with_schema;

// Prints JSON (with_schema) to stdout, indented, with a final newline (invalid UTF-8 replaced,
// never an exception).
void print_json(const nlohmann::json& json);

// Continuation lines of multi-line text indented to line up under the first.
std::string indent_continuation(std::string_view text, std::string_view indent);

} // namespace ej::cli
