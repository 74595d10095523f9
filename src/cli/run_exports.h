#pragma once

#include "core/run_records.h"
#include "store/journal.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ej::evidence {
class Reader;
}

// Runs in the formats other tools read: `ej runs --format csv` and `ej show run N --export-json`
// in hyperfine's JSON layout (docs/json.md).
namespace ej::cli {

// One row per run and series (metric, combination, key) with its summary; a run without
// samples gets one row with the series columns empty.
std::string runs_csv(evidence::Reader& reader, const std::vector<core::RunRecord>& runs);

// {"results": [...]} as `hyperfine --export-json` writes it, one result per combination: the
// command with its parameters substituted, wall-time statistics in seconds over the measured
// repeats (times, exit_codes, user, system), parameters; ej's other metrics under "metrics".
nlohmann::json hyperfine_json(evidence::Reader& reader, const core::RunRecord& run);

} // namespace ej::cli
