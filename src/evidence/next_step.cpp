#include "evidence/next_step.h"

#include "core/numbering.h"
#include "evidence/calibration.h"
#include "evidence/interleaved_verdict.h"
#include "evidence/verdict.h"
#include "measure/paired.h"
#include "measure/power.h"
#include "measure/until_decisive.h"
#include "util/shell_quote.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace ej::evidence {

namespace {

// A word as a shell reads it: bare when it is plain, quoted otherwise.
std::string word(const std::string& text)
{
  const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
           std::string_view("_.,:=/@+-").find(c) != std::string_view::npos;
  });
  return plain ? text : util::shell_quote(text);
}

// A comparison on the per-round scale of an interleaved session (measure/paired.h): log ratios for a
// positive metric, differences in the unit otherwise.
struct Scaled {
  measure::PairedScale scale = measure::PairedScale::LogRatio;
  double estimate = 0;
  std::optional<double> half_width; // of its interval, when it has one
  double reference_level = 0;
};

std::optional<Scaled> scaled(const measure::Comparison& c)
{
  Scaled out;
  out.reference_level = std::abs(c.reference_median);
  if (c.estimate == measure::Estimate::Ratio) {
    if (!c.ratio || !(*c.ratio > 0)) {
      return std::nullopt;
    }
    out.estimate = std::log(*c.ratio);
    if (c.ratio_low && c.ratio_high && *c.ratio_low > 0 && *c.ratio_high > 0) {
      out.half_width = (std::log(*c.ratio_high) - std::log(*c.ratio_low)) / 2;
    }
    return out;
  }
  if (!c.shift) {
    return std::nullopt;
  }
  out.scale = measure::PairedScale::Difference;
  out.estimate = *c.shift;
  if (c.shift_low && c.shift_high) {
    out.half_width = (*c.shift_high - *c.shift_low) / 2;
  }
  return out;
}

// A value of the per-round scale as the change it means: percent for a log ratio.
double in_units(double value, bool relative)
{
  return relative ? (std::exp(value) - 1) * 100 : value;
}

// How many rounds one undecided comparison needs, at which noise, to resolve which change.
struct Sizing {
  std::optional<std::size_t> rounds;
  std::optional<double> noise; // per round, on the scale
  double effect = 0;           // on the scale
  bool relative = true;
  std::optional<NoiseSource> source;
  bool too_many = false; // a noise is known but no number of rounds up to k_most_rounds will do
  std::string unit;      // of the series sized, for its figures
};

// An undecided comparison on the per-round scale, with the noise a round of it showed, if known.
struct Undecided {
  const std::string& metric;
  const std::string& unit;
  Scaled values;
  std::optional<double> observed_noise;
};

// `block`: the repeats of each side per round of the session proposed, whose noise the calibration's
// per-repeat figure is scaled to.
Sizing size_rounds(const Undecided& u, const Calibration* calibration, double min_effect_pct, int block = 1)
{
  Sizing out;
  out.unit = u.unit;
  const auto& values = u.values;
  out.relative = values.scale == measure::PairedScale::LogRatio;
  // The change to resolve: the estimate itself when it passes the min effect (to tell it from no
  // change), else its distance to the nearer edge of the min effect (to show that it stays within).
  const auto band = measure::effect_band(values.scale, min_effect_pct, values.reference_level);
  const double e = values.estimate;
  out.effect = e < band.low || e > band.high ? std::abs(e) : std::min(e - band.low, band.high - e);
  // The noise of one round: calibrated on this metric and scale, else the one the verdict observed.
  if (calibration != nullptr && calibration->metric == u.metric && calibration->relative == out.relative &&
      calibration->paired_noise > 0) {
    out.noise = calibration->paired_noise_in_blocks(block);
    out.source = NoiseSource::Calibration;
  } else if (u.observed_noise && *u.observed_noise > 0) {
    out.noise = u.observed_noise;
    out.source = NoiseSource::Observed;
  }
  if (!out.noise || !(*out.noise > 0)) {
    out.noise.reset();
    out.source.reset();
    return out;
  }
  out.rounds = measure::values_needed(*out.noise, out.effect, measure::Pairing::Paired, k_most_rounds);
  out.too_many = !out.rounds;
  if (out.rounds) {
    out.rounds = std::max(*out.rounds, k_fewest_rounds);
  }
  return out;
}

Sizing size_rounds(const SeriesComparison& s, const VerdictDesign& design, const Calibration* calibration,
                   double min_effect_pct)
{
  const auto values = scaled(s.comparison);
  if (!values) {
    return {}; // no estimate (one figure a side): nothing to size rounds from
  }
  // The noise this verdict's own interval implies. Two runs measured apart give one side's noise; a
  // round's pair has sqrt(2) of it.
  std::optional<double> observed;
  if (values->half_width && *values->half_width > 0) {
    const auto& c = s.comparison;
    if (design.kind == Design::Interleaved) {
      observed = measure::sigma_from_interval(*values->half_width, static_cast<double>(c.n_candidate),
                                              measure::Pairing::Paired, c.confidence);
    } else {
      const double a = static_cast<double>(c.n_reference);
      const double b = static_cast<double>(c.n_candidate);
      observed = std::sqrt(2.0) * measure::sigma_from_interval(*values->half_width, 2 * a * b / (a + b),
                                                               measure::Pairing::TwoSample, c.confidence);
    }
  }
  // An interleaved session's rounds are of its blocks, as the session proposed is (session_of).
  return size_rounds({s.metric, s.unit, *values, observed}, calibration, min_effect_pct,
                     design.kind == Design::Interleaved ? design.block : 1);
}

// The sizing that asks for the most rounds: what every one of the comparisons needs.
std::size_t rank(const Sizing& x)
{
  return x.too_many ? k_most_rounds + 2 : x.rounds ? *x.rounds : k_most_rounds + 1;
}

bool decided(measure::Outcome outcome)
{
  return outcome == measure::Outcome::Improved || outcome == measure::Outcome::Regressed ||
         outcome == measure::Outcome::NoChange;
}

// Whether more rounds may decide a series of an undecided whole: one inconclusive on its own, or
// one decisive on its own that false-discovery control left out of an inconclusive whole (more
// rounds may lift it; in a mixed whole, lifting it changes nothing). An inconclusive whole has no
// discovery among its decisive series (summarize_outcomes, InterleavedVerdict::outcome), so every
// one of them was left out.
bool rounds_may_decide(measure::Outcome series, measure::Outcome whole)
{
  const bool change = series == measure::Outcome::Improved || series == measure::Outcome::Regressed;
  return series == measure::Outcome::Inconclusive || (whole == measure::Outcome::Inconclusive && change);
}

// The comparison the rounds are sized on: the headline's, else (a sweep without one) the undecided
// combination that needs the most rounds; of a decided whole that a drift outweighs, the
// combination that needs the most rounds of all.
Sizing sizing_of(const Verdict& v, const Calibration* calibration, double min_effect_pct)
{
  if (const auto* head = v.headline_comparison()) {
    return size_rounds(*head, v.design, calibration, min_effect_pct);
  }
  // The judged metric's series first: a comparison that sums up wall_s too must not size the rounds
  // on the shell's timing noise while the metric the user cares about is what is undecided.
  const auto size_among = [&](bool judged_only) {
    std::optional<Sizing> most;
    for (const auto& s : v.combinations) {
      if ((judged_only && s.metric != v.metric) ||
          (!decided(v.outcome) && !rounds_may_decide(s.comparison.outcome, v.outcome))) {
        continue;
      }
      auto sizing = size_rounds(s, v.design, calibration, min_effect_pct);
      if (!most || rank(sizing) > rank(*most)) {
        most = sizing;
      }
    }
    return most;
  };
  auto most = size_among(true);
  return most ? *most : size_among(false).value_or(Sizing{});
}

std::string figure(double value, bool relative, const std::string& unit)
{
  return relative ? fmt::format("{:.2g}%", value)
                  : fmt::format("{:.3g}{}", value, unit.empty() ? "" : " " + unit);
}

// What a new session measures: the candidate's benchmark against a reference, the attempt's code.
struct Session {
  std::string bench;
  std::string against;        // as --against takes it
  std::optional<int> attempt; // the candidate's (--against measures its recorded code)
  // With no attempt, the run whose code --against must find in the work tree, which it measures.
  std::optional<int> candidate_run;
  // Repeats of each side per round: an interleaved verdict's own, so that the rounds proposed are of
  // the blocks whose noise sized them.
  int block = 1;
};

// "ej run BENCH --against REF --attempt N": a new session, of as many rounds as the benchmark repeats.
std::string session_command(const Session& session)
{
  auto command = "ej run " + word(session.bench) + " --against " + word(session.against);
  if (session.attempt) {
    command += fmt::format(" --attempt {}", *session.attempt);
  }
  if (session.block > 1) {
    command += fmt::format(" --block {}", session.block);
  }
  return command;
}

NextStep measure_step(const Session& session, NextKind kind, const Sizing& sizing, const std::string& opening)
{
  NextStep step;
  step.kind = kind;
  step.relative = sizing.relative;
  step.source = sizing.source;
  step.rounds = sizing.rounds;
  if (sizing.noise) {
    step.noise = std::abs(in_units(*sizing.noise, sizing.relative));
    step.effect = std::abs(in_units(sizing.effect, sizing.relative));
  }
  step.command = session_command(session);
  const auto& unit = sizing.unit;
  const auto noise_words = [&] {
    return fmt::format("at the {} noise of {} a round",
                       sizing.source == NoiseSource::Calibration ? "calibrated" : "observed",
                       figure(*step.noise, step.relative, unit));
  };
  if (sizing.rounds) {
    step.command += fmt::format(" --repeat {}", *sizing.rounds);
    step.why = fmt::format("{}: {} rounds detect a change of {} (80% power, 5% two-sided) {}", opening,
                           *sizing.rounds, figure(*step.effect, step.relative, unit), noise_words());
  } else if (sizing.too_many) {
    step.command += " --until-decisive";
    step.why = fmt::format("{}: a change of {} would take more than {} rounds {}; measure until decisive, "
                           "or give the benchmark a larger --min-effect",
                           opening, figure(*step.effect, step.relative, unit), k_most_rounds, noise_words());
  } else {
    step.command += " --until-decisive";
    step.why = opening + ": no noise to size the rounds at; measure until the verdict is decisive";
  }
  if (!session.attempt && session.candidate_run) {
    step.why += fmt::format("; it measures the work tree as the candidate, so run it with run {}'s code in "
                            "the work tree (its commit and diff: 'ej checkout r{} DIR' writes its files)",
                            core::number_label(*session.candidate_run), *session.candidate_run);
  }
  return step;
}

Session session_of(const Verdict& v, const std::string& against)
{
  // The candidate's attempt: --against measures its recorded code (0: a run of no attempt).
  const int attempt = v.candidate.runs.empty() ? 0 : v.candidate.runs.front().attempt.value_or(0);
  Session session;
  session.bench = v.candidate.bench;
  session.against = against;
  if (attempt > 0) {
    session.attempt = attempt;
  } else if (v.candidate.runs.size() == 1) {
    session.candidate_run = v.candidate.runs.front().number;
  }
  // A session's next rounds are of its own blocks, whose noise it observed.
  if (v.design.kind == Design::Interleaved) {
    session.block = v.design.block;
  }
  return session;
}

NextStep calibrate_step(const std::string& bench, const Sizing& sizing)
{
  NextStep calibrate;
  calibrate.kind = NextKind::Calibrate;
  calibrate.command = "ej calibrate " + word(bench);
  calibrate.why = fmt::format("{} has no calibration in this environment: {}", bench,
                              sizing.source ? "the rounds are sized at the noise this verdict observed"
                                            : "the noise to size rounds at is unknown");
  return calibrate;
}

NextStep choose_headline_step(const std::string& plan, const std::string& crossover)
{
  NextStep step;
  step.kind = NextKind::ChooseHeadline;
  step.command = fmt::format("ej plan edit {} --headline AXIS=VALUE", word(plan));
  step.why = "mixed over the sweep" + (crossover.empty() ? std::string() : " (" + crossover + ")") +
             ": no number of rounds decides a crossover; the plan's headline combination does (fill in "
             "AXIS=VALUE)";
  return step;
}

// A decisive verdict: nothing to add, unless it is a gain that nothing checked. The check makes a
// new revision of the benchmark, whose runs are not compared with the older one's: both code states
// are measured again, together (`session`).
NextStep decided_step(const std::string& outcome, bool improved, const Session& session, bool guarded)
{
  NextStep step;
  if (!improved || guarded) {
    step.why = fmt::format("decisive ({}): nothing to add", outcome);
    return step;
  }
  step.kind = NextKind::AddCheck;
  step.command = fmt::format("ej bench edit {} --check 'CMD'", word(session.bench));
  step.why = fmt::format(
      "{}, decisively, but benchmark {} has neither --check nor --same-output: a benchmark that skips its "
      "work or computes something else looks faster too; fill in CMD, a command that exits non-zero on a "
      "wrong result (or give --same-output stdout|@FILE|METRIC instead), then measure both code states "
      "again with '{}'",
      outcome, session.bench, session_command(session));
  return step;
}

std::string outcome_words(const Verdict& v)
{
  return std::string(measure::to_string(v.decisive_outcome()));
}

} // namespace

NextStep fix_figures_step(const Integrity& integrity)
{
  NextStep fix;
  fix.kind = NextKind::FixFigures;
  fix.why = integrity.validity == Validity::Invalid
                ? fmt::format("invalid: {}; fix the candidate, then measure again", integrity.invalid_reason)
                : fmt::format("the figures are suspect ({}); find out why before anything is adopted",
                              util::join(integrity.flags, "; "));
  return fix;
}

std::vector<NextStep> next_steps(const Verdict& v, const std::string& plan, const NextContext& context)
{
  // Figures that cannot be believed are not decided by more of them: what is wrong comes first.
  if (v.integrity.validity != Validity::Valid) {
    return {fix_figures_step(v.integrity)};
  }
  const auto outcome = v.decisive_outcome();
  const bool sequential = v.design.kind == Design::Sequential;
  // Two moments of a machine that drifts more than the change cannot decide it (evidence/proposal.h).
  const bool drift_decides = sequential && v.calibration && v.calibration->drift_exceeds_change;
  if (decided(outcome) && !drift_decides) {
    return {decided_step(outcome_words(v), outcome == measure::Outcome::Improved,
                         session_of(v, context.against), context.guarded)};
  }
  if (outcome == measure::Outcome::Mixed && !plan.empty()) {
    return {choose_headline_step(plan, v.crossover)};
  }
  const auto sizing = sizing_of(v, context.calibration, context.min_effect_pct);
  std::vector<NextStep> steps;
  if (!sequential) {
    steps.push_back(measure_step(session_of(v, context.against), NextKind::MeasureMore, sizing,
                                 fmt::format("inconclusive after {} rounds", v.design.rounds)));
  } else {
    const auto opening =
        drift_decides ? fmt::format("{}, but the machine drifted {} in calibration, more than the change; "
                                    "measure both code states together",
                                    outcome_words(v), v.calibration->drift)
                      : fmt::format("{} on two runs measured apart; measure both code states together",
                                    outcome_words(v));
    steps.push_back(measure_step(session_of(v, context.against), NextKind::MeasureAgainst, sizing, opening));
  }
  if (sizing.source != NoiseSource::Calibration) {
    steps.push_back(calibrate_step(v.candidate.bench, sizing));
  }
  return steps;
}

std::vector<NextStep> paired_next_steps(const InterleavedVerdict& v, const std::string& plan,
                                        const NextContext& context)
{
  if (v.integrity.validity != Validity::Valid) {
    return {fix_figures_step(v.integrity)}; // as for a sequential verdict
  }
  if (v.design.purpose == "calibration") {
    NextStep none;
    none.why = "a calibration (ej calibrate): the same code on both sides, measured for its noise; nothing "
               "to decide";
    return {none};
  }
  if (v.design.purpose == "bisect") {
    // `ej run --against GOOD` would measure the work tree, not the commit the bisection restored.
    NextStep none;
    none.why = "a step of ej bisect, which chooses the next commit to measure itself; its report says where "
               "the step lies";
    return {none};
  }
  // Measured again against the same code: the reference run's (a revision such as HEAD~1 moves on
  // once the user commits), or the plan's baseline, which is what the verdict is about.
  Session session;
  session.bench = v.bench;
  session.against =
      v.design.reference_name == "baseline" ? std::string("baseline") : "r" + std::to_string(v.reference);
  session.attempt = v.attempt;
  if (!v.attempt) {
    session.candidate_run = v.candidate;
  }
  session.block = v.design.block;
  if (decided(v.outcome)) {
    return {decided_step(std::string(paired_outcome_text(v.outcome)), v.outcome == measure::Outcome::Improved,
                         session, context.guarded)};
  }
  if (v.outcome == measure::Outcome::Mixed && !plan.empty()) {
    return {choose_headline_step(plan, "")};
  }
  // Inconclusive (or a mixed sweep of no plan, whose undecided combinations more rounds may decide):
  // sized on the primary metric's undecided series that needs the most rounds.
  std::optional<Sizing> most;
  const PairedVerdict* sized = nullptr;
  for (const auto& series : v.series) {
    if (series.metric != v.primary || !rounds_may_decide(series.outcome, v.outcome)) {
      continue;
    }
    const Scaled values{series.scale, series.estimate, std::nullopt, series.reference_level};
    auto sizing = size_rounds({series.metric, series.unit, values, series.noise}, context.calibration,
                              context.min_effect_pct, v.design.block);
    if (!most || rank(sizing) > rank(*most)) {
      most = sizing;
      sized = &series;
    }
  }
  if (!most) {
    // Mixed with every combination decided: no round changes it, and no plan to choose a headline in.
    // Or no series of the primary metric at all (every value skipped): no round of it to add.
    NextStep none;
    none.why = v.outcome == measure::Outcome::Mixed
                   ? "mixed: every combination is decided, some improved and some regressed; no number of "
                     "rounds changes that"
                   : fmt::format("no series of {} was measured on both sides; more rounds of the same would "
                                 "measure none either: see why in the runs ('ej show run {}')",
                                 v.primary, v.candidate);
    return {none};
  }
  std::vector<NextStep> steps;
  steps.push_back(
      measure_step(session, NextKind::MeasureMore, *most,
                   fmt::format("{} after {} rounds", paired_outcome_text(v.outcome), sized->rounds)));
  if (most->source != NoiseSource::Calibration) {
    steps.push_back(calibrate_step(v.bench, *most));
  }
  return steps;
}

std::vector<NextStep> pin_baseline_steps(const std::string& plan, const std::string& bench,
                                         std::optional<int> run)
{
  NextStep step;
  step.kind = NextKind::PinBaseline;
  step.run = run;
  if (run) {
    step.command = fmt::format("ej plan baseline {} --run {}", word(plan), *run);
    step.why = fmt::format("plan {} has no baseline for benchmark {}: pin run {}, its newest finished run "
                           "outside any attempt, or another run of the baseline's code",
                           plan, bench, core::number_label(*run));
  } else {
    step.command = "ej run " + word(bench);
    step.why = fmt::format("plan {} has no baseline for benchmark {}: measure the baseline's code (without "
                           "--attempt), then pin that run with 'ej plan baseline {} --run N'",
                           plan, bench, plan);
  }
  return {step};
}

std::string_view to_string(NextKind kind)
{
  switch (kind) {
  case NextKind::None:
    return "none";
  case NextKind::MeasureMore:
    return "measure_more";
  case NextKind::MeasureAgainst:
    return "measure_against";
  case NextKind::Calibrate:
    return "calibrate";
  case NextKind::PinBaseline:
    return "pin_baseline";
  case NextKind::ChooseHeadline:
    return "choose_headline";
  case NextKind::FixFigures:
    return "fix_figures";
  case NextKind::AddCheck:
    return "add_check";
  }
  return "none";
}

nlohmann::json next_json(const std::vector<NextStep>& steps)
{
  const auto number = [](const std::optional<double>& x) {
    return x ? nlohmann::json(*x) : nlohmann::json();
  };
  auto out = nlohmann::json::array();
  for (const auto& s : steps) {
    const bool sized = s.noise.has_value();
    out.push_back({{"kind", to_string(s.kind)},
                   {"command", s.command.empty() ? nlohmann::json() : nlohmann::json(s.command)},
                   {"why", s.why},
                   {"rounds", s.rounds ? nlohmann::json(*s.rounds) : nlohmann::json()},
                   {"noise", number(s.noise)},
                   {"effect", number(s.effect)},
                   {"scale", sized ? nlohmann::json(s.relative ? "percent" : "unit") : nlohmann::json()},
                   {"source", s.source ? nlohmann::json(*s.source == NoiseSource::Calibration ? "calibration"
                                                                                              : "observed")
                                       : nlohmann::json()},
                   {"run", s.run ? nlohmann::json(*s.run) : nlohmann::json()}});
  }
  return out;
}

} // namespace ej::evidence
