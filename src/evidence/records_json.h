#pragma once

#include "core/records.h"

#include <nlohmann/json.hpp>

// The documented JSON of attempts and plans (docs/json.md): what `ej log --json` prints and what
// `ej mcp` returns as structuredContent, built in one place for both front ends.
namespace ej::evidence {

// The version of every JSON output's layout (docs/json.md). Raised when a field changes meaning or
// goes; new fields do not raise it.
inline constexpr int k_json_schema = 1;

// The JSON with its "schema" field: in the object, or in every object of a list (a list stays a
// list, so that `jq '.[]'` keeps working).
nlohmann::json with_schema(nlohmann::json json);

// A number as JSON: null while it is provisional (the "name" field says @k3f9qx then).
nlohmann::json json_number(long long number);
nlohmann::json to_json(const core::Attempt& attempt);
nlohmann::json to_json(const core::Plan& plan);
nlohmann::json to_json(const core::AttemptHistory& history);

} // namespace ej::evidence
