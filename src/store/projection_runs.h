#pragma once

#include "store/database.h"
#include "store/event.h"

// Projections of the benchmark, run and baseline events (schema version 2).
namespace ej::store::projection {

void bench_revision(Database& db, const Event& event);   // bench.added, bench.edited
void probe_added(Database& db, const Event& event);      // probe.added
void probe_removed(Database& db, const Event& event);    // probe.removed
void run_started(Database& db, const Event& event);      // run.started
void run_repeats(Database& db, const Event& event);      // run.repeats
void run_samples(Database& db, const Event& event);      // run.samples
void run_finished(Database& db, const Event& event);     // run.finished
void run_imported(Database& db, const Event& event);     // run.imported
void run_withdrawal(Database& db, const Event& event);   // run.withdrawn, run.restored
void baseline_pinned(Database& db, const Event& event);  // baseline.pinned
void baseline_explained(Database& db, const Event& event); // baseline.explained
void step_acknowledged(Database& db, const Event& event);  // step.acknowledged (schema version 12)
// comparison.interleaved (schema version 13)
void comparison_interleaved(Database& db, const Event& event);
void step_located(Database& db, const Event& event); // step.located (schema version 14)

} // namespace ej::store::projection
