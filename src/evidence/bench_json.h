#pragma once

#include "store/journal.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

// The documented JSON of benchmarks (docs/json.md, Benchmarks): `ej bench list --json`,
// `ej bench show NAME --json`, and the same tools of `ej mcp`.
namespace ej::evidence {

// Every benchmark's latest revision: [{name, revision, ci, definition}].
nlohmann::json bench_list_json(store::Journal& journal);
// {name, revisions, calibration}; nullopt when there is no such benchmark.
std::optional<nlohmann::json> bench_show_json(store::Journal& journal, const std::string& name);

} // namespace ej::evidence
