#pragma once

#include "core/run_records.h"
#include "render/run_exports.h"

#include <vector>

namespace ej::evidence {
class Reader;

// What `ej runs --format csv` shows of each run: its series with values, summarized.
std::vector<render::RunFigures> run_figures(Reader& reader, const std::vector<core::RunRecord>& runs);

// What `ej show run N --export-json` shows: one result per combination of the measured repeats,
// with the command of the run's benchmark revision. Throws ej::Error when the run has none.
std::vector<render::HyperfineResult> hyperfine_results(Reader& reader, const core::RunRecord& run);

} // namespace ej::evidence
