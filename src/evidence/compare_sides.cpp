#include "evidence/compare_sides.h"

#include "core/numbering.h"
#include "core/references.h"
#include "evidence/judgement.h"
#include "evidence/lookup.h"
#include "evidence/paired_lead.h"
#include "evidence/records_json.h"
#include "evidence/verdict.h"
#include "evidence/verdict_json.h"
#include "store/interleaved_queries.h"
#include "store/queries.h"
#include "util/error.h"
#include "util/strings.h"

#include <fmt/format.h>

#include <algorithm>

namespace ej::evidence {

namespace {

// The benchmarks the attempt has usable runs of, newest first.
std::vector<std::string> attempt_benches(Reader& reader, int attempt)
{
  std::vector<std::string> benches;
  for (const auto& run : reader.runs_of_attempt(attempt)) {
    if (usable(run) && std::find(benches.begin(), benches.end(), run.bench) == benches.end()) {
      benches.push_back(run.bench);
    }
  }
  return benches;
}

// The benchmark of the attempt's newest usable runs that measured `metric`; empty when none did (the
// attempt's newest benchmark is then used, and the comparison says the metric is missing).
std::string bench_with_metric(Reader& reader, int attempt, const std::string& metric)
{
  for (const auto& bench : attempt_benches(reader, attempt)) {
    const auto set = reader.attempt_set(attempt, bench);
    if (set && std::any_of(set->series.begin(), set->series.end(),
                           [&](const auto& series) { return series.metric == metric; })) {
      return bench;
    }
  }
  return "";
}

RunSet resolve_side(Reader& reader, const std::string& text, std::string bench,
                    const std::string& metric = "")
{
  const auto side = core::parse_reference(text);
  if (side.kind == core::Reference::Kind::Run) {
    auto set = reader.run_set(side.number, side.selector);
    if (!set) {
      throw Error("there is no run {}; see 'ej runs'", core::number_label(side.number));
    }
    if (set->runs.front().withdrawn()) {
      throw Error("{}; a withdrawn run is not compared ('ej run withdraw {} --undo' takes it back)",
                  withdrawn_text(set->runs.front()), side.number);
    }
    if (set->series.empty() && !side.selector.empty()) {
      throw Error("run {} has no combination {}; see 'ej show run {}'", core::number_label(side.number),
                  core::describe(side.selector), side.number);
    }
    return std::move(*set);
  }
  if (!store::find_attempt(reader.journal().db(), side.number)) {
    throw Error("there is no attempt {}; see 'ej log'", core::number_label(side.number));
  }
  if (bench.empty() && !metric.empty()) {
    bench = bench_with_metric(reader, side.number, metric);
  }
  auto set = reader.attempt_set(side.number, bench, side.selector);
  if (!set) {
    throw Error("attempt {} has no finished runs{}; run one with 'ej run BENCH --attempt {}'",
                core::number_label(side.number), bench.empty() ? "" : " of " + bench, side.number);
  }
  return std::move(*set);
}

// The baseline a candidate is judged against, when `ej compare` is given the candidate alone; nullopt
// with the reason when there is none.
std::optional<RunSet> baseline_of(Reader& reader, const RunSet& candidate, Against against,
                                  std::string& why_not)
{
  const auto& first = candidate.runs.front();
  const auto plan = first.attempt ? reader.plan_of_attempt(*first.attempt) : std::nullopt;
  if (!plan) {
    throw Error("{} belongs to no attempt, so to no plan with a baseline: name the reference too "
                "(ej compare REFERENCE CANDIDATE)",
                candidate.label);
  }
  const auto run = baseline_for(reader.baselines(*plan), candidate.bench, candidate.time_ms(), against);
  if (!run) {
    why_not =
        fmt::format("plan {} has no baseline for benchmark {}; pin one with 'ej plan baseline {} --run N'",
                    *plan, candidate.bench, *plan);
    return std::nullopt;
  }
  auto set = reader.run_set(*run, candidate.selector);
  if (!set) {
    throw Error("the baseline run {} of plan {} is missing from the journal", core::number_label(*run),
                *plan);
  }
  if (set->runs.front().withdrawn()) {
    why_not = fmt::format(
        "the baseline {} of plan {}; pin another with 'ej plan baseline {} --run N --reason ...'{}",
        withdrawn_text(set->runs.front()), *plan, *plan,
        against == Against::BaselineThen ? ", or compare with --against current" : "");
    return std::nullopt;
  }
  return set;
}

// How the two sides were measured: as one session's two runs (ej run --against), in either order,
// else apart in time.
VerdictDesign design_of(store::Journal& journal, const RunSet& reference, const RunSet& candidate)
{
  VerdictDesign design;
  if (reference.runs.size() == 1 && candidate.runs.size() == 1) {
    const int a = reference.runs.front().number;
    const int b = candidate.runs.front().number;
    const auto record = store::interleaved_comparison_of(journal.db(), b);
    if (record && ((record->candidate == b && record->reference == a) ||
                   (record->candidate == a && record->reference == b))) {
      design.kind = Design::Interleaved;
      design.rounds = record->design.rounds.size();
      design.block = record->design.block;
      return design;
    }
  }
  design.baseline_earlier_ms = candidate.time_ms() - reference.time_ms();
  return design;
}

// The two sides compared, judged as a verdict would be: `against` names the reference for a new
// session, `side` in what is said of its output.
Compared judged(Reader& reader, RunSet reference, RunSet candidate, ComparisonReport report,
                const std::string& against, const std::string& side,
                const InterleavedVerdict* paired = nullptr)
{
  ComparisonSides sides;
  sides.paired = paired;
  sides.design = design_of(reader.journal(), reference, candidate);
  sides.design.reference = side;
  const auto& first = candidate.runs.front();
  if (const auto plan = first.attempt ? reader.plan_of_attempt(*first.attempt) : std::nullopt) {
    sides.plan = *plan;
  }
  sides.against = against;
  sides.side = side;
  auto judgement = judge_comparison(reader, reference, candidate, report, sides);
  return {std::move(reference), std::move(candidate), std::move(report), std::move(judgement)};
}

// The reference as `ej run --against` takes it: r5, or #12 for an attempt.
std::string against_name(const std::string& text)
{
  const auto side = core::parse_reference(text);
  return side.kind == core::Reference::Kind::Run ? fmt::format("r{}", side.number)
                                                 : fmt::format("#{}", side.number);
}

nlohmann::json compared_json(const Compared& c)
{
  auto out = comparison_report_json(c.reference.label, c.candidate.label, c.candidate.bench, c.report,
                                    c.judged.outcome);
  const auto& integrity = c.judged.integrity;
  out["validity"] = to_string(integrity.validity);
  out["invalid_reason"] =
      integrity.invalid_reason.empty() ? nlohmann::json() : nlohmann::json(integrity.invalid_reason);
  out["flags"] = integrity.flags;
  out["design"] = design_json(c.judged.design);
  out["next"] = next_json(c.judged.next);
  out["throttled"] = {{"reference", c.reference.throttled},
                      {"candidate", c.candidate.throttled},
                      {"repeats_read", c.reference.device_repeats + c.candidate.device_repeats},
                      {"excluded", c.reference.throttled_excluded || c.candidate.throttled_excluded}};
  return out;
}

// Two runs measured together by ej run --against are judged on their pairs, in either order, and
// say so; nullopt for anything else.
std::optional<InterleavedVerdict> interleaved_of(store::Journal& journal, const CompareQuery& query)
{
  const auto a = core::parse_reference(query.a);
  const auto b = core::parse_reference(query.b);
  if (a.kind != core::Reference::Kind::Run || b.kind != core::Reference::Kind::Run || !a.selector.empty() ||
      !b.selector.empty() || !query.metric.empty() || !query.bench.empty()) {
    return std::nullopt;
  }
  const auto record = store::interleaved_comparison_of(journal.db(), a.number);
  if (!record || !((record->candidate == a.number && record->reference == b.number) ||
                   (record->candidate == b.number && record->reference == a.number))) {
    return std::nullopt;
  }
  // One comparison, reported: it says what it could have detected.
  return judge_interleaved(journal.db(), *record, ReadCalibration::Always);
}

} // namespace

CompareAnswer compare_sides(Reader& reader, const CompareQuery& query)
{
  auto& journal = reader.journal();
  if (!query.bench.empty()) {
    require_benchmark(journal, query.bench);
  }
  reader.exclude_throttled(query.exclude_throttled);
  const auto against = parse_against(query.against);
  CompareRequest request;
  request.metric = query.metric;
  request.force = query.force;
  request.read_repeats = true;
  CompareAnswer answer;
  auto& compared = answer.compared;
  auto& not_compared = answer.not_compared; // "verify: plan p has no baseline for benchmark verify; ..."
  if (query.b.empty()) {
    const auto side = core::parse_reference(query.a);
    std::vector<std::string> benches{query.bench};
    if (side.kind == core::Reference::Kind::Attempt && query.bench.empty() &&
        store::find_attempt(journal.db(), side.number)) {
      answer.every_bench = true; // an attempt alone: each benchmark it ran, against its baseline
      benches = query.metric.empty()
                    ? attempt_benches(reader, side.number)
                    : std::vector<std::string>{bench_with_metric(reader, side.number, query.metric)};
      if (benches.empty() || benches.front().empty()) {
        benches = {""}; // resolve_side says what is missing
      }
    }
    for (const auto& bench : benches) {
      auto candidate = resolve_side(reader, query.a, bench, query.metric);
      std::string why_not;
      auto reference = baseline_of(reader, candidate, against, why_not);
      // Measured alongside the baseline's code (ej run --against baseline), the attempt is compared
      // on that session's pairs, as ej judge judges it.
      std::optional<PairedSides> paired;
      if (reference && (paired = paired_against(reader, candidate, reference->runs.front()))) {
        candidate = std::move(paired->candidate);
        reference = std::move(paired->reference);
      }
      std::optional<ComparisonReport> report;
      if (reference) {
        report = try_compare(reader, *reference, candidate, request, why_not);
      }
      if (report && paired) {
        use_paired(report->series, paired->verdict, candidate.selector);
      }
      if (!report) {
        not_compared.push_back(fmt::format("{}: {}", candidate.bench, why_not));
        continue;
      }
      compared.push_back(judged(reader, std::move(*reference), std::move(candidate), std::move(*report),
                                "baseline", "baseline", paired ? &paired->verdict : nullptr));
    }
    if (compared.empty()) {
      // One benchmark: its reason as it always read; several: each.
      throw Error("{}", not_compared.size() == 1
                            ? not_compared.front().substr(not_compared.front().find(": ") + 2)
                            : util::join(not_compared, "; "));
    }
    return answer;
  }
  if (!query.against.empty()) {
    throw UsageError("--against goes with one side only: 'ej compare CANDIDATE --against current'");
  }
  if ((answer.interleaved = interleaved_of(journal, query))) {
    return answer;
  }
  auto reference = resolve_side(reader, query.a, query.bench, query.metric);
  auto candidate =
      resolve_side(reader, query.b, query.bench.empty() ? reference.bench : query.bench, query.metric);
  auto report = compare_sets(reader, reference, candidate, request);
  compared.push_back(judged(reader, std::move(reference), std::move(candidate), std::move(report),
                            against_name(query.a), "reference"));
  return answer;
}

nlohmann::json compare_json(const CompareAnswer& answer)
{
  if (answer.interleaved) {
    return to_json(*answer.interleaved);
  }
  // The first benchmark's comparison at the top, as for two sides; an attempt alone adds each.
  auto out = compared_json(answer.compared.front());
  if (answer.every_bench) {
    auto& all = out["benchmarks"] = nlohmann::json::array();
    for (const auto& c : answer.compared) {
      all.push_back(compared_json(c));
    }
    out["not_compared"] = answer.not_compared;
  }
  return out;
}

} // namespace ej::evidence
