#pragma once

#include "core/bench_definition.h"
#include "core/run_records.h"
#include "evidence/metric_rules.h"
#include "evidence/series.h"
#include "measure/change_points.h"
#include "measure/comparison.h"
#include "measure/median_interval.h"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

// A benchmark's history: one point per commit of a line of commits (a branch's first parents),
// the median of the runs made there, and the change points of that series with the commit range
// each lies in. Built from plain values (build_histories) so that every front end (ej history,
// ej regressions, and later ej bisect and ej ci, which start from a step's commit range) computes
// it the same way; read_history reads those values from the journal and git.
namespace ej::evidence {

// A commit of the line, oldest first.
struct LineCommit {
  std::string id; // full hex id
  std::string subject;
};

struct HistoryOptions {
  std::string metric;         // empty: the benchmark's primary metric
  core::ParamValues selector; // only the combinations with these axis values (--param)
  measure::ChangePointOptions detection;
};

// The runs made at one commit of the line, clean trees only.
struct HistoryPoint {
  std::size_t position = 0; // in the line: 0 is its oldest commit
  std::string commit;
  std::string subject;
  std::vector<int> runs; // ascending
  std::size_t n = 0;     // samples of all its runs together
  double median = 0;     // of those samples: the point's value
  measure::MedianInterval interval;
  std::string environment; // the environment fingerprint's blob of its newest run
};

// A change point: the level moved between two measured commits.
struct HistoryStep {
  std::size_t point = 0;   // the first point of the new level (index into History::points)
  std::string good;        // the last commit measured before the step...
  std::string bad;         // ...and the first after it: the step came in one of (good, bad]
  std::size_t commits = 0; // how many commits (good, bad] holds: 1 when it is located to a commit
  // The points of the new level against those of the old one (at most the detection window a
  // side, never past the next change point): the change, its interval and the medians.
  measure::Comparison change;
  double z = 0;            // the rank statistic that found it
  double p_value = 1;      // corrected for the scan (measure::scan_p_value)
  bool worse = false;      // moved the way the metric gets worse
  bool regression = false; // worse by at least the benchmark's minimum effect (acknowledged or not)
  std::optional<core::Acknowledgement> acknowledged; // the newest acknowledgement of a commit in its range
  std::optional<core::LocatedStep> located;          // the newest ej bisect answer in its range
};

// A run of the benchmark that is not a point of the line: its tree was dirty, or its commit is not
// on the line (another branch, or none recorded).
struct RunApart {
  enum class Why { Dirty, OtherCommit, NoCommit };
  int run = 0;
  core::GitContext git;
  Why why = Why::OtherCommit;
  std::size_t n = 0;
  double median = 0;
};

struct History {
  std::string bench;
  int revision = 0;
  std::string metric;
  std::string params; // "variant=naive" or ""
  std::string key;    // nvbench state, gbench row... or ""
  std::string unit;
  measure::Direction direction = measure::Direction::LowerIsBetter;
  double min_effect_pct = 0;
  std::vector<HistoryPoint> points; // in line order
  std::vector<HistoryStep> steps;   // in line order
  std::vector<RunApart> apart;      // by run number
  // ej bisect's answers for the metric whose commit (the first bad one, or the last of the range it
  // left) is on the line, oldest first: a bisection measures few commits, too few for a change
  // point of its own, so each is shown whether a change point holds it or not.
  std::vector<core::LocatedStep> located;
};

// A run with its series (all metrics, or the one asked for).
struct HistoryRun {
  core::RunHead run;
  std::vector<SeriesSummary> series;
};

struct HistoryInput {
  std::string bench;
  int revision = 0;
  MetricRules rules;
  std::span<const LineCommit> line; // oldest first, kept alive by the caller
  // The revision's and those of revisions that measure alike (Reader::measures_alike); unusable
  // ones (failed...) are passed over.
  std::vector<HistoryRun> runs;
  std::vector<int> alike_revisions; // the other revisions whose runs are in `runs` too, ascending
  std::vector<core::Acknowledgement> acknowledgements;
  std::vector<core::LocatedStep> located; // ej bisect's answers for the benchmark, oldest first
  std::vector<int> other_revisions;       // the revisions of the benchmark's other usable runs, for a note
};

// One history per series of the metric (each combination and key the selector keeps), in the
// order they first appear in the runs. Throws ej::Error when the change-point options are invalid.
std::vector<History> build_histories(const HistoryInput& input, const HistoryOptions& options);

// The commit an ej bisect answer names: the first bad one, else the last of the range it left.
const std::string& located_commit(const core::LocatedStep& located);

// "regression", "improvement", "step (worse, below the minimum effect)": what a step is, in words.
std::string describe_step(const HistoryStep& step);
// "dirty tree", "not on the line", "no commit recorded".
std::string describe(RunApart::Why why);

} // namespace ej::evidence
