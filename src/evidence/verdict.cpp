#include "evidence/verdict.h"

#include "core/numbering.h"
#include "core/target.h"
#include "evidence/crossover.h"
#include "evidence/paired_lead.h"
#include "measure/false_discovery.h"
#include "measure/statistics.h"
#include "store/run_queries.h"
#include "util/strings.h"
#include "util/time.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ej::evidence {

namespace {

// Up to this many combinations a verdict's line lists each; beyond, it counts them.
constexpr std::size_t k_listed_combinations = 4;

std::string counts_text(const std::vector<SeriesComparison>& combinations)
{
  std::vector<std::string> parts;
  for (const auto outcome : {measure::Outcome::Improved, measure::Outcome::Regressed,
                             measure::Outcome::NoChange, measure::Outcome::Inconclusive}) {
    const auto n = std::count_if(combinations.begin(), combinations.end(),
                                 [&](const auto& s) { return s.comparison.outcome == outcome; });
    if (n > 0) {
      parts.push_back(fmt::format("{} {}", n, measure::to_string(outcome)));
    }
  }
  return util::join(parts, ", ");
}

std::string comparisons_text(const Verdict& v)
{
  if (!v.sweep()) {
    const auto& s = v.combinations.front();
    const auto phrase = comparison_text(s.comparison, s.unit, s.quantity);
    return s.where().empty() ? phrase : s.where() + ": " + phrase;
  }
  auto text = fmt::format("{} over {} combinations", measure::to_string(v.outcome), v.combinations.size());
  if (const auto* headline = v.headline_comparison()) {
    // The headline first, then the sweep in words: the line stays short however wide the sweep.
    text = fmt::format("{}: {}; {}", headline->where(),
                       comparison_text(headline->comparison, headline->unit, headline->quantity), text);
    return v.crossover.empty() ? text : text + ": " + v.crossover;
  }
  if (v.combinations.size() > k_listed_combinations) {
    text += " (" + counts_text(v.combinations) + ")";
    if (!v.crossover.empty()) {
      text += "; " + v.crossover;
    }
    return text;
  }
  std::vector<std::string> each;
  for (const auto& s : v.combinations) {
    each.push_back(s.where() + ": " + comparison_text(s.comparison, s.unit, s.quantity));
  }
  return text + ": " + util::join(each, "; ");
}

// The plan's targets that this benchmark's runs measure: those naming the benchmark, and those
// naming none whose metric its runs have.
void evaluate_targets(Verdict& v, const PlanMeasures& measures)
{
  for (const auto& target : measures.targets) {
    if (!target.bench.empty() && target.bench != v.candidate.bench) {
      continue;
    }
    auto result =
        evaluate_target(target, v.candidate, measures.headline_for(v.candidate.bench, target.metric));
    if (result.state == TargetState::NotMeasured) {
      continue;
    }
    v.target_judged += result.judged;
    if (v.targets.empty()) {
      v.target_met_at = result.met_at;
    }
    v.targets.push_back(std::move(result));
  }
  if (v.targets.empty()) {
    return;
  }
  const auto all = [&](auto predicate) { return std::all_of(v.targets.begin(), v.targets.end(), predicate); };
  v.target_met = all([](const TargetResult& r) { return r.state == TargetState::Met; })
                     ? TargetMet::Everywhere
                 : all([](const TargetResult& r) { return r.met_at.empty(); }) ? TargetMet::Nowhere
                                                                               : TargetMet::Somewhere;
}

// The index of the combination at the headline, when the verdict judged it.
std::optional<std::size_t> headline_index(const std::vector<SeriesComparison>& combinations,
                                          const core::ParamValues& headline)
{
  if (headline.empty() || combinations.size() < 2) {
    return std::nullopt;
  }
  for (std::size_t i = 0; i < combinations.size(); ++i) {
    const auto values = parse_params_label(combinations[i].params);
    bool names_an_axis = false;
    bool matches = true;
    for (const auto& [axis, value] : headline) {
      const auto found = values.find(axis);
      if (found != values.end()) {
        names_an_axis = true;
        matches = matches && found->second == value;
      }
    }
    if (names_an_axis && matches && combinations[i].key.empty()) {
      return i;
    }
  }
  return std::nullopt;
}

// The verdict's line, and the same without the note that the baseline moved (for lines under one
// that says it already).
void set_texts(Verdict& v, std::optional<int> baseline_then)
{
  auto head = comparisons_text(v) + fmt::format(" vs run {}", core::number_label(v.baseline_run));
  if (v.reference_run) {
    head = comparisons_text(v) + fmt::format(" vs run {}, run {}'s code measured alongside",
                                             core::number_label(*v.reference_run),
                                             core::number_label(v.baseline_run));
  }
  std::string moved;
  if (v.against == Against::BaselineThen) {
    moved = baseline_note(v.baseline_run, v.baseline_now);
  }
  if (v.against == Against::CurrentBaseline) {
    moved = baseline_then && *baseline_then != v.baseline_run
                ? fmt::format(", the current baseline (run {} was the baseline then)",
                              core::number_label(*baseline_then))
                : ", the current baseline";
  }
  std::string tail = "; " + v.design.phrase();
  if (!v.environment_fields.empty()) {
    tail += "; environments differ: " + util::join(v.environment_fields, ", ");
  }
  if (v.imported) {
    tail += "; imported figures, not measured by ej";
  }
  if (v.calibration) {
    tail += "; " +
            could_detect_text(v.calibration->amount, v.calibration->n, v.design.kind == Design::Interleaved);
    if (v.calibration->drift_exceeds_change) {
      tail += fmt::format(", but the machine drifted {} in calibration, more than the change",
                          v.calibration->drift);
    }
  }
  if (v.throttled > 0) {
    tail += fmt::format("; {} of {} repeats throttled{}", v.throttled, v.device_repeats,
                        v.throttled_excluded ? ", left out" : "");
  }
  if (!v.integrity.flags.empty()) {
    tail += "; flagged: " + util::join(v.integrity.flags, "; ");
  }
  if (v.integrity.validity == Validity::Invalid) {
    head = "invalid: " + v.integrity.invalid_reason + "; " + head;
  }
  v.text = head + moved + tail;
  v.brief = moved.empty() ? v.text : head + tail;
  v.note_at = head.size();
}

// The candidate's environment is its newest run's: a calibration measured elsewhere says nothing of it.
const Calibration* calibration_of(Reader& reader, const Verdict& v)
{
  if (v.candidate.runs.empty()) {
    return nullptr;
  }
  const auto& newest =
      *std::max_element(v.candidate.runs.begin(), v.candidate.runs.end(),
                        [](const auto& a, const auto& b) { return a.started_ms < b.started_ms; });
  return reader.calibration(v.candidate.bench, newest.env_blob, newest.revision);
}

void note_calibration(const Calibration* calibration, Verdict& v)
{
  const auto* headline = v.headline_comparison();
  if (calibration == nullptr || headline == nullptr || headline->metric != calibration->metric) {
    return;
  }
  const auto& c = headline->comparison;
  CalibrationNote note;
  note.n = std::min(c.n_reference, c.n_candidate);
  if (note.n < 2) {
    return; // one figure a side: no test, nothing it could detect
  }
  if (v.design.kind == Design::Interleaved) {
    // The pairs cancel the drift: what is left to see through is the paired noise.
    note.amount = calibration->amount(calibration->detectable_interleaved(note.n, v.design.block));
    note.time_ms = calibration->time_ms;
    v.calibration = note;
    return;
  }
  note.amount = calibration->amount(calibration->detectable_sequential(note.n));
  const double drift = calibration->drift_amount();
  note.drift = calibration->relative ? fmt::format("{:+.1f}%", drift) : fmt::format("{:+.3g}", drift);
  const auto change = calibration->relative ? c.change_pct : c.shift;
  // A drift noise alone would draw says nothing of the machine: only one beyond it can outweigh a change.
  note.drift_exceeds_change =
      change && calibration->drift_beyond_noise && std::abs(drift) > std::abs(*change);
  note.time_ms = calibration->time_ms;
  v.calibration = note;
}

// What holds the verdict's figures up (evidence/integrity.h): the candidate's output against the
// reference's, the metrics' floors, the benchmark's timer against the wall time (on the session's
// pairs when `paired` judged it). An invalid verdict is no outcome: every combination becomes
// inconclusive. `side` names the reference in what is said: "baseline" or "reference".
void judge_integrity(Reader& reader, Verdict& v, const RunSet& reference, const RunSet& candidate,
                     const MetricRules& rules, const InterleavedVerdict* paired,
                     std::string_view side = "baseline")
{
  std::optional<std::string> differs;
  const auto& same = rules.same_output;
  if (same.kind == core::SameOutput::Kind::Metric) {
    differs = metric_differs(reference.series, candidate.series, same, side);
  } else if (same.kind != core::SameOutput::Kind::None) {
    // Judging reads runs without their outputs (store/run_queries.h): the few compared are read here.
    const auto outputs = [&reader](const RunSet& set) {
      std::vector<nlohmann::json> out;
      for (const auto& run : set.runs) {
        if (const auto stored = store::find_run(reader.journal().db(), run.number)) {
          out.push_back(stored->outputs);
        }
      }
      return out;
    };
    differs = digests_differ(outputs(reference), outputs(candidate), side);
  }
  auto flags = sides_floor_flags(reference.series, candidate.series, rules, side);
  // --no-check-times: the times it prints are not its process's (a sum over GPUs, figures replayed),
  // so a wall time that moves the other way says nothing of them.
  if (v.metric != "wall_s" && rules.check_times) {
    CompareRequest wall;
    wall.metric = "wall_s";
    std::string why_not;
    if (auto report = try_compare(reader, reference, candidate, wall, why_not)) {
      if (paired != nullptr) {
        use_paired(report->series, *paired, candidate.selector);
      }
      for (auto& flag : timer_disagreements(v.combinations, report->series)) {
        flags.push_back(std::move(flag));
      }
    }
  }
  v.integrity = integrity_of(std::move(differs), std::move(flags));
  if (v.integrity.validity == Validity::Invalid) {
    for (auto& s : v.combinations) {
      s.comparison.outcome = measure::Outcome::Inconclusive;
    }
    v.outcome = measure::Outcome::Inconclusive;
  }
}

Judgement no_verdict(std::string why)
{
  return {std::nullopt, std::move(why), Unjudged::Other, {}};
}

Judgement verdict_for(Reader& reader, const std::string& plan, RunSet candidate, Against against,
                      const std::string& metric)
{
  const auto& history = reader.baselines(plan);
  const auto then = baseline_for(history, candidate.bench, candidate.time_ms(), Against::BaselineThen);
  if (!then) {
    auto none =
        no_verdict(fmt::format("plan {} has no baseline for benchmark {}; pin one with 'ej plan baseline {} "
                               "--run N'",
                               plan, candidate.bench, plan));
    none.unjudged = Unjudged::NoBaseline;
    none.next = pin_baseline_steps(plan, candidate.bench, reader.newest_free_run(candidate.bench));
    return none;
  }
  const auto now = baseline_for(history, candidate.bench, candidate.time_ms(), Against::CurrentBaseline);
  const int baseline = against == Against::CurrentBaseline ? *now : *then;
  for (const auto& run : candidate.runs) {
    if (run.number == baseline) {
      auto none = no_verdict(fmt::format("run {} is the baseline itself", core::number_label(baseline)));
      none.unjudged = Unjudged::IsBaseline;
      return none;
    }
  }
  const RunSet* reference = reader.baseline_set(baseline);
  if (reference == nullptr) {
    return no_verdict(fmt::format("the baseline run {} of plan {} is missing from the journal",
                                  core::number_label(baseline), plan));
  }
  const auto& base_run = reference->runs.front();
  if (base_run.withdrawn()) {
    return no_verdict(fmt::format("the baseline {} of plan {}; pin another with 'ej plan baseline {} --run N "
                                  "--reason ...'{}",
                                  withdrawn_text(base_run), plan, plan,
                                  against == Against::BaselineThen && *now != baseline
                                      ? ", or judge against the current one with --against current"
                                      : ""));
  }
  if (!usable(base_run)) {
    return no_verdict(
        fmt::format("the baseline run {} of plan {} is {}, not finished; pin a finished run with "
                    "'ej plan baseline {} --run N --reason ...'",
                    core::number_label(baseline), plan, core::to_string(base_run.status), plan));
  }
  const auto& rules = reader.rules(candidate.bench, candidate.revision);
  const auto& measures = reader.measures(plan);
  CompareRequest request;
  request.metric = metric;
  if (request.metric.empty()) {
    const auto of_bench = measures.of_bench(candidate.bench);
    request.metric = of_bench.empty() ? rules.primary : of_bench.front()->metric;
  }
  // Measured alongside the baseline's code, the attempt is judged on those pairs instead.
  auto paired = paired_against(reader, candidate, base_run);
  if (paired) {
    candidate = std::move(paired->candidate);
    reference = &paired->reference;
  }
  std::string why_not;
  auto report = try_compare(reader, *reference, candidate, request, why_not);
  if (!report) {
    return no_verdict(fmt::format("against the baseline run {}: {}", core::number_label(baseline), why_not));
  }
  Verdict v;
  v.baseline_run = baseline;
  if (paired) {
    use_paired(report->series, paired->verdict);
    v.reference_run = paired->verdict.reference;
    v.design.kind = Design::Interleaved;
    v.design.block = paired->verdict.design.block;
  } else {
    v.design.baseline_earlier_ms = candidate.time_ms() - reference->time_ms();
  }
  v.against = against;
  if (against == Against::BaselineThen && *now != *then) {
    v.baseline_now = *now;
  }
  v.metric = request.metric;
  v.unit = report->series.front().unit;
  v.combinations = std::move(report->series);
  v.outcome = summarize_outcomes(v.combinations);
  v.crossover = std::move(report->crossover);
  v.headline = measures.headline_for(candidate.bench, request.metric);
  v.headline_index = headline_index(v.combinations, v.headline);
  if (paired) {
    // Each combination has rounds of its own; the design says those of the one that decides, else
    // the most any had.
    const auto* lead = v.headline_comparison();
    for (const auto& s : v.combinations) {
      v.design.rounds = std::max(v.design.rounds, s.comparison.n_candidate);
    }
    if (lead != nullptr) {
      v.design.rounds = lead->comparison.n_candidate;
    }
  }
  v.environment_changes = std::move(report->env_changes);
  v.environment_fields = std::move(report->env_fields);
  v.warnings = std::move(report->warnings);
  v.imported = reference->imported() ||
               std::any_of(candidate.runs.begin(), candidate.runs.end(),
                           [](const auto& run) { return run.status == core::RunStatus::Imported; });
  v.throttled = reference->throttled + candidate.throttled;
  v.device_repeats = reference->device_repeats + candidate.device_repeats;
  v.throttled_excluded = reference->throttled_excluded || candidate.throttled_excluded;
  judge_integrity(reader, v, *reference, candidate, rules, paired ? &paired->verdict : nullptr);
  // A headline combination decides on its own, not adjusted: no overall outcome leaves a series out.
  if (auto note = v.headline_index ? "" : false_discovery_note(v.combinations); !note.empty()) {
    v.warnings.push_back(std::move(note));
  }
  v.candidate = std::move(candidate);
  const auto* calibration = calibration_of(reader, v);
  note_calibration(calibration, v);
  evaluate_targets(v, measures);
  set_texts(v, then);
  v.next = next_steps(v, plan, {calibration, rules.min_effect_pct, rules.guarded()});
  return {std::move(v), "", Unjudged::Other, {}};
}

// "3 days earlier", "2 hours later", "moments earlier".
std::string when_baseline(std::int64_t earlier_ms)
{
  const auto way = earlier_ms >= 0 ? "earlier" : "later";
  if (earlier_ms > -1000 && earlier_ms < 1000) {
    return fmt::format("moments {}", way);
  }
  return fmt::format("{} {}", util::spoken_span(earlier_ms), way);
}

} // namespace

std::string baseline_note(int baseline_then, std::optional<int> baseline_now)
{
  if (!baseline_now || *baseline_now == baseline_then) {
    return "";
  }
  return fmt::format(", the baseline then; the baseline is now run {}", core::number_label(*baseline_now));
}

ComparisonJudgement judge_comparison(Reader& reader, const RunSet& reference, const RunSet& candidate,
                                     ComparisonReport& report, const ComparisonSides& sides)
{
  if (report.series.empty()) {
    return {{}, sides.design, measure::Outcome::Inconclusive, {}}; // try_compare never reports none
  }
  const auto& rules = reader.rules(candidate.bench, candidate.revision);
  // The verdict the comparison would be on the metric an attempt's verdict judges: the plan's
  // measure of the benchmark when the report has it (no --metric, or that one), else its first
  // metric (compare_sets.h puts the primary, or the one asked for, first).
  Verdict v;
  v.design = sides.design;
  v.metric = report.series.front().metric;
  if (!sides.plan.empty()) {
    const auto measured = reader.measures(sides.plan).of_bench(candidate.bench);
    if (!measured.empty() && measured.front()->metric != v.metric &&
        std::any_of(report.series.begin(), report.series.end(),
                    [&](const auto& s) { return s.metric == measured.front()->metric; })) {
      v.metric = measured.front()->metric;
      report.crossover = crossover_words(report.series, v.metric);
    }
  }
  for (const auto& s : report.series) {
    if (s.metric == v.metric) {
      v.combinations.push_back(s);
    }
  }
  v.unit = v.combinations.front().unit;
  v.crossover = report.crossover;
  if (!sides.plan.empty()) {
    v.headline = reader.measures(sides.plan).headline_for(candidate.bench, v.metric);
    v.headline_index = headline_index(v.combinations, v.headline);
  }
  if (sides.paired != nullptr) {
    // On a session's pairs, the rounds are as judge says them: the deciding combination's, else
    // the most any had (not the session's over every combination).
    v.design.rounds = 0;
    for (const auto& s : v.combinations) {
      v.design.rounds = std::max(v.design.rounds, s.comparison.n_candidate);
    }
    if (const auto* lead = v.headline_comparison()) {
      v.design.rounds = lead->comparison.n_candidate;
    }
  }
  v.candidate = candidate;
  judge_integrity(reader, v, reference, candidate, rules, sides.paired, sides.side);
  if (v.integrity.validity == Validity::Invalid) {
    for (auto& s : report.series) {
      s.comparison.outcome = measure::Outcome::Inconclusive;
    }
    for (auto& s : v.combinations) {
      s.comparison.outcome = measure::Outcome::Inconclusive;
    }
  }
  const auto* calibration = calibration_of(reader, v);
  note_calibration(calibration, v); // on the headline combination, whose change a drift may outweigh
  // What is decided is the judged metric's outcome, as an attempt's verdict decides it: a headline
  // on its own, else Benjamini-Hochberg across that metric's series (docs/statistics.md, "Many
  // series"). The other metrics are reported, series by series, but never decide.
  v.outcome = summarize_outcomes(v.combinations);
  if (auto note = v.headline_index ? "" : false_discovery_note(v.combinations); !note.empty()) {
    report.warnings.push_back(std::move(note));
  }
  auto next = next_steps(v, sides.plan, {calibration, rules.min_effect_pct, rules.guarded(), sides.against});
  return {std::move(v.integrity), v.design, v.decisive_outcome(), std::move(next)};
}

std::string VerdictDesign::phrase() const
{
  if (kind == Design::Interleaved) {
    return fmt::format("interleaved, {} round{}", rounds, rounds == 1 ? "" : "s");
  }
  return "sequential, " + reference + " " + when_baseline(baseline_earlier_ms);
}

std::string VerdictDesign::baseline_when() const
{
  return when_baseline(baseline_earlier_ms);
}

std::string VerdictDesign::cell() const
{
  return kind == Design::Interleaved ? phrase() : "sequential";
}

std::string VerdictDesign::sentence() const
{
  if (kind == Design::Interleaved) {
    return fmt::format(
        "interleaved: {} round{} alternating both sides in one session; drift cancels out of the "
        "pairs",
        rounds, rounds == 1 ? "" : "s");
  }
  return fmt::format("sequential: the {} was measured {}; drift not controlled", reference,
                     when_baseline(baseline_earlier_ms));
}

measure::Outcome Verdict::decisive_outcome() const
{
  return headline_index ? combinations[*headline_index].comparison.outcome : outcome;
}

const SeriesComparison* Verdict::headline_comparison() const
{
  if (headline_index) {
    return &combinations[*headline_index];
  }
  return combinations.size() == 1 ? &combinations.front() : nullptr;
}

std::optional<bool> Verdict::meets_target() const
{
  if (target_met == TargetMet::NoTarget) {
    return std::nullopt;
  }
  return target_met == TargetMet::Everywhere;
}

namespace {

std::vector<bool> discoveries_of(const std::vector<SeriesComparison>& combinations, double q)
{
  std::vector<std::optional<double>> p_values;
  p_values.reserve(combinations.size());
  for (const auto& s : combinations) {
    p_values.push_back(s.comparison.p_value);
  }
  return measure::passes_false_discovery(p_values, q);
}

bool claims_change(measure::Outcome outcome)
{
  return outcome == measure::Outcome::Improved || outcome == measure::Outcome::Regressed;
}

} // namespace

std::string false_discovery_note(const std::vector<SeriesComparison>& combinations, double q)
{
  const auto passes = discoveries_of(combinations, q);
  std::size_t held = 0;
  for (std::size_t i = 0; i < combinations.size(); ++i) {
    held += claims_change(combinations[i].comparison.outcome) && !passes[i] ? 1 : 0;
  }
  if (held == 0) {
    return "";
  }
  return fmt::format("{} of {} series improved or regressed on {} own but {} no discovery at a "
                     "false-discovery rate of {:g} (Benjamini-Hochberg): the overall outcome leaves {} out",
                     held, combinations.size(), held == 1 ? "its" : "their", held == 1 ? "is" : "are", q,
                     held == 1 ? "it" : "them");
}

measure::Outcome summarize_outcomes(const std::vector<SeriesComparison>& combinations, double q)
{
  const auto passes = discoveries_of(combinations, q);
  const auto any = [&](measure::Outcome outcome) {
    for (std::size_t i = 0; i < combinations.size(); ++i) {
      if (combinations[i].comparison.outcome == outcome && passes[i]) {
        return true;
      }
    }
    return false;
  };
  const bool improved = any(measure::Outcome::Improved);
  const bool regressed = any(measure::Outcome::Regressed);
  if (improved && regressed) {
    return measure::Outcome::Mixed;
  }
  if (improved) {
    return measure::Outcome::Improved;
  }
  if (regressed) {
    return measure::Outcome::Regressed;
  }
  const bool all_same =
      !combinations.empty() && std::all_of(combinations.begin(), combinations.end(), [](const auto& s) {
        return s.comparison.outcome == measure::Outcome::NoChange;
      });
  return all_same ? measure::Outcome::NoChange : measure::Outcome::Inconclusive;
}

std::optional<int> baseline_for(const std::vector<core::BaselineRecord>& history, const std::string& bench,
                                std::int64_t time_ms, Against against)
{
  std::optional<int> first;
  std::optional<int> in_force;
  std::optional<int> last;
  for (const auto& record : history) {
    if (record.bench != bench) {
      continue;
    }
    if (!first) {
      first = record.run;
    }
    if (record.time_ms <= time_ms) {
      in_force = record.run;
    }
    last = record.run;
  }
  if (against == Against::CurrentBaseline) {
    return last;
  }
  return in_force ? in_force : first;
}

Judgement judge_set(Reader& reader, const std::string& plan, RunSet candidate, Against against,
                    const std::string& metric)
{
  return verdict_for(reader, plan, std::move(candidate), against, metric);
}

Judgement judge_run(Reader& reader, const core::RunRecord& run, Against against)
{
  if (!run.attempt) {
    return no_verdict(fmt::format("run {} belongs to no attempt, so to no plan with a baseline",
                                  core::number_label(run.number)));
  }
  if (run.withdrawn()) {
    return no_verdict(withdrawn_text(run));
  }
  if (!usable(run)) {
    return no_verdict(
        fmt::format("run {} is {}", core::number_label(run.number), core::to_string(run.status)));
  }
  const auto plan = reader.plan_of_attempt(*run.attempt);
  if (!plan) {
    return no_verdict(fmt::format("run {} names attempt {}, which is missing", core::number_label(run.number),
                                  core::number_label(*run.attempt)));
  }
  return verdict_for(reader, *plan, reader.run_set(run), against, "");
}

} // namespace ej::evidence
