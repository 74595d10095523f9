#pragma once

#include "store/database.h"
#include "store/events.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

// The interleaved comparisons of the journal (ej run --against), found by either of their runs.
namespace ej::store {

struct InterleavedRecord {
  std::string event_id;
  int candidate = 0; // run numbers
  int reference = 0;
  events::ComparisonInterleaved design;
};

// The comparison a run was measured in, as its candidate or its reference; nullopt for a run
// measured on its own. A run is in at most one: both sides are recorded for it alone.
std::optional<InterleavedRecord> interleaved_comparison_of(Database& db, int run);

// Every comparison of two code states (not a calibration): candidate run -> reference run. A
// document judges thousands of runs; this reads the small table once instead of a query per run.
std::map<int, int> compared_candidates(Database& db);

// The calibrations (ej calibrate: comparisons of purpose "calibration") of a benchmark, newest first.
std::vector<InterleavedRecord> calibrations_of(Database& db, const std::string& bench);

} // namespace ej::store
