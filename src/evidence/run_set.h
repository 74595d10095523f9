#pragma once

#include "core/bench_definition.h"
#include "core/run_records.h"
#include "evidence/series.h"

#include <functional>
#include <string>
#include <vector>

namespace ej::evidence {

// Runs that stand together: one run, or an attempt's runs of one benchmark revision; optionally
// only the combinations a selector names (r5:variant=naive).
struct RunSet {
  std::string label; // "run #5", "attempt #12 (runs #5, #6)", "run #5 [variant=naive]"
  std::string bench;
  int revision = 0;
  std::vector<core::RunRecord> runs; // oldest first
  std::vector<SeriesSummary> series; // of the runs' samples, as run_series groups them
  core::ParamValues selector;        // the axis values chosen, empty for all
  std::vector<std::string> warnings; // failed or interrupted runs included, imported runs...
  int throttled = 0;                 // measured repeats of its runs on a throttled GPU
  int device_repeats = 0;            // measured repeats whose GPUs were read
  bool throttled_excluded = false;   // its series leave the throttled repeats out

  // When its newest run started: what "the baseline of its time" is measured against.
  std::int64_t time_ms() const;
  bool imported() const; // every run of it was imported, not measured by ej
};

// Whether a run's samples can be judged: it finished (or was imported) and was not withdrawn.
bool usable(const core::RunRecord& run);
bool usable(const core::RunHead& run);
// "run #5 was withdrawn on 2026-05-01: REASON", for whatever refuses or leaves out a withdrawn run.
std::string withdrawn_text(const core::RunRecord& run);
// Whether a plan document lists a run under its attempt. Not a withdrawn run, nor one that ended
// before it recorded a single repeat (cancelled while it queued for GPUs or for a Slurm allocation,
// a Slurm job that failed before it ran): it says nothing about the attempt. A failed build is
// listed: it says the code did not build. `recorded_a_repeat` is asked only for a run that ended
// unusable, the few that may be such.
bool listed_in_documents(const core::RunRecord& run, const std::function<bool()>& recorded_a_repeat);

// "variant=naive,size=2" read back into axis values (the series' params label).
core::ParamValues parse_params_label(const std::string& label);
// The label without the axes named in `axes` ("size=2" for "size=2,variant=naive" without variant).
std::string params_without(const std::string& label, const core::ParamValues& axes);
// Whether a series' combination has every value of the selector.
bool matches_selector(const std::string& params_label, const core::ParamValues& selector);

} // namespace ej::evidence
