#pragma once

#include "core/records.h"
#include "core/run_records.h"
#include "core/status.h"
#include "store/journal.h"

#include <optional>
#include <string>

// Names given by a user (on the command line, or to `ej mcp`), checked against the journal: a name
// that names nothing is an error naming it, with the closest names, never an empty answer that
// looks like no history.
namespace ej::evidence {

core::Plan require_plan(store::Journal& journal, const std::string& slug);
core::BenchRevision require_benchmark(store::Journal& journal, const std::string& name);
core::Attempt require_attempt(store::Journal& journal, int number);
// A tag some attempt has; one no attempt has is an error, with the closest tags.
void require_tag(store::Journal& journal, const std::string& tag);
// A status given as text (ej log --status, ej status): a usage error naming the closest status.
core::Status parse_status_argument(const std::string& text);

// The current plan (ej plan use), when one was chosen; an error when it is gone from the journal.
std::optional<std::string> chosen_plan(store::Journal& journal);
// For what needs a plan: the one given, else the current plan, else the only plan of the journal
// (saying on stderr which it took); an error when none of them settles it.
std::string choose_plan(store::Journal& journal, const std::string& given);
// For filters (ej log): the plan given, else the current plan (said on stderr), else none.
std::optional<std::string> plan_filter(store::Journal& journal, const std::string& given);

} // namespace ej::evidence
