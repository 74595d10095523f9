#pragma once

#include "store/database.h"
#include "store/events.h"

#include <string>
#include <vector>

// The values an interleaved comparison pairs: for every series (combination, metric, key), one
// figure a side per round, the median of the side's samples in its block of that round (one
// repeat's value with --block 1). Read from the journal, so that the session deciding after each
// round and a later `ej compare` pair exactly the same figures.
namespace ej::measuring {

struct PairedSeries {
  std::string params; // the combination, as its repeats record it (JSON)
  std::string metric;
  std::string key;
  std::string unit;
  std::vector<double> candidate; // one per round that measured the series on both sides, in order
  std::vector<double> reference;
};

// Series in a stable order (params, metric, key); a series measured by one side only is left out.
std::vector<PairedSeries>
paired_series(store::Database& db, int candidate_run, int reference_run,
              const std::vector<store::events::ComparisonInterleaved::Round>& rounds);

} // namespace ej::measuring
