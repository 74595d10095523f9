#include "evidence/interleaved_verdict.h"

#include "core/numbering.h"
#include "evidence/calibration.h"
#include "evidence/metric_rules.h"
#include "evidence/paired_integrity.h"
#include "evidence/run_set.h"
#include "measure/false_discovery.h"
#include "measure/power.h"
#include "measure/until_decisive.h"
#include "measuring/interleaved_pairs.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "util/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace ej::evidence {

namespace {

// The rule UntilDecisive applies, on a fixed-sample interval: the same outcomes whichever design.
using measure::Outcome;

Outcome decide(const PairedVerdict& v, const measure::EffectBand& band)
{
  const bool lower_better = v.direction == measure::Direction::LowerIsBetter;
  const bool below = v.high < 0 && v.estimate < band.low;
  const bool above = v.low > 0 && v.estimate > band.high;
  if (below || above) {
    return below == lower_better ? Outcome::Improved : Outcome::Regressed;
  }
  if (v.low >= band.low && v.high <= band.high && band.low < band.high) {
    return Outcome::NoChange;
  }
  return Outcome::Inconclusive;
}

// What the rule decided, as an outcome: one still going on has decided nothing.
Outcome outcome_of(measure::Decision decision)
{
  switch (decision) {
  case measure::Decision::Improved:
    return Outcome::Improved;
  case measure::Decision::Regressed:
    return Outcome::Regressed;
  case measure::Decision::Equivalent:
    return Outcome::NoChange;
  case measure::Decision::GoOn:
  case measure::Decision::Inconclusive:
    return Outcome::Inconclusive;
  }
  return Outcome::Inconclusive;
}

Outcome overall(const std::vector<Outcome>& outcomes)
{
  if (outcomes.empty()) {
    return Outcome::Inconclusive;
  }
  const auto count = [&](Outcome what) { return std::count(outcomes.begin(), outcomes.end(), what); };
  const auto n = static_cast<std::ptrdiff_t>(outcomes.size());
  if (count(Outcome::Improved) > 0 && count(Outcome::Regressed) > 0) {
    return Outcome::Mixed;
  }
  if (count(Outcome::Improved) > 0) {
    return Outcome::Improved;
  }
  if (count(Outcome::Regressed) > 0) {
    return Outcome::Regressed;
  }
  return count(Outcome::NoChange) == n ? Outcome::NoChange : Outcome::Inconclusive;
}

// "could detect ±1.8% at 20 rounds (x, calibrated by runs #1 and #2)": at the calibrated noise of
// the primary metric and the fewest rounds of its series (a sweep stopped when decisive gives each
// combination its own), what every series could see. Empty without a calibration of that metric on
// the series' scale.
std::string detectable_text(const InterleavedVerdict& verdict)
{
  const auto& c = verdict.calibration;
  if (!c || c->metric != verdict.primary) {
    return "";
  }
  std::optional<std::size_t> fewest;
  for (const auto& v : verdict.series) {
    if (v.metric == verdict.primary && (v.scale == measure::PairedScale::LogRatio) == c->relative) {
      fewest = std::min(fewest.value_or(v.rounds), v.rounds);
    }
  }
  if (!fewest || *fewest < 2) {
    return ""; // one round: no test, nothing it could detect
  }
  return could_detect_text(c->amount(c->detectable_interleaved(*fewest, verdict.design.block)), *fewest, true) +
         fmt::format(" ({}, calibrated by runs {} and {})", c->metric, core::number_label(c->candidate),
                     core::number_label(c->reference));
}

// An undecided session's rounds to a decision, when no line of a series says them (the rule projects
// them only at its planned maximum, not when the budget stopped it): the figure of `next`, whose
// command measures them.
std::string rounds_to_decide(const InterleavedVerdict& verdict)
{
  for (const auto& v : verdict.series) {
    if (v.rounds_needed) {
      return "";
    }
  }
  if (verdict.next.empty() || verdict.next.front().kind != NextKind::MeasureMore ||
      !verdict.next.front().rounds) {
    return "";
  }
  return fmt::format("a decision would likely need about {} rounds ('{}')", *verdict.next.front().rounds,
                     verdict.next.front().command);
}

std::string where(const PairedVerdict& v)
{
  std::string out = v.metric;
  if (!v.key.empty()) {
    out += "[" + v.key + "]";
  }
  const auto combination = paired_combination(v);
  if (!combination.empty()) {
    out += " (" + combination + ")";
  }
  return out;
}

} // namespace

std::string_view paired_outcome_text(measure::Outcome outcome)
{
  return outcome == Outcome::NoChange ? "equivalent" : measure::to_string(outcome);
}

InterleavedVerdict judge_interleaved(store::Database& db, const store::InterleavedRecord& record,
                                     ReadCalibration read)
{
  InterleavedVerdict out;
  out.candidate = record.candidate;
  out.reference = record.reference;
  out.design = record.design;
  const auto run = store::find_run(db, record.candidate);
  if (!run) {
    throw Error("run {} of an interleaved comparison is missing; run 'ej fsck'",
                core::number_label(record.candidate));
  }
  out.bench = run->bench;
  out.attempt = run->attempt;
  const auto bench = store::find_bench_revision(db, run->bench, run->revision);
  if (!bench) {
    throw Error("benchmark {} r{} of run {} is missing; run 'ej fsck'", run->bench, run->revision,
                core::number_label(record.candidate));
  }
  std::vector<std::string> damage;
  const auto rules = rules_of(core::bench_definition_from_json(bench->definition, damage));
  // ej bisect's comparisons stopped on the metric and minimum effect they record: judged on them.
  out.primary = record.design.metric.empty() ? rules.primary : record.design.metric;
  out.min_effect_pct = record.design.min_effect_pct.value_or(rules.min_effect_pct);
  // The rounds of each combination: a decisive rule stopped each on its own.
  std::map<std::string, std::vector<store::events::ComparisonInterleaved::Round>> by_combination;
  for (const auto& round : record.design.rounds) {
    by_combination[round.params].push_back(round);
  }
  for (const auto& [params, rounds] : by_combination) {
    for (const auto& series : measuring::paired_series(db, record.candidate, record.reference, rounds)) {
      PairedVerdict v;
      v.params = series.params;
      v.metric = series.metric;
      v.key = series.key;
      v.unit = series.unit;
      v.direction = rules.direction_of(series.metric, series.unit);
      const auto paired = measure::paired_values(series.candidate, series.reference);
      v.scale = paired.scale;
      v.rounds = paired.values.size();
      v.reference_median = measure::median(series.reference);
      v.candidate_median = measure::median(series.candidate);
      v.reference_level = std::abs(v.reference_median);
      const auto band = measure::effect_band(paired.scale, out.min_effect_pct, v.reference_level);
      const auto fixed = measure::compare_paired(paired.values);
      v.p_value = fixed.p_value;
      v.exact = fixed.exact;
      if (const double half = (fixed.high - fixed.low) / 2;
          v.rounds >= 2 && std::isfinite(half) && half > 0) {
        v.noise = measure::sigma_from_interval(half, static_cast<double>(v.rounds), measure::Pairing::Paired,
                                               fixed.confidence);
      }
      if (record.design.max_rounds > 0 && v.rounds <= static_cast<std::size_t>(record.design.max_rounds)) {
        measure::UntilDecisiveOptions options;
        options.direction = v.direction;
        options.min_effect = band;
        options.alpha = record.design.alpha;
        options.max_rounds = static_cast<std::size_t>(record.design.max_rounds);
        measure::UntilDecisive rule(options);
        for (const double value : paired.values) {
          rule.add(value);
        }
        const auto state = rule.state();
        v.estimate = state.estimate;
        v.low = state.low;
        v.high = state.high;
        v.confidence = state.confidence;
        v.rounds_needed = state.rounds_needed;
        v.outcome = outcome_of(state.decision);
      } else {
        v.estimate = fixed.estimate;
        v.low = fixed.low;
        v.high = fixed.high;
        v.confidence = fixed.confidence;
        v.outcome = decide(v, band);
      }
      out.series.push_back(std::move(v));
    }
  }
  // A series decisive on its own that is no discovery across the primary series counts as
  // inconclusive overall; its own outcome stays.
  std::vector<Outcome> primary_outcomes;
  for (const auto& [v, discovery] : primary_discoveries(out)) {
    const bool change = v->outcome == Outcome::Improved || v->outcome == Outcome::Regressed;
    primary_outcomes.push_back(change && !discovery ? Outcome::Inconclusive : v->outcome);
  }
  out.outcome = overall(primary_outcomes);
  const auto reference_run = store::find_run(db, record.reference);
  if (reference_run && out.design.purpose != "calibration") {
    out.integrity = paired_integrity(db, *run, *reference_run, out.series, out.primary, rules);
  }
  if (out.integrity.validity == Validity::Invalid) {
    // The sides did different work: no figure of it is a change of the same work.
    for (auto& v : out.series) {
      v.figures_outcome = v.outcome;
      v.outcome = Outcome::Inconclusive;
      v.rounds_needed.reset();
    }
    out.outcome = Outcome::Inconclusive;
  }
  std::string plan;
  if (run->attempt) {
    if (const auto attempt = store::find_attempt(db, *run->attempt)) {
      plan = attempt->plan;
    }
  }
  // What would decide it: rounds sized at the calibration of the candidate's environment when there
  // is one (read only when rounds are to be sized, or asked for: a plan's document judges many sessions).
  const bool undecided = out.outcome == Outcome::Inconclusive || out.outcome == Outcome::Mixed;
  if ((undecided || read == ReadCalibration::Always) && out.design.purpose.empty() &&
      out.integrity.validity == Validity::Valid) {
    out.calibration = latest_calibration(db, run->bench, run->env_blob, run->revision);
  }
  out.next = paired_next_steps(
      out, plan, {out.calibration ? &*out.calibration : nullptr, out.min_effect_pct, rules.guarded()});
  // A side that failed its check or measured impossible figures is not decided by the rounds before:
  // what is wrong comes first, as for a sequential verdict.
  for (const auto* side : {&*run, reference_run ? &*reference_run : nullptr}) {
    if (side && (side->status == core::RunStatus::CheckFailed || side->status == core::RunStatus::Invalid)) {
      NextStep fix;
      fix.kind = NextKind::FixFigures;
      fix.why = fmt::format("run {} ended {}: {}; fix it, then measure both code states again",
                            core::number_label(side->number), core::to_string(side->status), side->reason);
      out.next = {fix};
      break;
    }
  }
  return out;
}

std::vector<std::pair<const PairedVerdict*, bool>> primary_discoveries(const InterleavedVerdict& verdict)
{
  std::vector<const PairedVerdict*> primary;
  std::vector<std::optional<double>> p_values;
  for (const auto& v : verdict.series) {
    if (v.metric == verdict.primary) {
      primary.push_back(&v);
      p_values.push_back(v.p_value);
    }
  }
  // The alpha the session's outcomes were decided at: the fixed interval's 95% or the rule's alpha.
  const auto passes = measure::passes_false_discovery(p_values, verdict.design.alpha);
  std::vector<std::pair<const PairedVerdict*, bool>> out;
  for (std::size_t i = 0; i < primary.size(); ++i) {
    out.emplace_back(primary[i], passes[i]);
  }
  return out;
}

std::string paired_combination(const PairedVerdict& v)
{
  // Recorded as the repeats record it: a JSON object of the axes' values.
  const auto json = nlohmann::json::parse(v.params, nullptr, false);
  if (!json.is_object()) {
    return v.params;
  }
  core::ParamValues values;
  for (const auto& [axis, value] : json.items()) {
    values[axis] = value.is_string() ? value.get<std::string>() : value.dump();
  }
  return core::describe(values);
}

std::string paired_change_text(const PairedVerdict& v, double x)
{
  if (!std::isfinite(x)) {
    return x < 0 ? "-inf" : "+inf";
  }
  if (v.scale == measure::PairedScale::LogRatio) {
    return fmt::format("{:+.1f}%", (std::exp(x) - 1) * 100);
  }
  return fmt::format("{:+.4g} {}", x, v.unit);
}

std::string paired_line(const InterleavedVerdict& verdict, const PairedVerdict& v)
{
  const auto design =
      verdict.design.max_rounds > 0
          ? fmt::format("interleaved, {} round{}, until decisive (at most {}, alpha {:g})", v.rounds,
                        v.rounds == 1 ? "" : "s", verdict.design.max_rounds, verdict.design.alpha)
          : fmt::format("interleaved, {} round{}", v.rounds, v.rounds == 1 ? "" : "s");
  // An early look of an until-decisive session can have no bound at all: say so, not "[-inf, +inf]".
  const auto interval =
      std::isfinite(v.low) || std::isfinite(v.high)
          ? fmt::format("[{}, {}]", paired_change_text(v, v.low), paired_change_text(v, v.high))
          : fmt::format("(no bound yet after {} round{})", v.rounds, v.rounds == 1 ? "" : "s");
  auto line =
      fmt::format("{}: {} {} {} ({}; signed-rank p = {:.2g})", where(v), paired_outcome_text(v.outcome),
                  paired_change_text(v, v.estimate), interval, design, v.p_value);
  if (v.rounds_needed) {
    line += fmt::format("; a decision would likely need about {} rounds", *v.rounds_needed);
  }
  return line;
}

std::vector<std::string> interleaved_report(const InterleavedVerdict& verdict)
{
  std::vector<std::string> lines;
  lines.push_back(fmt::format("run {} against run {} ({}), interleaved: {}{}",
                              core::number_label(verdict.candidate), core::number_label(verdict.reference),
                              verdict.design.reference_name, paired_outcome_text(verdict.outcome),
                              verdict.min_effect_pct > 0
                                  ? fmt::format(" (min effect {:g}%)", verdict.min_effect_pct)
                                  : std::string()));
  // What is wrong with the figures comes before them.
  if (const auto doubt = integrity_text(verdict.integrity); !doubt.empty()) {
    lines.push_back("  " + doubt);
  }
  for (const auto& series : verdict.series) {
    lines.push_back("  " + paired_line(verdict, series));
  }
  const auto primary = primary_discoveries(verdict);
  for (const auto& [v, discovery] : primary) {
    if (!discovery && (v->outcome == Outcome::Improved || v->outcome == Outcome::Regressed)) {
      lines.push_back(
          fmt::format("  {}: {} on its own (p = {:.2g}), but no discovery at a false-discovery rate "
                      "of {:g} across the {} {} series (Benjamini-Hochberg): left out of the "
                      "overall outcome",
                      where(*v), paired_outcome_text(v->outcome), v->p_value, verdict.design.alpha,
                      primary.size(), verdict.primary));
    }
  }
  for (const auto& line : {detectable_text(verdict), rounds_to_decide(verdict)}) {
    if (!line.empty()) {
      lines.push_back("  " + line);
    }
  }
  lines.push_back(fmt::format(
      "  design: {} round{} of {} repeat{} a side, order drawn from seed {}, stopped: {}",
      verdict.design.rounds.size(), verdict.design.rounds.size() == 1 ? "" : "s", verdict.design.block,
      verdict.design.block == 1 ? "" : "s", verdict.design.seed, core::to_string(verdict.design.stopped)));
  return lines;
}

nlohmann::json to_json(const InterleavedVerdict& verdict)
{
  auto series = nlohmann::json::array();
  for (const auto& v : verdict.series) {
    series.push_back({{"params", nlohmann::json::parse(v.params, nullptr, false)},
                      {"metric", v.metric},
                      {"key", v.key},
                      {"unit", v.unit},
                      {"scale", v.scale == measure::PairedScale::LogRatio ? "log-ratio" : "difference"},
                      {"rounds", v.rounds},
                      {"estimate", v.estimate},
                      {"low", std::isfinite(v.low) ? nlohmann::json(v.low) : nlohmann::json()},
                      {"high", std::isfinite(v.high) ? nlohmann::json(v.high) : nlohmann::json()},
                      {"confidence", v.confidence},
                      {"p_value", v.p_value},
                      {"exact", v.exact},
                      {"outcome", paired_outcome_text(v.outcome)}});
  }
  return {{"design", "interleaved"},
          {"candidate", verdict.candidate},
          {"reference", verdict.reference},
          {"reference_name", verdict.design.reference_name},
          {"seed", verdict.design.seed},
          {"block", verdict.design.block},
          {"rounds", verdict.design.rounds.size()},
          {"max_rounds", verdict.design.max_rounds},
          {"stopped", core::to_string(verdict.design.stopped)},
          {"metric", verdict.primary},
          {"min_effect_pct", verdict.min_effect_pct},
          {"outcome", paired_outcome_text(verdict.outcome)},
          {"validity", to_string(verdict.integrity.validity)},
          {"invalid_reason", verdict.integrity.invalid_reason.empty()
                                 ? nlohmann::json()
                                 : nlohmann::json(verdict.integrity.invalid_reason)},
          {"flags", verdict.integrity.flags},
          {"series", series},
          {"next", next_json(verdict.next)}};
}

} // namespace ej::evidence
