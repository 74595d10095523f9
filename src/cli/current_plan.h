#pragma once

#include "evidence/lookup.h"
#include "store/journal.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

// Which plan a command works on: --plan, the current plan (ej plan use), or the only plan.
namespace ej::cli {

using evidence::choose_plan; // read a floor down, where `ej mcp` chooses the same way
using evidence::plan_filter;

// ej plan use [SLUG] [--clear].
void register_plan_use(CLI::App& plan);

} // namespace ej::cli
