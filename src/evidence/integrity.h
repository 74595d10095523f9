#pragma once

#include "evidence/compare_sets.h"
#include "evidence/metric_rules.h"
#include "evidence/series.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Whether a verdict's figures can be believed (docs/statistics.md, "Results that can't be gamed"):
// the candidate's output equal to the reference's (--same-output), values within the physical
// bounds of their metrics (--floor), and the benchmark's own timer in step with the wall time ej
// measured of the same repeats.
namespace ej::evidence {

// valid: nothing against it. suspect: flagged (an implausible value, timers that disagree): it
// stands, but proposes no adoption. invalid: its outputs differ, so its outcome is not a
// measurement of the same work: never better than anything, never adopted.
enum class Validity { Valid, Suspect, Invalid };

std::string_view to_string(Validity validity);

struct Integrity {
  Validity validity = Validity::Valid;
  std::string invalid_reason;     // "output differs from the baseline's at size=2 (stdout digest)"
  std::vector<std::string> flags; // each a sentence
};

// The value of `what` (a series' label) in `unit` that lies beyond its floor on the metric's better
// side, in words; nullopt when within, or when its unit cannot be held against the floor's.
std::optional<std::string> beyond_floor(const MetricRules::Floor& floor, measure::Direction direction,
                                        const std::string& what, double value, const std::string& unit);

// Every series whose best value lies beyond its metric's floor, in words.
std::vector<std::string> floor_flags(const std::vector<SeriesSummary>& series, const MetricRules& rules);

// The floor flags of both sides: the candidate's, then the reference's, which end ", in the
// baseline" (`side`).
std::vector<std::string> sides_floor_flags(const std::vector<SeriesSummary>& reference,
                                           const std::vector<SeriesSummary>& candidate,
                                           const MetricRules& rules, std::string_view side);

// --same-output of stdout or a file: the digests stored with each side's runs (outputs.same_output),
// combination by combination. Pure: the caller reads the outputs. `side` names the side held
// against in the reason: "baseline" for a verdict, "reference" for an interleaved comparison.
std::optional<std::string> digests_differ(const std::vector<nlohmann::json>& reference_outputs,
                                          const std::vector<nlohmann::json>& candidate_outputs,
                                          std::string_view side = "baseline");

// --same-output METRIC: the candidate's median of the metric against the reference's, within the
// tolerance, combination by combination.
std::optional<std::string> metric_differs(const std::vector<SeriesSummary>& reference,
                                          const std::vector<SeriesSummary>& candidate,
                                          const core::SameOutput& same, std::string_view side = "baseline");

// Combinations where the judged metric (a time the benchmark reported) improved decisively while
// wall_s of the same repeats regressed decisively, by 10% and by k_wall_jitter_s at least.
inline constexpr double k_wall_jitter_s = 0.005;
std::vector<std::string> timer_disagreements(const std::vector<SeriesComparison>& judged,
                                             const std::vector<SeriesComparison>& wall);

// What the checks found, as a verdict's integrity: invalid when `differs` says how the outputs
// differ, else suspect when any flag doubts the figures, else valid.
Integrity integrity_of(std::optional<std::string> differs, std::vector<std::string> flags);

// What is wrong with the figures in words: "invalid: REASON", "flagged: FLAG; FLAG", both joined by
// "; ", or "" when nothing is.
std::string integrity_text(const Integrity& integrity);

} // namespace ej::evidence
