#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

// What would make a verdict decisive, as actions an agent can take without reading prose
// (docs/json.md, "What to do next"): the rounds an interleaved session needs at the calibrated (or
// observed) noise, a calibration to measure, a baseline to pin, a check to add; or nothing, once it
// is decisive.
namespace ej::evidence {

struct Calibration;
struct Integrity;
struct InterleavedVerdict;
struct Verdict;

enum class NextKind {
  None,           // decisive: nothing to add
  MeasureMore,    // an interleaved verdict that is not decisive: a session of more rounds
  MeasureAgainst, // a sequential verdict: measure both code states together, interleaved
  Calibrate,      // no calibration in the candidate's environment: the noise is only guessed
  PinBaseline,    // no baseline for the benchmark: nothing to judge against
  ChooseHeadline, // a sweep that wins somewhere and loses elsewhere, with no headline to decide
  FixFigures,     // invalid or suspect figures (evidence/integrity.h): more rounds of them decide nothing
  AddCheck,       // a decisive gain of a benchmark with neither --check nor --same-output: nothing tells
                  // a faster wrong result from a faster right one
};

// Where the noise the rounds are sized at comes from.
enum class NoiseSource { Calibration, Observed };

struct NextStep {
  NextKind kind = NextKind::None;
  std::string command; // what to run; empty for None
  std::string why;     // one sentence
  // MeasureMore and MeasureAgainst: the rounds of one repeat a side, sized so that the smallest change
  // detected with 80% power at 5% (two-sided) is `effect`, at the per-round noise `noise`; empty
  // when the noise is unknown or no number of rounds up to k_most_rounds would do.
  std::optional<std::size_t> rounds;
  std::optional<double> noise;  // per-round standard deviation: percent, or the metric's unit
  std::optional<double> effect; // the change to resolve, likewise
  bool relative = true;         // noise and effect in percent
  std::optional<NoiseSource> source;
  std::optional<int> run; // PinBaseline: the run proposed as the baseline
};

// The most rounds a proposal names: beyond, the change is too small to resolve at that noise.
inline constexpr std::size_t k_most_rounds = 1000;
// The fewest: an exact two-sided signed-rank test at 5% can decide from six rounds on.
inline constexpr std::size_t k_fewest_rounds = 6;

// What the steps of a verdict are worked out from, besides the verdict.
struct NextContext {
  const Calibration* calibration = nullptr; // the newest of the benchmark in the candidate's environment
  double min_effect_pct = 0;                // the benchmark's
  bool guarded = false;                     // the benchmark has a --check or a --same-output
  std::string against = "baseline";         // what a new session measures the candidate against
};

// The steps of a verdict of `plan`, the first one first; [None] when it is decisive (a decisive
// gain of a benchmark that is not guarded: [AddCheck]).
std::vector<NextStep> next_steps(const Verdict& verdict, const std::string& plan, const NextContext& context);

// The steps of an interleaved comparison's verdict (ej compare, ej run --against, ej ci), sized on
// its pairs: the primary metric's series decide. `plan`: of the candidate's attempt, empty when it
// belongs to none (a sweep that is mixed then has no headline to choose). The context's min effect:
// the one the verdict was judged on. Figures that cannot be believed: [FixFigures], as for a verdict.
std::vector<NextStep> paired_next_steps(const InterleavedVerdict& verdict, const std::string& plan,
                                        const NextContext& context);

// The one step of a verdict whose figures cannot be believed (evidence/integrity.h), invalid or
// suspect: fix them, since more rounds of such figures decide nothing.
NextStep fix_figures_step(const Integrity& integrity);

// The step when a benchmark of a plan has no baseline: pin `run` (a finished run of the benchmark
// that belongs to no attempt), or without one, measure the baseline's code first.
std::vector<NextStep> pin_baseline_steps(const std::string& plan, const std::string& bench,
                                         std::optional<int> run);

// "none", "measure_more", "measure_against", "calibrate", "pin_baseline", "choose_headline",
// "fix_figures", "add_check"
std::string_view to_string(NextKind kind);
// `next` of docs/json.md: an array of {kind, command, why, rounds, noise, effect, scale, source, run}.
nlohmann::json next_json(const std::vector<NextStep>& steps);

} // namespace ej::evidence
