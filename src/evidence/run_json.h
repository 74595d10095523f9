#pragma once

#include "core/run_records.h"
#include "evidence/reader.h"
#include "measure/throttle.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

// The documented JSON of runs (docs/json.md, Runs): what `ej runs --json` and `ej show run N --json`
// print and `ej mcp` returns, built in one place for both front ends.
namespace ej::evidence {

// A run as JSON (stable field names); with_samples adds series, repeats (with their device state),
// outputs and env_readings.
nlohmann::json run_json(Reader& reader, const core::RunRecord& run, bool with_samples);
// `ej show run N --json`: run_json with samples, plus where it ran ("on"), the interleaved
// comparison it was measured in, and with `output` the captures, with `diff` the code it measured;
// nullopt when there is no such run.
std::optional<nlohmann::json> show_run_json(Reader& reader, int number, bool output, bool diff);
// Where a run ran when not here (run.started's "on"); null for a run here.
nlohmann::json run_location(store::Journal& journal, const core::RunRecord& run);

// Adds "device" and "throttled" to each repeat of run_json's "repeats", and the run's
// "throttled" ({repeats, of, summary}) and "gpu_warnings".
void add_device_json(Reader& reader, const core::RunRecord& run,
                     const std::vector<core::RepeatRecord>& repeats, nlohmann::json& out);
// The throttled repeats by index, with why each was.
std::map<int, std::vector<std::string>> throttled_by_index(const measure::ThrottleReport& report);
// The warnings of a run's GPU setup (clocks not locked, persistence off); none without a snapshot.
std::vector<std::string> gpu_warnings_of(Reader& reader, const core::RunRecord& run);

} // namespace ej::evidence
