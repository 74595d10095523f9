#include "evidence/bisect.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/lookup.h"
#include "cli/output.h"
#include "cli/run_progress.h"
#include "cli/slurm_option.h"
#include "core/numbering.h"
#include "measuring/workspace.h"
#include "run/signals.h"
#include "util/error.h"

#include <fmt/format.h>

// `ej bisect BENCH GOOD BAD`: the first commit of a performance step, found by building and
// measuring the commits between, each interleaved against GOOD (evidence/bisect.h). Progress on
// stderr, the answer on stdout; exit 0 when one commit is named, 1 when none could be.
namespace ej::cli {

namespace {

struct BisectOptions {
  std::string bench;
  std::string good;
  std::string bad;
  std::string metric;
  std::vector<std::string> params;
  std::optional<int> max_rounds;
  std::string on;
  std::vector<std::string> slurm_args; // passed to sbatch
  bool json = false;
};

std::string short_id(const std::string& commit)
{
  return commit.substr(0, 10);
}

// "skipped: its build failed (run #9)", "bad: +200.3% [+190.1%, +210.0%]", or "GOOD".
std::string what_it_was(const evidence::BisectReport& report, std::size_t index)
{
  if (index == 0) {
    return "GOOD";
  }
  const auto* measured = index + 1 == report.commits.size() ? &report.bad_against_good : nullptr;
  for (const auto& m : report.measured) {
    if (m.index == index) {
      measured = &m;
    }
  }
  if (measured == nullptr) {
    return "not measured";
  }
  if (measured->verdict == evidence::CommitClass::Skipped ||
      measured->verdict == evidence::CommitClass::Inconclusive) {
    return "skipped: " + measured->why;
  }
  const auto* series = measured->verdict == evidence::CommitClass::Bad
                           ? evidence::stepped_series(*measured, *report.step)
                           : nullptr;
  if (series == nullptr && measured->comparison) {
    for (const auto& s : measured->comparison->series) {
      if (s.metric == measured->comparison->primary && series == nullptr) {
        series = &s;
      }
    }
  }
  return fmt::format("{}{}", to_string(measured->verdict),
                     series == nullptr
                         ? std::string()
                         : fmt::format(": {} against GOOD (runs {}, {})", evidence::change_text(*series),
                                       core::number_label(measured->candidate_run),
                                       core::number_label(measured->reference_run)));
}

void print_answer(const evidence::BisectReport& report)
{
  const auto line = [&](std::size_t index) {
    return fmt::format("{} \"{}\"", short_id(report.commits[index].id), report.commits[index].subject);
  };
  switch (report.outcome) {
  case evidence::BisectOutcome::NoStep: {
    const auto& verdict = *report.bad_against_good.comparison;
    fmt::print("no step to bisect in {}: BAD {} against GOOD {} is {}\n", report.metric,
               short_id(report.commits.back().id), short_id(report.commits.front().id),
               evidence::paired_outcome_text(verdict.outcome));
    for (const auto& series : verdict.series) {
      if (series.metric == verdict.primary) {
        fmt::print("  {}\n", evidence::paired_line(verdict, series));
      }
    }
    return;
  }
  case evidence::BisectOutcome::Found: {
    const auto index = report.candidates.back();
    const auto& commit = report.commits[index];
    const auto* series = evidence::stepped_series(*evidence::first_bad_measure(report), *report.step);
    fmt::print("first bad commit: {} {}; step {} in {}\n", commit.id, commit.subject,
               series == nullptr ? std::string("?") : evidence::change_text(*series), report.metric);
    fmt::print("  it is {}\n", what_it_was(report, index));
    fmt::print("  its parent {} is {}\n", line(index - 1), what_it_was(report, index - 1));
    break;
  }
  case evidence::BisectOutcome::Ambiguous:
    fmt::print("only skipped commits are left to test; the first bad commit could be any of:\n");
    for (const auto index : report.candidates) {
      fmt::print("  {}: {}\n", line(index), what_it_was(report, index));
    }
    fmt::print("  after {}, {}\n", line(report.candidates.front() - 1),
               what_it_was(report, report.candidates.front() - 1));
    break;
  }
  for (const auto& measured : report.measured) {
    const bool listed = report.outcome == evidence::BisectOutcome::Ambiguous &&
                        std::find(report.candidates.begin(), report.candidates.end(), measured.index) !=
                            report.candidates.end();
    if (!listed && (measured.verdict == evidence::CommitClass::Skipped ||
                    measured.verdict == evidence::CommitClass::Inconclusive)) {
      fmt::print("  skipped {}: {}\n", line(measured.index), measured.why);
    }
  }
  fmt::print("  {} of {} commits between measured, each against GOOD within +-{:g}% (half the step); 'ej "
             "history {}' shows the answer\n",
             report.measured.size(), report.commits.size() - 2, report.step->min_effect_pct, report.bench);
}

void run_bisect(const BisectOptions& options)
{
  const auto slurm = slurm_target(options.on, options.slurm_args);
  const auto workspace = measuring::locate_workspace();
  auto journal = open_journal(workspace);
  require_benchmark(journal, options.bench);
  evidence::BisectRequest request;
  request.bench = options.bench;
  request.metric = options.metric;
  request.params = param_choices(options.params);
  request.good = options.good;
  request.bad = options.bad;
  request.max_rounds = options.max_rounds;
  request.on = options.on;
  request.slurm = slurm;

  // One guard for the whole bisection: a signal ends the comparison measuring, then ej bisect.
  run::InterruptGuard interrupt_guard;
  RunProgress progress(false);
  const auto report = evidence::run_bisect(journal, workspace, request, progress);
  if (options.json) {
    print_json(evidence::to_json(report));
  } else {
    print_answer(report);
  }
  if (report.outcome != evidence::BisectOutcome::Found) {
    throw ExitCode{1};
  }
}

} // namespace

void register_bisect(CLI::App& app)
{
  auto options = std::make_shared<BisectOptions>();
  auto* command = app.add_subcommand(
      "bisect", "Find the first commit of a performance step between GOOD and BAD, measuring commits");
  command->add_option("bench", options->bench, "The benchmark")->required();
  command->add_option("good", options->good, "The last commit known good: a branch, tag or commit")
      ->required();
  command->add_option("bad", options->bad, "The first commit known bad (GOOD on its first-parent line)")
      ->required();
  command->add_option("--metric", options->metric,
                      "Bisect this metric (default: the benchmark's primary one)");
  command->add_option("--param", options->params,
                      "Only these values of an axis, AXIS=V1,V2 (repeatable): bisect one combination");
  command
      ->add_option("--max-rounds", options->max_rounds,
                   "The most rounds of each comparison before a commit is skipped as inconclusive (default "
                   "100)")
      ->check(CLI::Range(1, 1000));
  command->add_option("--on", options->on,
                      "Measure on ssh:HOST, a host added with 'ej host add', slurm[:PARTITION] or "
                      "slurm@HOST[:PARTITION], as 'ej run --against' does (default: the benchmark's --on, "
                      "else here)");
  command->add_option("--slurm-arg", options->slurm_args,
                      "An sbatch option for --on slurm, as given (repeatable): --slurm-arg=--gres=gpu:8");
  command->add_flag("--json", options->json, "Print the answer as JSON (docs/history.md)");
  command->footer(
      R"(BAD is measured against GOOD first: the step's direction and size. Then the commits between
(first parents, as 'ej history' follows them) are built with the benchmark's build step, each in a
temporary worktree, and measured interleaved against GOOD until the verdict is decisive: bad when it
moved as BAD did beyond half the step, good when it stayed within. A commit that does not build or
run, or stays inconclusive after --max-rounds, is skipped as 'git bisect skip' does. Every run is an
ordinary run of the journal; the answer is recorded and 'ej history' shows it.

Exit codes: 0 the first bad commit found; 1 not found (skipped commits leave a range, or BAD is not
decisively apart from GOOD), or an error ('ej: error:'); 2 usage; 128 + N after signal N.

Examples:
  ej bisect decode v1.4 main                 # the first commit of the step between them
  ej bisect transpose HEAD~20 HEAD --metric time_ms --param variant=blocked --max-rounds 30 --json
  ej bisect decode v1.4 main --on gpu-box            # every comparison on the host gpu-box
  ej bisect decode v1.4 main --on slurm:gpu --slurm-arg=--gres=gpu:1   # each one a Slurm job)");
  command->callback([options] { run_bisect(*options); });
}

} // namespace ej::cli
