#pragma once

#include "core/run_records.h"
#include "store/journal.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace ej::evidence {
class Reader;
}

namespace ej::cli {

// A run as JSON (stable field names, see docs/json.md); with_samples adds series, repeats and outputs.
nlohmann::json run_json(evidence::Reader& reader, const core::RunRecord& run, bool with_samples);
// `ej show run N [--output] [--json] [--diff]`.
void show_run(const std::string& id, bool output, bool json, bool diff);
// `ej show run N --export-json FILE`: the run in hyperfine's JSON layout.
void export_run_json(const std::string& id, const std::filesystem::path& file);

} // namespace ej::cli
