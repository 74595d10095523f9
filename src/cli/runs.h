#pragma once

#include "core/run_records.h"
#include "evidence/run_json.h"
#include "store/journal.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace ej::cli {

using evidence::run_json; // built a floor down, where `ej mcp` builds it too
// `ej show run N [--output] [--json] [--diff]`.
void show_run(const std::string& id, bool output, bool json, bool diff);
// `ej show run N --export-json FILE`: the run in hyperfine's JSON layout.
void export_run_json(const std::string& id, const std::filesystem::path& file);

} // namespace ej::cli
