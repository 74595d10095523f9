#pragma once

#include "core/bench_definition.h"
#include "run/environment.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

// What a run records of what it was given, beside the benchmark's revision.
namespace ej::measuring {

// A registered probe (`ej env probe add`), as the environment capture runs it in the work tree.
run::ProbeSpec probe_from_json(const std::string& name, const nlohmann::json& definition,
                               const std::filesystem::path& work_tree);
// {axis: [values...]} of the combinations a run covers.
nlohmann::json chosen_params_json(const std::vector<core::ParamValues>& combinations);

} // namespace ej::measuring
