#pragma once

#include "core/run_records.h"
#include "store/database.h"

#include <string>
#include <vector>

// ej bisect's answers (step.located events), as ej history shows them.
namespace ej::store {

// Those of a benchmark, oldest first.
std::vector<core::LocatedStep> located_steps(Database& db, const std::string& bench);

} // namespace ej::store
