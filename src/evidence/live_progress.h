#pragma once

#include "evidence/reader.h"
#include "measuring/live_runs.h"
#include "measuring/workspace.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

// What `ej wait` says of a run (and the wait tool of `ej mcp` returns): while it goes, how far it
// has come (repeats done of those planned, the primary metric's medians with their intervals so
// far, the time left); once it ended, how, with its summary and verdict.
namespace ej::evidence {

// `ej wait --json`, one object per run (docs/json.md, Waiting for runs).
nlohmann::json waited_json(Reader& reader, const measuring::Workspace& workspace,
                           const measuring::WaitedRun& waited);

// The lines `ej wait` prints for a run still going: "run #3 is still running (measuring,
// combination 1 of 2): 12 of 30 repeats in 4.1 s, about 6.2 s left", then one line per series of
// the primary metric: "  wall_s: median 0.105 s, 95% interval [0.101 s, 0.110 s], n = 10".
std::vector<std::string> progress_lines(const nlohmann::json& waited);

} // namespace ej::evidence
