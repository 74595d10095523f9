#pragma once

#include "core/run_records.h"
#include "evidence/reader.h"

#include <nlohmann/json.hpp>

#include <vector>

// A run's device state in `ej show run`: per repeat, what each GPU went through, which repeats
// were throttled, and the warnings of its GPU setup.
namespace ej::cli {

// The lines `ej show run` prints; nothing for a run whose GPUs were not read and that has none.
void print_device_state(evidence::Reader& reader, const core::RunRecord& run);

} // namespace ej::cli
