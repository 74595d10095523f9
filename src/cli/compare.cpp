#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/compare_export.h"
#include "cli/lookup.h"
#include "cli/output.h"
#include "cli/verdict_output.h"
#include "core/numbering.h"
#include "evidence/compare_sets.h"
#include "evidence/compare_sides.h"
#include "evidence/interleaved_verdict.h"
#include "evidence/judgement.h"
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

void print_compared(const evidence::Compared& c)
{
  const auto& report = c.report;
  fmt::print("{} (reference) vs {} (candidate), benchmark {}\n", c.reference.label, c.candidate.label,
             c.candidate.bench);
  // What is wrong with the figures comes before them, as for an interleaved comparison.
  if (const auto doubt = evidence::integrity_text(c.judged.integrity); !doubt.empty()) {
    fmt::print("{}\n",
               paint(doubt, c.judged.integrity.validity == evidence::Validity::Invalid ? Colour::Red
                                                                                       : Colour::Yellow));
  }
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

void run_compare(const CompareOptions& options)
{
  const auto format = output_format(options);
  auto journal = open_journal_for_reading(measuring::locate_workspace());
  evidence::Reader reader(journal);
  const auto answer =
      evidence::compare_sides(reader, {options.a, options.b, options.metric, options.bench, options.against,
                                       options.force, options.exclude_throttled});
  if (format == CompareFormat::Json) {
    print_json(evidence::compare_json(answer));
    return;
  }
  if (answer.interleaved) {
    if (format == CompareFormat::Csv || format == CompareFormat::Markdown) {
      throw UsageError("runs {} and {} were measured together (ej run --against): their comparison is "
                       "the session's pairs, which --format csv and markdown do not lay out; use --json, "
                       "or the text without --format",
                       options.a, options.b);
    }
    for (const auto& line : evidence::interleaved_report(*answer.interleaved)) {
      fmt::print("{}\n", line);
    }
    return;
  }
  const auto& compared = answer.compared;
  const auto& not_compared = answer.not_compared;
  switch (format) {
  case CompareFormat::Markdown:
    for (std::size_t i = 0; i < compared.size(); ++i) {
      const auto& c = compared[i];
      const auto doubt = evidence::integrity_text(c.judged.integrity);
      fmt::print("{}{}{}", i == 0 ? "" : "\n",
                 doubt.empty() ? "" : "**" + render::escape_markdown_line(doubt) + "**\n\n",
                 comparison_markdown(c));
    }
    for (const auto& line : not_compared) {
      fmt::print("\nNot compared: {}\n", render::escape_markdown_line(line));
    }
    return;
  case CompareFormat::Csv:
    for (const auto& c : compared) {
      fmt::print("{}", comparison_csv(c));
    }
    return;
  case CompareFormat::Json:
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
  const auto against = evidence::parse_against(options.against);
  const auto workspace = measuring::locate_workspace();
  auto journal = open_journal(workspace);
  evidence::Reader reader(journal);
  const auto judgement = evidence::judge_attempt_status(reader, number, against);
  const auto& evaluation = judgement.evaluation;
  const auto& proposal = judgement.proposal;
  if (options.json) {
    print_json(evidence::judgement_json(judgement, options.apply));
  } else {
    fmt::print("{} {}\n", core::number_label(number), judgement.attempt.title);
    // Every benchmark's evidence, combination by combination: what the reason sums up.
    for (const auto& verdict : evaluation.verdicts) {
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
    for (const auto& target : evaluation.targets) {
      fmt::print("  target: {}\n", target.text());
    }
    for (const auto& missing : evaluation.missing) {
      fmt::print("  {} {}\n", paint("not judged:", Colour::Yellow), missing.why);
    }
    fmt::print("  reason: {}\n", proposal.reason);
    fmt::print("  proposed status: {}\n", paint_status(proposal.status));
    if (!options.apply) {
      fmt::print("  record it with: ej judge {} --apply\n", number);
    }
  }
  if (!options.apply) {
    return;
  }
  evidence::apply_judgement(workspace, journal, judgement);
  if (!options.json) {
    fmt::print("{}: {} -> {}\n", core::number_label(number), core::to_string(judgement.attempt.status),
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
  add_attempt_id(judge, judge_options->id);
  judge->add_option("--against", judge_options->against,
                    "'then' (default: the baseline pinned when the runs were made) or 'current'");
  judge->add_flag("--apply", judge_options->apply,
                  "Record the proposed status with a reason made of the numbers");
  add_json_flag(judge, judge_options->json);
  judge->callback([judge_options] { run_judge(*judge_options); });
}

} // namespace ej::cli
