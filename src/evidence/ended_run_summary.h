#pragma once

#include "store/journal.h"

#include <string>

// What ej run, ej wait and ej runs print of a run once it has ended, read from the journal.
namespace ej::evidence {

// "run #4 b finished: 10 repeat(s)", then the summary of each metric and combination
// (run_summary.h), each series summarized from the journal without holding its values when it is
// large; "" when there is no such run.
std::string ended_run_summary(store::Journal& journal, int run);

} // namespace ej::evidence
