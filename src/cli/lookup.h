#pragma once

#include "core/records.h"
#include "core/run_records.h"
#include "core/status.h"
#include "store/journal.h"

#include <string>

// Names and numbers given on the command line, checked against the journal: a filter that names
// nothing is an error naming it (exit 1), never an empty listing that looks like no history.
namespace ej::cli {

core::Plan require_plan(store::Journal& journal, const std::string& slug);
core::BenchRevision require_benchmark(store::Journal& journal, const std::string& name);
core::Attempt require_attempt(store::Journal& journal, int number);
// A tag some attempt has; one no attempt has is an error, with the closest tags.
void require_tag(store::Journal& journal, const std::string& tag);
// A status given as text (ej log --status, ej status): a usage error naming the closest status.
core::Status parse_status_argument(const std::string& text);

} // namespace ej::cli
