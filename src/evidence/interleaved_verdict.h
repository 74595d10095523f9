#pragma once

#include "evidence/calibration.h"
#include "evidence/integrity.h"
#include "evidence/next_step.h"
#include "measure/comparison.h"
#include "measure/paired.h"
#include "measure/statistics.h"
#include "store/database.h"
#include "store/interleaved_queries.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// The verdict of an interleaved comparison (ej run --against): judged on the pairs, never on the
// two runs as independent samples. Per round, the log of candidate / reference (differences for a
// metric that is not positive); the Hodges-Lehmann estimate, its signed-rank interval and the
// signed-rank test of those values (measure/paired.h). With --until-decisive the interval is the
// repeated one of the rule that stopped the rounds (measure/until_decisive.h), replayed on the same
// values, so that the verdict keeps the rule's guarantee.
namespace ej::evidence {

struct PairedVerdict {
  std::string params; // the combination, as recorded (JSON)
  std::string metric;
  std::string key;
  std::string unit;
  measure::Direction direction = measure::Direction::LowerIsBetter;
  measure::PairedScale scale = measure::PairedScale::LogRatio;
  double reference_level =
      0; // |median| of the reference's values: a difference's min effect is a share of it
  double reference_median = 0; // of each side's figures in the rounds
  double candidate_median = 0;
  std::size_t rounds = 0;
  double estimate = 0; // on the per-round scale: a log ratio, or a difference in `unit`
  double low = 0;
  double high = 0;
  double confidence = 0.95;
  double p_value = 1;
  bool exact = false;
  measure::Outcome outcome = measure::Outcome::Inconclusive; // never Mixed
  // The outcome on the figures alone, before an invalid session (its sides' outputs differ) made
  // `outcome` inconclusive: what a regression gate and bisect go by. nullopt: `outcome`.
  std::optional<measure::Outcome> figures_outcome;
  measure::Outcome outcome_on_figures() const { return figures_outcome.value_or(outcome); }
  std::optional<std::size_t> rounds_needed; // --until-decisive, inconclusive: what a plan would need
  // The noise of one round on the scale, as the fixed-sample interval implies it (measure/power.h):
  // what the rounds of a next session are sized at without a calibration. nullopt below two rounds.
  std::optional<double> noise;
};

struct InterleavedVerdict {
  int candidate = 0; // run numbers
  int reference = 0;
  std::string bench;
  std::optional<int> attempt; // the candidate run's
  store::events::ComparisonInterleaved design;
  std::string primary;               // the metric the outcome is over: the comparison's, else the primary one
  double min_effect_pct = 0;         // the comparison's, else the benchmark's
  std::vector<PairedVerdict> series; // every metric, combination and key measured on both sides
  // Over the primary metric's series: each one's when they agree, mixed when some improved and some
  // regressed, else improved / regressed when any did, equivalent when all are, else inconclusive.
  // A series counts as improved / regressed here only when its signed-rank p-value also passes
  // Benjamini-Hochberg at the session's alpha across the primary series (primary_discoveries).
  measure::Outcome outcome = measure::Outcome::Inconclusive;
  // Whether its figures can be believed (evidence/paired_integrity.h): an invalid one's series are all
  // inconclusive, whatever the pairs say. A calibration, the same code on both sides, is not held.
  Integrity integrity;
  std::vector<NextStep> next; // what would decide it (evidence/next_step.h)
  // The newest calibration of the benchmark in the candidate's environment, when it was read: what
  // the session could have detected, and the noise its next rounds are sized at.
  std::optional<Calibration> calibration;
};

// When judge_interleaved reads the calibration: only to size the rounds of an undecided session (a
// plan's document judges many sessions and shows neither), or always, for a report that says what
// the session could have detected.
enum class ReadCalibration { ToSizeRounds, Always };

// An outcome in the interleaved design's words, in its text and JSON: "equivalent" where a
// sequential comparison says "no change" (measure::to_string), the rest alike.
std::string_view paired_outcome_text(measure::Outcome outcome);

InterleavedVerdict judge_interleaved(store::Database& db, const store::InterleavedRecord& record,
                                     ReadCalibration read = ReadCalibration::ToSizeRounds);

// The primary metric's series of the verdict, in order, each with whether its p-value is a
// Benjamini-Hochberg discovery at the session's alpha among theirs (measure/false_discovery.h).
std::vector<std::pair<const PairedVerdict*, bool>> primary_discoveries(const InterleavedVerdict& verdict);

// The series' combination as people write it ("n=1,variant=naive"), "" without axes.
std::string paired_combination(const PairedVerdict& series);

// A value on the series' per-round scale as the change it means: "+3.1%" for a log ratio, "+0.5 ms"
// for a difference.
std::string paired_change_text(const PairedVerdict& series, double value);

// "improved: -3.1% [-3.6%, -2.6%] (interleaved, 20 rounds; signed-rank p = 0.0001)"
std::string paired_line(const InterleavedVerdict& verdict, const PairedVerdict& series);
// The report ej run --against and ej compare print: a heading line, then one line per series, what
// the session could have detected (with a calibration of its environment), the rounds a decision
// would likely need when it is undecided, and its design.
std::vector<std::string> interleaved_report(const InterleavedVerdict& verdict);
nlohmann::json to_json(const InterleavedVerdict& verdict);

} // namespace ej::evidence
