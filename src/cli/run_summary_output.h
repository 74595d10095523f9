#pragma once

#include "store/journal.h"

// What ej run, ej wait and ej runs print of a run once it has ended.
namespace ej::cli {

// "run #4 b finished: 10 repeat(s)", then the summary of each metric and combination.
void print_run_summary(store::Journal& journal, int run);

} // namespace ej::cli
