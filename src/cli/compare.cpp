#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/compare_export.h"
#include "cli/lookup.h"
#include "cli/output.h"
#include "cli/verdict_output.h"
#include "core/numbering.h"
#include "evidence/compare_sets.h"
#include "evidence/interleaved_verdict.h"
#include "evidence/proposal.h"
#include "evidence/reader.h"
#include "evidence/verdict.h"
#include "measuring/code_state.h"
#include "measuring/workspace.h"
#include "render/markdown_escape.h"
#include "store/interleaved_queries.h"
#include "store/queries.h"
#include "util/error.h"
#include "util/strings.h"

#include <algorithm>

#include <fmt/format.h>

// Judging results: ej compare and ej judge.
namespace ej::cli {

namespace {

// The benchmarks the attempt has usable runs of, newest first.
std::vector<std::string> attempt_benches(evidence::Reader& reader, int attempt)
{
  std::vector<std::string> benches;
  for (const auto& run : reader.runs_of_attempt(attempt)) {
    if (evidence::usable(run) && std::find(benches.begin(), benches.end(), run.bench) == benches.end()) {
      benches.push_back(run.bench);
    }
  }
  return benches;
}

// The benchmark of the attempt's newest usable runs that measured `metric`; empty when none did (the
// attempt's newest benchmark is then used, and the comparison says the metric is missing).
std::string bench_with_metric(evidence::Reader& reader, int attempt, const std::string& metric)
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

evidence::RunSet resolve_side(evidence::Reader& reader, const std::string& text, std::string bench,
                              const std::string& metric = "")
{
  const auto side = parse_reference(text);
  if (side.kind == Reference::Kind::Run) {
    auto set = reader.run_set(side.number, side.selector);
    if (!set) {
      throw Error("there is no run {}; see 'ej runs'", core::number_label(side.number));
    }
    if (set->runs.front().withdrawn()) {
      throw Error("{}; a withdrawn run is not compared ('ej run withdraw {} --undo' takes it back)",
                  evidence::withdrawn_text(set->runs.front()), side.number);
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

evidence::Against parse_against(const std::string& text)
{
  if (text == "then" || text.empty()) {
    return evidence::Against::BaselineThen;
  }
  if (text == "current") {
    return evidence::Against::CurrentBaseline;
  }
  throw UsageError(
      "--against takes 'then' (the baseline pinned when the run was made) or 'current', not '{}'", text);
}

// The baseline a candidate is judged against, when `ej compare` is given the candidate alone; nullopt
// with the reason when there is none.
std::optional<evidence::RunSet> baseline_of(evidence::Reader& reader, const evidence::RunSet& candidate,
                                            evidence::Against against, std::string& why_not)
{
  const auto& first = candidate.runs.front();
  const auto plan = first.attempt ? reader.plan_of_attempt(*first.attempt) : std::nullopt;
  if (!plan) {
    throw Error("{} belongs to no attempt, so to no plan with a baseline: name the reference too "
                "(ej compare REFERENCE CANDIDATE)",
                candidate.label);
  }
  const auto run =
      evidence::baseline_for(reader.baselines(*plan), candidate.bench, candidate.time_ms(), against);
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
        evidence::withdrawn_text(set->runs.front()), *plan, *plan,
        against == evidence::Against::BaselineThen ? ", or compare with --against current" : "");
    return std::nullopt;
  }
  return set;
}

struct CompareOptions {
  std::string a;
  std::string b;
  std::string metric;
  std::string bench;
  std::string against;
  bool json = false;
  std::string format;
  bool force = false;
  bool exclude_throttled = false;
};

CompareFormat output_format(const CompareOptions& options)
{
  if (options.format.empty()) {
    return options.json ? CompareFormat::Json : CompareFormat::Text;
  }
  const auto format = parse_compare_format(options.format);
  if (options.json && format != CompareFormat::Json) {
    throw UsageError("--json and --format {} contradict each other; give one", options.format);
  }
  return format;
}

// One benchmark's comparison of the two sides.
struct Compared {
  evidence::RunSet reference;
  evidence::RunSet candidate;
  evidence::ComparisonReport report;
};

nlohmann::json compared_json(const Compared& c)
{
  auto out = comparison_report_json(c.reference.label, c.candidate.label, c.candidate.bench, c.report);
  out["throttled"] = {{"reference", c.reference.throttled},
                      {"candidate", c.candidate.throttled},
                      {"repeats_read", c.reference.device_repeats + c.candidate.device_repeats},
                      {"excluded", c.reference.throttled_excluded || c.candidate.throttled_excluded}};
  return out;
}

void print_compared(const Compared& c)
{
  const auto& report = c.report;
  fmt::print("{} (reference) vs {} (candidate), benchmark {}\n", c.reference.label, c.candidate.label,
             c.candidate.bench);
  const auto said_once = shared_warnings(report.series);
  for (const auto& s : report.series) {
    print_comparison(s, said_once);
  }
  if (!report.crossover.empty()) {
    fmt::print("\ncrossover: {}\n", report.crossover);
  }
  if (!report.warnings.empty() || !said_once.empty()) {
    fmt::print("\n");
    for (const auto& warning : said_once) {
      fmt::print("{} {}\n", paint("warning:", Colour::Yellow), warning);
    }
    for (const auto& warning : report.warnings) {
      fmt::print("{} {}\n", paint("warning:", Colour::Yellow), warning);
    }
  }
  if (!report.env_changes.empty()) {
    fmt::print("\nenvironment changes:\n");
    for (const auto& change : report.env_changes) {
      fmt::print("  {}\n", change);
    }
  }
}

// Two runs measured together by ej run --against are judged on their pairs, in either order, and
// say so; true when it printed that verdict.
bool print_interleaved(store::Journal& journal, const CompareOptions& options)
{
  const auto a = parse_reference(options.a);
  const auto b = parse_reference(options.b);
  if (a.kind != Reference::Kind::Run || b.kind != Reference::Kind::Run || !a.selector.empty() ||
      !b.selector.empty() || !options.metric.empty() || !options.bench.empty()) {
    return false;
  }
  const auto record = store::interleaved_comparison_of(journal.db(), a.number);
  if (!record || !((record->candidate == a.number && record->reference == b.number) ||
                   (record->candidate == b.number && record->reference == a.number))) {
    return false;
  }
  const auto verdict = evidence::judge_interleaved(journal.db(), *record);
  if (options.json || options.format == "json") {
    print_json(evidence::to_json(verdict));
    return true;
  }
  for (const auto& line : evidence::interleaved_report(verdict)) {
    fmt::print("{}\n", line);
  }
  return true;
}

void run_compare(const CompareOptions& options)
{
  auto journal = open_journal_for_reading(measuring::locate_workspace());
  if (!options.bench.empty()) {
    require_benchmark(journal, options.bench);
  }
  evidence::Reader reader(journal);
  reader.exclude_throttled(options.exclude_throttled);
  const auto against = parse_against(options.against);
  evidence::CompareRequest request;
  request.metric = options.metric;
  request.force = options.force;
  request.read_repeats = true;
  std::vector<Compared> compared;
  std::vector<std::string> not_compared; // "verify: plan p has no baseline for benchmark verify; ..."
  bool every_bench = false;              // an attempt alone: each benchmark it ran, against its baseline
  if (options.b.empty()) {
    const auto side = parse_reference(options.a);
    std::vector<std::string> benches{options.bench};
    if (side.kind == Reference::Kind::Attempt && options.bench.empty() &&
        store::find_attempt(journal.db(), side.number)) {
      every_bench = true;
      benches = options.metric.empty()
                    ? attempt_benches(reader, side.number)
                    : std::vector<std::string>{bench_with_metric(reader, side.number, options.metric)};
      if (benches.empty() || benches.front().empty()) {
        benches = {""}; // resolve_side says what is missing
      }
    }
    for (const auto& bench : benches) {
      auto candidate = resolve_side(reader, options.a, bench, options.metric);
      std::string why_not;
      auto reference = baseline_of(reader, candidate, against, why_not);
      std::optional<evidence::ComparisonReport> report;
      if (reference) {
        report = evidence::try_compare(reader, *reference, candidate, request, why_not);
      }
      if (!report) {
        not_compared.push_back(fmt::format("{}: {}", candidate.bench, why_not));
        continue;
      }
      compared.push_back({std::move(*reference), std::move(candidate), std::move(*report)});
    }
    if (compared.empty()) {
      // One benchmark: its reason as it always read; several: each.
      throw Error("{}", not_compared.size() == 1
                            ? not_compared.front().substr(not_compared.front().find(": ") + 2)
                            : util::join(not_compared, "; "));
    }
  } else {
    if (!options.against.empty()) {
      throw UsageError("--against goes with one side only: 'ej compare CANDIDATE --against current'");
    }
    if (print_interleaved(journal, options)) {
      return;
    }
    auto reference = resolve_side(reader, options.a, options.bench, options.metric);
    auto candidate = resolve_side(reader, options.b, options.bench.empty() ? reference.bench : options.bench,
                                  options.metric);
    auto report = evidence::compare_sets(reader, reference, candidate, request);
    compared.push_back({std::move(reference), std::move(candidate), std::move(report)});
  }
  switch (output_format(options)) {
  case CompareFormat::Json: {
    // The first benchmark's comparison at the top, as for two sides; an attempt alone adds each.
    auto out = compared_json(compared.front());
    if (every_bench) {
      auto& all = out["benchmarks"] = nlohmann::json::array();
      for (const auto& c : compared) {
        all.push_back(compared_json(c));
      }
      out["not_compared"] = not_compared;
    }
    print_json(out);
    return;
  }
  case CompareFormat::Markdown:
    for (std::size_t i = 0; i < compared.size(); ++i) {
      const auto& c = compared[i];
      fmt::print("{}{}", i == 0 ? "" : "\n",
                 comparison_markdown(c.reference.label, c.candidate.label, c.candidate.bench, c.report));
    }
    for (const auto& line : not_compared) {
      fmt::print("\nNot compared: {}\n", render::escape_markdown_line(line));
    }
    return;
  case CompareFormat::Csv:
    for (const auto& c : compared) {
      fmt::print("{}", comparison_csv(c.report));
    }
    return;
  case CompareFormat::Text:
    break;
  }
  for (std::size_t i = 0; i < compared.size(); ++i) {
    if (i > 0) {
      fmt::print("\n");
    }
    print_compared(compared[i]);
  }
  for (const auto& line : not_compared) {
    fmt::print("\n{} {}\n", paint("not compared:", Colour::Yellow), line);
  }
}

struct JudgeOptions {
  std::string id;
  std::string against;
  bool apply = false;
  bool json = false;
};

void run_judge(const JudgeOptions& options)
{
  const int number = parse_attempt_number(options.id);
  const auto against = parse_against(options.against);
  const auto workspace = measuring::locate_workspace();
  auto journal = open_journal(workspace);
  const auto attempt = store::find_attempt(journal.db(), number);
  if (!attempt) {
    throw Error("there is no attempt {}; see 'ej log'", core::number_label(number));
  }
  evidence::Reader reader(journal);
  const auto evaluation = evidence::evaluate_attempt(reader, number, against);
  const auto proposal = evaluation ? evidence::propose_status(*evaluation) : std::nullopt;
  if (!proposal) {
    std::vector<std::string> why;
    for (const auto& missing : evaluation->missing) {
      why.push_back(missing.why);
    }
    throw Error("attempt {} cannot be judged: {}", core::number_label(number),
                why.empty() ? evidence::judge_attempt(reader, number, against).why_not
                            : util::join(why, "; "));
  }
  if (options.json) {
    auto verdicts = nlohmann::json::array();
    for (const auto& verdict : evaluation->verdicts) {
      verdicts.push_back(verdict_json(verdict));
    }
    auto targets = nlohmann::json::array();
    for (const auto& target : evaluation->targets) {
      targets.push_back(target_json(target));
    }
    auto missing = nlohmann::json::array();
    for (const auto& m : evaluation->missing) {
      missing.push_back({{"bench", m.bench}, {"why", m.why}});
    }
    print_json({{"attempt", number},
                {"title", attempt->title},
                {"status", core::to_string(attempt->status)},
                {"proposed_status", core::to_string(proposal->status)},
                {"reason", proposal->reason},
                {"applied", options.apply},
                {"verdict", verdict_json(*evaluation->lead_verdict())},
                {"verdicts", verdicts},
                {"targets", targets},
                {"not_judged", missing}});
  } else {
    fmt::print("{} {}\n", core::number_label(number), attempt->title);
    // Every benchmark's evidence, combination by combination: what the reason sums up.
    for (const auto& verdict : evaluation->verdicts) {
      fmt::print("  {} {} against run {}{}:\n", verdict.candidate.bench, verdict.metric,
                 core::number_label(verdict.baseline_run),
                 verdict.against == evidence::Against::CurrentBaseline ? " (the current baseline)" : "");
      fmt::print("    {}\n", verdict.design.sentence());
      for (const auto& line : evidence::evidence_lines(verdict)) {
        fmt::print("    {}\n", line);
      }
      if (verdict.sweep() && !verdict.crossover.empty()) {
        fmt::print("    {} over {} combinations: {}\n", measure::to_string(verdict.outcome),
                   verdict.combinations.size(), verdict.crossover);
      }
      for (const auto& warning : verdict.warnings) {
        fmt::print("    {} {}\n", paint("warning:", Colour::Yellow), warning);
      }
    }
    for (const auto& target : evaluation->targets) {
      fmt::print("  target: {}\n", target.text());
    }
    for (const auto& missing : evaluation->missing) {
      fmt::print("  {} {}\n", paint("not judged:", Colour::Yellow), missing.why);
    }
    fmt::print("  reason: {}\n", proposal->reason);
    fmt::print("  proposed status: {}\n", paint_status(proposal->status));
    if (!options.apply) {
      fmt::print("  record it with: ej judge {} --apply\n", number);
    }
  }
  if (!options.apply) {
    return;
  }
  const auto code_state = read_code_state(workspace); // outside the write lock
  journal.write([&](store::Writer& writer) {
    writer.append(store::events::AttemptStatus{
        store::events::Ref::to(attempt->id), std::string(core::to_string(proposal->status)), proposal->reason,
        measuring::store_code_state(writer, code_state)});
  });
  if (!options.json) {
    fmt::print("{}: {} -> {}\n", core::number_label(number), core::to_string(attempt->status),
               core::to_string(proposal->status));
  }
}

} // namespace

void register_compare(CLI::App& app)
{
  auto options = std::make_shared<CompareOptions>();
  auto* compare = app.add_subcommand(
      "compare",
      "Compare two runs (r5) or attempts (12), or one against its baseline: medians, change, interval, "
      "p-value, outcome per metric and combination");
  compare->footer("\nExamples:\n"
                  "  ej compare r1 r2                                  run #2 against run #1\n"
                  "  ej compare 12                                     attempt #12 on each benchmark it ran, "
                  "against its baseline then\n"
                  "  ej compare 12 --metric verify_ms --against current   the benchmark measuring verify_ms, "
                  "today's baseline\n"
                  "  ej compare r5:variant=naive r5:variant=blocked    two combinations of one run");
  compare
      ->add_option(
          "reference", options->a,
          "The reference: a run (r5, run:5) or an attempt (12, #12), optionally :AXIS=V,...; alone, the "
          "candidate, compared with its plan's baseline")
      ->required();
  compare->add_option("candidate", options->b, "The candidate: a run or an attempt, optionally :AXIS=V,...");
  compare->add_option("--metric", options->metric,
                      "Only this metric (for attempts: of the benchmark that measures it)");
  compare->add_option("--bench", options->bench, "For attempts: the benchmark to use");
  compare->add_option("--against", options->against,
                      "With one side: 'then' (default: the baseline pinned when it ran) or 'current'");
  compare->add_flag("--force", options->force, "Compare even across benchmark revisions");
  compare->add_flag("--exclude-throttled", options->exclude_throttled,
                    "Judge without the repeats that ran on a throttled GPU (see 'ej show run')");
  compare->add_flag("--json", options->json, "Print JSON (the same as --format json)");
  compare->add_option("--format", options->format,
                      "markdown (a table to paste into a pull request), csv, json or text (the default)");
  compare->callback([options] { run_compare(*options); });

  auto judge_options = std::make_shared<JudgeOptions>();
  auto* judge = app.add_subcommand(
      "judge",
      "Propose an attempt's status from its runs against each benchmark's baseline and the plan's targets");
  judge->footer(
      "\nExamples:\n"
      "  ej judge 12                    the proposal, with the evidence of every benchmark it ran\n"
      "  ej judge 12 --apply            record it as the attempt's status, with a one-sentence reason\n"
      "  ej judge 12 --against current  judged against today's baselines instead");
  judge->add_option("id", judge_options->id, "Attempt number")->required();
  judge->add_option("--against", judge_options->against,
                    "'then' (default: the baseline pinned when the runs were made) or 'current'");
  judge->add_flag("--apply", judge_options->apply,
                  "Record the proposed status with a reason made of the numbers");
  judge->add_flag("--json", judge_options->json, "Print JSON");
  judge->callback([judge_options] { run_judge(*judge_options); });
}

} // namespace ej::cli
