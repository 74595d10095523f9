#pragma once

#include "evidence/compare_sets.h"
#include "evidence/integrity.h"
#include "evidence/next_step.h"
#include "evidence/reader.h"
#include "evidence/run_set.h"
#include "evidence/target_result.h"
#include "measure/comparison.h"

#include <optional>
#include <string>
#include <vector>

namespace ej::evidence {

// Which baseline a verdict is against: the one pinned for the plan and benchmark when the run was
// made (what an audit must show), or the one pinned now (`--against current`).
enum class Against { BaselineThen, CurrentBaseline };

// Where a plan's target is met across the combinations a verdict judged.
enum class TargetMet { NoTarget, Everywhere, Somewhere, Nowhere };

// How the two sides of a verdict were measured (docs/statistics.md, "Comparing code, not moments"):
// apart in time, so that whatever the machine did in between is in the comparison, or interleaved
// in one session by `ej run --against`, which cancels the drift out of the pairs.
enum class Design { Sequential, Interleaved };

struct VerdictDesign {
  Design kind = Design::Sequential;
  std::int64_t baseline_earlier_ms = 0; // sequential: candidate start minus baseline start
  std::size_t rounds = 0;               // interleaved
  int block = 1;                        // interleaved: repeats of each side per round (--block)
  std::string reference = "baseline";   // what the sentences call the reference side
  std::string phrase() const;           // "sequential, baseline 3 days earlier"; "interleaved, 20 rounds"
  std::string
  sentence() const;         // "sequential: the baseline was measured 3 days earlier; drift not controlled"
  std::string cell() const; // a document's summary: "sequential"; "interleaved, 20 rounds"
  std::string baseline_when() const; // sequential: "3 days earlier", "2 hours later", "moments earlier"
};

// What the newest calibration of the benchmark in the candidate's environment (ej calibrate) says of
// a verdict: the smallest change it could have detected, and whether the machine's drift alone
// could explain the change (for a sequential verdict).
struct CalibrationNote {
  std::string amount; // "±1.8%"
  std::size_t n = 0;  // at this many repeats a side (sequential) or rounds (interleaved)
  std::string drift;  // "+4.2%"
  bool drift_exceeds_change = false;
  std::int64_t time_ms = 0; // when the calibration ran
};

// The verdict of a run or an attempt against its plan's baseline, on one metric (the plan's measure
// of the benchmark, else the benchmark's primary metric), combination by combination.
struct Verdict {
  int baseline_run = 0; // the run it was judged against
  // Interleaved: the run of the baseline's code state that `ej run --against` measured alongside the
  // candidate, whose pairs the verdict rests on (evidence/paired_lead.h).
  std::optional<int> reference_run;
  std::optional<int> baseline_now; // the plan's current baseline, when it is another run
  Against against = Against::BaselineThen;
  RunSet candidate;
  std::string metric;
  std::string unit;
  std::vector<SeriesComparison> combinations; // of the primary metric, in the run's order
  // Improved when at least one combination improved and none regressed, regressed the other way
  // round, mixed when both happen, no change when every combination is no change, else inconclusive.
  // A combination counts as improved or regressed here only when its p-value also passes
  // Benjamini-Hochberg across the combinations (summarize_outcomes); its own outcome stays.
  measure::Outcome outcome = measure::Outcome::Inconclusive;
  std::string crossover;      // where it wins and loses, in words ("wins at concurrency <= 2, ...")
  core::ParamValues headline; // the combination the plan sums the metric up at; empty: none
  std::optional<std::size_t> headline_index; // the combination of `combinations` at the headline, when judged
  std::vector<TargetResult> targets; // the plan's targets on this benchmark's metrics, in the plan's order
  TargetMet target_met = TargetMet::NoTarget;
  std::vector<std::string> target_met_at; // the combinations that meet it ("" without axes)
  std::size_t target_judged = 0;          // combinations the target was evaluated at
  VerdictDesign design;
  std::optional<CalibrationNote> calibration;
  std::vector<std::string> environment_changes;
  std::vector<std::string> environment_fields;
  std::vector<std::string> warnings;
  bool imported = false;  // either side holds figures recorded with `ej record`
  int throttled = 0;      // repeats of both sides that ran on a throttled GPU
  int device_repeats = 0; // repeats of both sides whose GPUs were read
  bool throttled_excluded = false;
  // Whether its figures can be believed (evidence/integrity.h): an invalid verdict's outcomes are
  // all inconclusive, whatever the figures say; a suspect one proposes no adoption.
  Integrity integrity;
  std::vector<NextStep> next; // what would make it decisive, first things first (evidence/next_step.h)
  std::string text;           // one line: the comparison(s), against which baseline, the environment warning
  std::string brief; // the same without the note that the baseline moved, for lines under one that has it
  // Where that note (baseline_note) begins in text, its length text's less brief's: a line kept
  // across a later pin changes there alone (evidence/verdict_line.h).
  std::size_t note_at = 0;

  bool sweep() const { return combinations.size() > 1; }
  // What decides: the headline combination's outcome when it was judged, else `outcome`.
  measure::Outcome decisive_outcome() const;
  // The comparison that stands for the verdict in one line: the headline combination's, or the only one.
  const SeriesComparison* headline_comparison() const;
  // The target met at every combination judged; empty without a target on a measured metric.
  std::optional<bool> meets_target() const;
};

// Why a set was not judged, for those who say it differently: a missing baseline is worth a line
// in a document; the baseline's own runs are not.
enum class Unjudged { Other, NoBaseline, IsBaseline };

// A verdict, or why there is none ("nothing to judge" is never an error: a store error is).
struct Judgement {
  std::optional<Verdict> verdict;
  std::string why_not;
  Unjudged unjudged = Unjudged::Other;
  std::vector<NextStep> next; // without a verdict: what would give one (NoBaseline: pin one)
};

// What a line judged against the baseline then says of the current one, when it is another run:
// ", the baseline then; the baseline is now run #7".
std::string baseline_note(int baseline_then, std::optional<int> baseline_now);

// Combines the outcomes of several series into one (see Verdict::outcome). The series given are the
// family whose false-discovery rate is held at q (measure/false_discovery.h): one improved or
// regressed on its own counts so only when its p-value is a discovery among theirs; otherwise it
// counts as inconclusive. q is the alpha each comparison was tested at.
measure::Outcome summarize_outcomes(const std::vector<SeriesComparison>& combinations,
                                    double q = measure::CompareOptions{}.alpha);

// "1 of 2 series improved or regressed on its own but is no discovery at a false-discovery rate
// of 0.05 (Benjamini-Hochberg): the overall outcome leaves it out"; empty when none is held back.
std::string false_discovery_note(const std::vector<SeriesComparison>& combinations,
                                 double q = measure::CompareOptions{}.alpha);

// The attempt's lead verdict (evidence/evaluation.h): on its plan's headline measure when it was
// judged on it, else on the next measure, else on the benchmark of its newest usable run.
Judgement judge_attempt(Reader& reader, int attempt, Against against = Against::BaselineThen);
Judgement judge_run(Reader& reader, const core::RunRecord& run, Against against = Against::BaselineThen);
// A set of one benchmark's runs of the plan against that benchmark's baseline, on `metric` (empty:
// the plan's first measure of the benchmark, else its primary metric).
Judgement judge_set(Reader& reader, const std::string& plan, RunSet candidate, Against against,
                    const std::string& metric = "");

// How `ej compare` came by its two sides, for judging them as a verdict is judged.
struct ComparisonSides {
  VerdictDesign design;             // sequential with the distance in time, or one session's two runs
  std::string plan;                 // the candidate's attempt's plan; empty when it belongs to none
  std::string against = "baseline"; // the reference as `ej run --against` takes it: baseline, r5, #12
  std::string side = "baseline";    // how its integrity names the reference: baseline or reference
  // The session whose pairs the report took (ej compare ATTEMPT, as judge): its wall_s is checked
  // against the timer on those pairs too; nullptr when none.
  const InterleavedVerdict* paired = nullptr;
};

// What a comparison says besides its figures (docs/json.md, Comparisons): whether they can be
// believed, how the sides were measured, what would make it decisive.
struct ComparisonJudgement {
  Integrity integrity;
  VerdictDesign design;
  // Decided on the judged metric alone, as an attempt's verdict is: its headline combination, else
  // its series with Benjamini-Hochberg across them; the report's other metrics never decide.
  measure::Outcome outcome = measure::Outcome::Inconclusive;
  std::vector<NextStep> next;
};

// `report` of two sets (ej compare) judged as a verdict is, on the metric an attempt's verdict
// judges (the plan's measure of the benchmark when the report has it, else its first metric: the
// primary one, or the one asked for), with the same integrity checks and next steps. An invalid
// comparison is no outcome: every series of `report` becomes inconclusive.
ComparisonJudgement judge_comparison(Reader& reader, const RunSet& reference, const RunSet& candidate,
                                     ComparisonReport& report, const ComparisonSides& sides);

// The baseline run of `bench` in force at `time_ms` in a plan's history (oldest first): the last one
// pinned by then, else the first one pinned after (a run made before any baseline is judged against
// the first). The current one with Against::CurrentBaseline.
std::optional<int> baseline_for(const std::vector<core::BaselineRecord>& history, const std::string& bench,
                                std::int64_t time_ms, Against against);

} // namespace ej::evidence
