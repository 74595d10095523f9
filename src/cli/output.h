#pragma once

#include "core/records.h"

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

// The version of every JSON output's layout (docs/json.md). Raised when a field changes meaning or
// goes; new fields do not raise it.
inline constexpr int k_json_schema = 1;

// The JSON with its "schema" field: in the object, or in every object of a list (a list stays a
// list, so that `jq '.[]'` keeps working).
nlohmann::json with_schema(nlohmann::json json);

// Prints JSON (with_schema) to stdout, indented, with a final newline (invalid UTF-8 replaced,
// never an exception).
void print_json(const nlohmann::json& json);

// A number as JSON: null while it is provisional (the "name" field says @k3f9qx then).
nlohmann::json json_number(long long number);
nlohmann::json to_json(const core::Attempt& attempt);
nlohmann::json to_json(const core::Plan& plan);
nlohmann::json to_json(const core::AttemptHistory& history);

// Continuation lines of multi-line text indented to line up under the first.
std::string indent_continuation(std::string_view text, std::string_view indent);

} // namespace ej::cli
