#include "cli/commands.h"
#include "cli/compare_export.h"
#include "cli/lookup.h"
#include "cli/output.h"
#include "cli/reading.h"
#include "cli/verdict_output.h"
#include "cli/workspace.h"
#include "core/numbering.h"
#include "evidence/compare_sets.h"
#include "evidence/proposal.h"
#include "evidence/reader.h"
#include "evidence/verdict.h"
#include "store/queries.h"
#include "util/error.h"
#include "util/strings.h"

#include <fmt/format.h>

// Judging results: ej compare and ej judge.
namespace ej::cli {

namespace {

struct Side {
  bool run = false;
  int number = 0;
  core::ParamValues selector;
};

// "r5", "run5", "run:5" name a run; "12", "#12", "a12" an attempt; either may end in
// ":AXIS=V[,AXIS=V]" to take only those combinations.
Side parse_side(const std::string& text)
{
  std::string rest = text;
  Side side;
  for (const std::string prefix : {"run:", "run", "r"}) {
    if (rest.rfind(prefix, 0) == 0 && rest.size() > prefix.size()) {
      side.run = true;
      rest = rest.substr(prefix.size());
      break;
    }
  }
  if (!side.run && rest.rfind('a', 0) == 0) {
    rest = rest.substr(1);
  }
  const auto colon = rest.find(':');
  const auto number = rest.substr(0, colon);
  if (colon != std::string::npos) {
    for (const auto& pair : util::split(rest.substr(colon + 1), ',')) {
      const auto equals = pair.find('=');
      if (equals == std::string::npos || equals == 0) {
        throw UsageError("'{}': '{}' is not AXIS=VALUE; write e.g. r5:variant=naive", text, pair);
      }
      side.selector[pair.substr(0, equals)] = pair.substr(equals + 1);
    }
  }
  try {
    side.number = parse_attempt_number(number);
  } catch (const UsageError&) {
    throw UsageError("'{}' names neither a run (r5, run:5, r5:AXIS=V) nor an attempt (12, #12)", text);
  }
  return side;
}

evidence::RunSet resolve_side(evidence::Reader& reader, const std::string& text, const std::string& bench)
{
  const auto side = parse_side(text);
  if (side.run) {
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

// The baseline a candidate is judged against, when `ej compare` is given the candidate alone.
evidence::RunSet baseline_of(evidence::Reader& reader, const evidence::RunSet& candidate,
                             evidence::Against against)
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
    throw Error("plan {} has no baseline for benchmark {}; pin one with 'ej plan baseline {} --run N'", *plan,
                candidate.bench, *plan);
  }
  auto set = reader.run_set(*run, candidate.selector);
  if (!set) {
    throw Error("the baseline run {} of plan {} is missing from the journal", core::number_label(*run),
                *plan);
  }
  if (set->runs.front().withdrawn()) {
    throw Error("the baseline {} of plan {}; pin another with 'ej plan baseline {} --run N --reason ...'{}",
                evidence::withdrawn_text(set->runs.front()), *plan, *plan,
                against == evidence::Against::BaselineThen ? ", or compare with --against current" : "");
  }
  return std::move(*set);
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

void run_compare(const CompareOptions& options)
{
  auto journal = open_journal_for_reading(locate_workspace());
  if (!options.bench.empty()) {
    require_benchmark(journal, options.bench);
  }
  evidence::Reader reader(journal);
  reader.exclude_throttled(options.exclude_throttled);
  const auto against = parse_against(options.against);
  evidence::RunSet reference;
  evidence::RunSet candidate;
  if (options.b.empty()) {
    candidate = resolve_side(reader, options.a, options.bench);
    reference = baseline_of(reader, candidate, against);
  } else {
    if (!options.against.empty()) {
      throw UsageError("--against goes with one side only: 'ej compare CANDIDATE --against current'");
    }
    reference = resolve_side(reader, options.a, options.bench);
    candidate = resolve_side(reader, options.b, options.bench.empty() ? reference.bench : options.bench);
  }
  evidence::CompareRequest request;
  request.metric = options.metric;
  request.force = options.force;
  request.read_repeats = true;
  const auto report = evidence::compare_sets(reader, reference, candidate, request);
  switch (output_format(options)) {
  case CompareFormat::Json: {
    auto out = comparison_report_json(reference.label, candidate.label, candidate.bench, report);
    out["throttled"] = {{"reference", reference.throttled},
                        {"candidate", candidate.throttled},
                        {"repeats_read", reference.device_repeats + candidate.device_repeats},
                        {"excluded", reference.throttled_excluded || candidate.throttled_excluded}};
    print_json(out);
    return;
  }
  case CompareFormat::Markdown:
    fmt::print("{}", comparison_markdown(reference.label, candidate.label, candidate.bench, report));
    return;
  case CompareFormat::Csv:
    fmt::print("{}", comparison_csv(report));
    return;
  case CompareFormat::Text:
    break;
  }
  fmt::print("{} (reference) vs {} (candidate), benchmark {}\n", reference.label, candidate.label,
             candidate.bench);
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
  const auto workspace = locate_workspace();
  auto journal = open_journal(workspace);
  const auto attempt = store::find_attempt(journal.db(), number);
  if (!attempt) {
    throw Error("there is no attempt {}; see 'ej log'", core::number_label(number));
  }
  evidence::Reader reader(journal);
  const auto judgement = evidence::judge_attempt(reader, number, against);
  if (!judgement.verdict) {
    throw Error("attempt {} cannot be judged: {}", core::number_label(number), judgement.why_not);
  }
  const auto& verdict = *judgement.verdict;
  const auto proposal = evidence::propose_status(verdict, reader.plan_target(attempt->plan));
  if (options.json) {
    print_json({{"attempt", number},
                {"title", attempt->title},
                {"status", core::to_string(attempt->status)},
                {"proposed_status", core::to_string(proposal.status)},
                {"reason", proposal.reason},
                {"applied", options.apply},
                {"verdict", verdict_json(verdict)}});
  } else {
    fmt::print("{} {}\n  evidence: {}\n", core::number_label(number), attempt->title, proposal.reason);
    for (const auto& warning : verdict.warnings) {
      fmt::print("  {} {}\n", paint("warning:", Colour::Yellow), warning);
    }
    fmt::print("  proposed status: {}\n", paint_status(proposal.status));
    if (!options.apply) {
      fmt::print("  record it with: ej judge {} --apply\n", number);
    }
  }
  if (!options.apply) {
    return;
  }
  const auto code_state = read_code_state(workspace); // outside the write lock
  journal.write([&](store::Writer& writer) {
    writer.append(store::events::AttemptStatus{store::events::Ref::to(attempt->id), std::string(core::to_string(proposal.status)),
                                               proposal.reason, store_code_state(writer, code_state)});
  });
  if (!options.json) {
    fmt::print("{}: {} -> {}\n", core::number_label(number), core::to_string(attempt->status),
               core::to_string(proposal.status));
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
  compare->footer(
      "\nExamples:\n"
      "  ej compare r1 r2                                  run #2 against run #1\n"
      "  ej compare 12                                     attempt #12 against the baseline of its time\n"
      "  ej compare 12 --against current                   ... against today's baseline\n"
      "  ej compare r5:variant=naive r5:variant=blocked    two combinations of one run");
  compare
      ->add_option(
          "reference", options->a,
          "The reference: a run (r5, run:5) or an attempt (12, #12), optionally :AXIS=V,...; alone, the "
          "candidate, compared with its plan's baseline")
      ->required();
  compare->add_option("candidate", options->b, "The candidate: a run or an attempt, optionally :AXIS=V,...");
  compare->add_option("--metric", options->metric, "Only this metric");
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
  auto* judge = app.add_subcommand("judge", "Propose an attempt's status from its runs against the baseline");
  judge->footer("\nExamples:\n"
                "  ej judge 12                    the proposal, with the evidence\n"
                "  ej judge 12 --apply            record it as the attempt's status\n"
                "  ej judge 12 --against current  judged against today's baseline instead");
  judge->add_option("id", judge_options->id, "Attempt number")->required();
  judge->add_option("--against", judge_options->against,
                    "'then' (default: the baseline pinned when the runs were made) or 'current'");
  judge->add_flag("--apply", judge_options->apply,
                  "Record the proposed status with a reason made of the numbers");
  judge->add_flag("--json", judge_options->json, "Print JSON");
  judge->callback([judge_options] { run_judge(*judge_options); });
}

} // namespace ej::cli
