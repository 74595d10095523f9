#pragma once

#include "evidence/lookup.h"

// Names and numbers given on the command line, checked against the journal: a filter that names
// nothing is an error naming it (exit 1), never an empty listing that looks like no history. Read a
// floor down, where `ej mcp` checks its arguments the same way.
namespace ej::cli {

using evidence::parse_status_argument;
using evidence::require_attempt;
using evidence::require_benchmark;
using evidence::require_plan;
using evidence::require_tag;

} // namespace ej::cli
