#pragma once

#include "store/journal.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

// Which plan a command works on: --plan, the current plan (ej plan use), or the only plan.
namespace ej::cli {

// For commands that need a plan: the one given, else the current plan, else the only plan of the
// journal (saying on stderr which it took); an error when none of them settles it.
std::string choose_plan(store::Journal& journal, const std::string& given);

// For filters (ej log): the plan given, else the current plan (said on stderr), else none.
std::optional<std::string> plan_filter(store::Journal& journal, const std::string& given);

// ej plan use [SLUG] [--clear].
void register_plan_use(CLI::App& plan);

} // namespace ej::cli
