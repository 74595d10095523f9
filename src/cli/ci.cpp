#include "cli/commands.h"
#include "cli/output.h"
#include "cli/run_against.h"
#include "cli/run_progress.h"
#include "core/bench_definition.h"
#include "core/numbering.h"
#include "evidence/ci_summary.h"
#include "git/history.h"
#include "git/merge_base.h"
#include "measuring/interleaved_against.h"
#include "measuring/workspace.h"
#include "run/signals.h"
#include "store/interleaved_queries.h"
#include "store/run_queries.h"
#include "util/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

// `ej ci`: the pull-request gate. Every benchmark marked for CI (or those named) measured
// interleaved against the reference commit, as `ej run B --against REV --until-decisive` measures
// it; exit 1 on a decisive regression, a markdown summary on stdout and in $GITHUB_STEP_SUMMARY.
namespace ej::cli {

namespace {

struct CiOptions {
  std::string against;
  std::vector<std::string> benches;
  bool json = false;
  std::optional<int> max_rounds;
  std::string budget;
};

// --against's commit, else the merge base of HEAD with the default branch.
evidence::CiSide reference_side(const measuring::Workspace& workspace, const std::string& against)
{
  evidence::CiSide side;
  if (!against.empty()) {
    const auto commit = git::resolve_commit(workspace.work_tree, against);
    if (!commit) {
      throw UsageError("--against '{}' names no commit of this repository; give a branch, tag or commit "
                       "(fetch it first in a shallow clone)",
                       against);
    }
    side.commit = *commit;
    side.name = against;
    return side;
  }
  const auto branch = git::default_branch(workspace.work_tree);
  if (!branch) {
    throw UsageError("ej ci compares against the merge base with the default branch, and none was found "
                     "(no origin/HEAD, main or master): pass --against REV, e.g. --against origin/develop");
  }
  const auto base = git::merge_base(workspace.work_tree, "HEAD", branch->commit);
  if (!base) {
    throw Error("HEAD and {} share no commit here, so there is no merge base to compare against: fetch the "
                "whole history (actions/checkout with fetch-depth: 0), or pass --against REV",
                branch->name);
  }
  side.commit = *base;
  side.name = fmt::format("the merge base of HEAD and {}", branch->name);
  return side;
}

evidence::CiSide candidate_side(const measuring::Workspace& workspace)
{
  evidence::CiSide side;
  const auto head = git::resolve_commit(workspace.work_tree, "HEAD");
  if (!head) {
    throw Error("the repository has no commit yet; commit the code to measure first");
  }
  side.commit = *head;
  const auto branch = git::current_branch(workspace.work_tree);
  side.name = branch ? fmt::format("HEAD, branch {}", *branch) : "HEAD";
  return side;
}

// The benchmarks named (each must exist), else every one marked with `ej bench add --ci`.
std::vector<std::string> chosen_benches(store::Journal& journal, const std::vector<std::string>& named)
{
  const auto benches = store::list_benchmarks(journal.db());
  std::vector<std::string> out;
  if (!named.empty()) {
    for (const auto& name : named) {
      const bool known = std::any_of(benches.begin(), benches.end(),
                                     [&](const core::BenchRevision& bench) { return bench.name == name; });
      if (!known) {
        throw UsageError("--bench {}: no benchmark of that name; see 'ej bench list'", name);
      }
      if (std::find(out.begin(), out.end(), name) == out.end()) {
        out.push_back(name);
      }
    }
    return out;
  }
  for (const auto& bench : benches) {
    if (core::readable_bench_definition(bench.definition).ci) {
      out.push_back(bench.name);
    }
  }
  if (out.empty()) {
    throw UsageError("no benchmark is marked for CI: mark one with 'ej bench edit NAME --ci' (or register it "
                     "with 'ej bench add NAME --ci ...'), or name them with 'ej ci --bench NAME'");
  }
  return out;
}

// Appended, as GitHub Actions expects: every step of a job adds its part to the page.
void append_step_summary(const std::string& markdown)
{
  const char* path = std::getenv("GITHUB_STEP_SUMMARY");
  if (path == nullptr || *path == '\0') {
    return;
  }
  std::FILE* file = std::fopen(path, "ab");
  if (file == nullptr) {
    throw Error("cannot open $GITHUB_STEP_SUMMARY ({}) to append the summary: {}", path,
                std::strerror(errno));
  }
  const bool written = std::fwrite(markdown.data(), 1, markdown.size(), file) == markdown.size();
  if (std::fclose(file) != 0 || !written) {
    throw Error("cannot write the summary to $GITHUB_STEP_SUMMARY ({}): {}", path, std::strerror(errno));
  }
}

// GitHub Actions names the server, the repository and the run; the summary links to them. Read here,
// as $GITHUB_STEP_SUMMARY is: the summary itself is made from plain values.
evidence::CiLinks links_from_environment()
{
  const auto variable = [](const char* name) {
    const char* value = std::getenv(name);
    return value == nullptr ? std::string() : std::string(value);
  };
  return {variable("GITHUB_SERVER_URL"), variable("GITHUB_REPOSITORY"), variable("GITHUB_RUN_ID")};
}

evidence::CiBench measure_bench(store::Journal& journal, const measuring::Workspace& workspace,
                                const CiOptions& options, const std::string& bench,
                                const evidence::CiSide& reference, RunProgress& progress)
{
  measuring::InterleavedRequest request;
  request.candidate.bench = bench;
  request.candidate.repeats.echo = false; // stdout is the summary's
  request.candidate.repeats.echo_build = false;
  request.until_decisive = true;
  request.max_rounds = options.max_rounds;
  if (!options.budget.empty()) {
    request.budget_s = parse_budget(options.budget);
  }
  request.reference_name = reference.commit.substr(0, 12);
  measuring::ReferenceCode code;
  code.name = fmt::format("{} ({})", reference.name, reference.commit.substr(0, 12));
  code.code.commit = reference.commit;
  const auto read_code = [](const measuring::Workspace& side) { return read_code_state(side); };
  measuring::DetachedReport not_detached;
  const auto result =
      measuring::measure_against(journal, workspace, code, std::nullopt, std::move(request), progress,
                                 read_code, numbers_from_remote(workspace), not_detached);
  if (result.candidate.status == core::RunStatus::Interrupted && run::InterruptGuard::signal_number() != 0) {
    const int signal = run::InterruptGuard::signal_number();
    fmt::print(stderr, "ej: ci: {} interrupted by SIG{}; runs {} and {} keep the rounds measured before\n",
               bench, ::sigabbrev_np(signal), core::number_label(result.candidate.run),
               core::number_label(result.reference.run));
    throw ExitCode{128 + signal};
  }
  evidence::CiBench out;
  out.bench = bench;
  out.stopped = result.stopped;
  out.max_rounds = options.max_rounds.value_or(measuring::k_default_max_rounds);
  for (const auto* side : {&result.candidate, &result.reference}) {
    if (side->status != core::RunStatus::Finished && out.failure.empty()) {
      out.failure = fmt::format("run {} {}: {}", core::number_label(side->run), core::to_string(side->status),
                                side->reason);
    }
  }
  if (const auto record = store::interleaved_comparison_of(journal.db(), result.candidate.run)) {
    out.verdict = evidence::judge_interleaved(journal.db(), *record);
  }
  return out;
}

void run_ci(const CiOptions& options)
{
  const auto workspace = measuring::locate_workspace();
  auto journal = open_journal(workspace);
  const auto benches = chosen_benches(journal, options.benches);
  evidence::CiSummary summary;
  summary.reference = reference_side(workspace, options.against);
  summary.candidate = candidate_side(workspace);
  summary.links = links_from_environment();
  if (!options.budget.empty()) {
    parse_budget(options.budget); // a usage error before anything is measured
  }

  // One guard for every benchmark: a signal ends the one measuring and then ej ci.
  run::InterruptGuard interrupt_guard;
  RunProgress progress(false);
  for (const auto& bench : benches) {
    fmt::print(stderr, "ej: ci: {}: the work tree against {} ({})\n", bench, summary.reference.name,
               summary.reference.commit.substr(0, 12));
    summary.benches.push_back(measure_bench(journal, workspace, options, bench, summary.reference, progress));
    const auto& measured = summary.benches.back();
    if (measured.verdict) {
      if (const auto run = store::find_run(journal.db(), measured.verdict->candidate)) {
        summary.candidate.dirty = summary.candidate.dirty || run->git.dirty;
      }
    }
    fmt::print(stderr, "ej: ci: {}: {}\n", bench,
               !measured.failure.empty() ? "failed"
               : measured.verdict        ? evidence::paired_outcome_text(measured.verdict->outcome)
                                         : "not measured");
  }

  const auto markdown = evidence::ci_markdown(summary);
  if (options.json) {
    print_json(evidence::to_json(summary));
  } else {
    fmt::print("{}", markdown);
  }
  std::fflush(stdout);
  append_step_summary(markdown);
  for (const auto& warning : evidence::ci_warnings(summary)) {
    fmt::print(stderr, "ej: warning: {}\n", warning);
  }
  switch (evidence::ci_outcome(summary)) {
  case evidence::CiOutcome::Passed:
    return;
  case evidence::CiOutcome::Regressed:
    fmt::print(stderr, "ej: ci: a decisive regression in {}\n",
               fmt::join(evidence::regressed_benches(summary), ", "));
    throw ExitCode{1};
  case evidence::CiOutcome::Failed:
    throw Error(
        "a benchmark could not be measured (see the warnings above); fix it, or measure it alone with "
        "'ej run BENCH --against {}'",
        summary.reference.commit.substr(0, 12));
  }
}

} // namespace

void register_ci(CLI::App& app)
{
  auto options = std::make_shared<CiOptions>();
  auto* command = app.add_subcommand(
      "ci",
      "The pull-request gate: the benchmarks marked --ci against the merge base, exit 1 on a regression");
  command->add_option("--against", options->against,
                      "The revision to compare against (default: the merge base of HEAD with the default "
                      "branch: origin/HEAD's target, else main, else master)");
  command->add_option(
      "--bench", options->benches,
      "Measure this benchmark (repeatable; default: every one marked with 'ej bench add --ci')");
  command->add_flag("--json", options->json,
                    "Print the summary as JSON (the markdown still goes to "
                    "$GITHUB_STEP_SUMMARY)");
  command->add_option(
      "--max-rounds", options->max_rounds,
      "The most rounds per benchmark and combination (default 100), as ej run --until-decisive");
  command->add_option("--budget", options->budget,
                      "Stop each benchmark (inconclusive) once this much time is spent on it: 90s, 15m, 2h");
  command->footer(
      "Exit codes: 0 no decisive regression (an inconclusive benchmark is a warning), 1 a decisive "
      "regression of a primary metric beyond the benchmark's --min-effect (or an error: 'ej: error:'), 2 "
      "usage (no benchmark marked for CI, no default branch); 128 + N after signal N. The markdown summary "
      "goes to stdout and is appended to $GITHUB_STEP_SUMMARY when it is set; with $GITHUB_SERVER_URL and "
      "$GITHUB_REPOSITORY it links the commits and their comparison, with $GITHUB_RUN_ID the workflow run.");
  command->callback([options] { run_ci(*options); });
}

} // namespace ej::cli
