#include "evidence/bisect.h"

#include "core/numbering.h"
#include "evidence/history_reading.h"
#include "evidence/integrity.h"
#include "git/history.h"
#include "measuring/interleaved_against.h"
#include "run/signals.h"
#include "store/interleaved_queries.h"
#include "store/run_queries.h"
#include "util/error.h"

#include <fmt/format.h>

#include <cstring>

namespace ej::evidence {

namespace {

std::string short_id(const std::string& commit)
{
  return commit.substr(0, 10);
}

// What one bisection measures with: the request, the line, and where it reports.
struct Bisection {
  store::Journal& journal;
  const measuring::Workspace& workspace;
  const BisectRequest& request;
  measuring::RunObserver& observer;
  const std::vector<LineCommit>& commits;
  bool numbers_from_remote = false;
};

// `index` measured against GOOD, until decisive or max_rounds; judged in the step's band once the
// step is known (min_effect), else in the benchmark's own.
BisectMeasured measure_commit(const Bisection& b, std::size_t index, const std::optional<BisectStep>& step)
{
  const auto& good = b.commits.front();
  const auto& commit = b.commits[index];
  measuring::InterleavedRequest request;
  request.candidate.bench = b.request.bench;
  request.candidate.params = b.request.params;
  request.candidate.on = b.request.on;
  request.candidate.slurm = b.request.slurm;
  request.candidate.label = fmt::format("bisect {}..{}", short_id(good.id), short_id(b.commits.back().id));
  request.candidate.repeats.echo = false; // stdout is the answer's
  request.candidate.repeats.echo_build = false;
  request.until_decisive = true;
  request.max_rounds = b.request.max_rounds;
  request.metric = b.request.metric;
  if (step) {
    request.min_effect_pct = step->min_effect_pct;
  }
  request.reference_name = b.request.good;
  request.purpose = "bisect"; // its verdict's next step is the bisection's, not one of its own
  const bool is_bad = index + 1 == b.commits.size();
  const measuring::ReferenceCode candidate{
      fmt::format("{} {}", is_bad ? "BAD" : "commit", short_id(commit.id)), {commit.id, {}, {}}, {}};
  const measuring::ReferenceCode reference{fmt::format("GOOD {}", short_id(good.id)), {good.id, {}, {}}, {}};
  const auto read_code = [](const measuring::Workspace& side) { return measuring::read_code_state(side); };
  measuring::DetachedReport not_detached;
  const auto result = measuring::measure_restored(b.journal, b.workspace, candidate, reference, std::nullopt,
                                                  std::move(request), b.observer, read_code,
                                                  b.numbers_from_remote, not_detached);

  BisectMeasured out;
  out.index = index;
  out.candidate_run = result.candidate.run;
  out.reference_run = result.reference.run;
  if (result.candidate.status == core::RunStatus::Interrupted && run::InterruptGuard::signal_number() != 0) {
    const int signal = run::InterruptGuard::signal_number();
    b.observer.message(fmt::format("ej: bisect interrupted by SIG{}; runs {} and {} keep the rounds measured "
                                   "before, and no answer is recorded",
                                   ::sigabbrev_np(signal), core::number_label(result.candidate.run),
                                   core::number_label(result.reference.run)));
    throw ExitCode{128 + signal};
  }
  if (result.failed == measuring::InterleavedResult::Side::Reference) {
    throw Error("GOOD ({}) could not be measured against {}: run {} {}: {}; see 'ej show run {}'",
                short_id(good.id), short_id(commit.id), core::number_label(result.reference.run),
                core::to_string(result.reference.status), result.reference.reason,
                core::number_label(result.reference.run));
  }
  if (result.failed == measuring::InterleavedResult::Side::Candidate) {
    out.verdict = CommitClass::Skipped;
    out.why = result.candidate.status == core::RunStatus::BuildFailed
                  ? fmt::format("its build failed (run {})", core::number_label(result.candidate.run))
                  : fmt::format("run {} {}: {}", core::number_label(result.candidate.run),
                                core::to_string(result.candidate.status), result.candidate.reason);
    return out;
  }
  if (const auto record = store::interleaved_comparison_of(b.journal.db(), result.candidate.run)) {
    out.comparison = judge_interleaved(b.journal.db(), *record);
  }
  if (!out.comparison) {
    out.verdict = CommitClass::Skipped;
    out.why = fmt::format("no round was measured (run {} {})", core::number_label(result.candidate.run),
                          core::to_string(result.candidate.status));
    return out;
  }
  out.verdict = step ? classify(*out.comparison, *step) : CommitClass::Inconclusive;
  if (out.verdict == CommitClass::Inconclusive) {
    out.why = fmt::format("inconclusive after {} round{} (--max-rounds {})", result.rounds,
                          result.rounds == 1 ? "" : "s",
                          b.request.max_rounds.value_or(measuring::k_default_max_rounds));
    if (out.comparison->integrity.validity != Validity::Valid) {
      out.why += "; " + integrity_text(out.comparison->integrity);
    }
  }
  return out;
}

// "bad: +199.8% [+180.1%, +220.3%]", "skipped: its build failed (run #9)"
std::string measured_text(const BisectMeasured& measured, const BisectStep& step)
{
  if (measured.verdict == CommitClass::Skipped || measured.verdict == CommitClass::Inconclusive) {
    return fmt::format("skipped, {}", measured.why);
  }
  for (const auto& series : measured.comparison->series) {
    if (series.metric == measured.comparison->primary) {
      // The series that decided: the one that stepped when bad, the first when good.
      if (measured.verdict == CommitClass::Good || series.outcome_on_figures() == step.outcome) {
        const auto& integrity = measured.comparison->integrity;
        return fmt::format("{}: {} against GOOD{}", to_string(measured.verdict), change_text(series),
                           integrity.validity == Validity::Valid ? ""
                                                                 : " (" + integrity_text(integrity) + ")");
      }
    }
  }
  return std::string(to_string(measured.verdict));
}

// The commits from GOOD to BAD along BAD's first parents, oldest first.
std::vector<LineCommit> line_between(const measuring::Workspace& workspace, const BisectRequest& request)
{
  const auto resolve = [&](const std::string& revision, const char* which) {
    const auto commit = git::resolve_commit(workspace.work_tree, revision);
    if (!commit) {
      throw UsageError("{} '{}' names no commit of this repository; give a branch, tag or commit", which,
                       revision);
    }
    return *commit;
  };
  const auto good = resolve(request.good, "GOOD");
  const auto bad = resolve(request.bad, "BAD");
  if (good == bad) {
    throw UsageError("GOOD and BAD are the same commit ({}): give the last commit known good and the first "
                     "known bad, e.g. ej bisect {} v1.2 main",
                     short_id(good), request.bench);
  }
  auto line = read_line(workspace, bad);
  std::size_t at = line.size();
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i].id == good) {
      at = i;
    }
  }
  if (at == line.size()) {
    throw UsageError("GOOD ({}) is not on BAD's first-parent line: ej bisect follows first parents, as ej "
                     "history does; give a GOOD that 'git log --first-parent {}' lists (older than BAD)",
                     short_id(good), request.bad);
  }
  line.erase(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(at));
  return line;
}

// The step.located event of a bisection that found something.
store::events::StepLocated located_event(const BisectReport& report)
{
  store::events::StepLocated out;
  out.bench = report.bench;
  out.metric = report.metric;
  out.params = report.params;
  out.good = report.commits.front().id;
  out.bad = report.commits.back().id;
  if (report.outcome == BisectOutcome::Found) {
    out.first_bad = report.commits[report.candidates.back()].id;
  }
  for (const auto index : report.candidates) {
    out.candidates.push_back(report.commits[index].id);
  }
  for (const auto& measured : report.measured) {
    if (measured.verdict == CommitClass::Skipped || measured.verdict == CommitClass::Inconclusive) {
      out.skipped.push_back({report.commits[measured.index].id, measured.why});
    }
  }
  out.min_effect_pct = report.step->min_effect_pct;
  const auto* first_bad = first_bad_measure(report);
  if (first_bad != nullptr) {
    if (const auto* series = stepped_series(*first_bad, *report.step)) {
      out.log_ratio = series->scale == measure::PairedScale::LogRatio;
      out.estimate = series->estimate;
      out.low = series->low;
      out.high = series->high;
      out.unit = series->unit;
    }
  }
  return out;
}

// The step: BAD against GOOD, judged in the benchmark's minimum effect. BAD is bad by definition
// once it stepped; without a step its verdict says what it is.
void measure_step(const Bisection& b, BisectReport& report)
{
  auto& bad = report.bad_against_good;
  bad = measure_commit(b, report.commits.size() - 1, std::nullopt);
  if (bad.verdict == CommitClass::Skipped) {
    throw Error("BAD ({}) could not be measured: {}; give a BAD that builds and runs (see 'ej show run {}')",
                short_id(report.commits.back().id), bad.why, core::number_label(bad.candidate_run));
  }
  report.metric = bad.comparison->primary;
  report.step = step_of(*bad.comparison);
  if (!report.step) {
    if (bad.comparison->outcome == measure::Outcome::NoChange) {
      bad.verdict = CommitClass::Good;
      bad.why.clear();
    }
    b.observer.message(fmt::format("ej: bisect: BAD against GOOD is {} in {}: no step to look for",
                                   paired_outcome_text(bad.comparison->outcome), report.metric));
    return;
  }
  bad.verdict = CommitClass::Bad;
  bad.why.clear();
  const auto& step = *report.step;
  b.observer.message(fmt::format(
      "ej: bisect: BAD against GOOD: {} {} in {}; a commit is bad when it moved "
      "beyond {:g}% (half the step, at least the minimum effect), good when within it",
      paired_outcome_text(step.outcome), change_text(step.series), report.metric, step.min_effect_pct));
}

// The commits between, as the search asks for them, each against GOOD.
void search_commits(const Bisection& b, BisectReport& report)
{
  const auto& step = *report.step;
  BisectSearch search(report.commits.size());
  while (const auto index = search.next()) {
    const auto& commit = report.commits[*index];
    b.observer.message(fmt::format("ej: bisect: measuring {} \"{}\" ({} of {}) against GOOD; {} commit{} "
                                   "left to test, about {} step{}",
                                   short_id(commit.id), commit.subject, *index, report.commits.size() - 1,
                                   search.untested(), search.untested() == 1 ? "" : "s", search.steps_left(),
                                   search.steps_left() == 1 ? "" : "s"));
    report.measured.push_back(measure_commit(b, *index, step));
    const auto& measured = report.measured.back();
    search.record(*index, measured.verdict);
    b.observer.message(fmt::format("ej: bisect: {} is {}; the first bad commit is in ({}, {}]",
                                   short_id(commit.id), measured_text(measured, step),
                                   short_id(report.commits[search.last_good()].id),
                                   short_id(report.commits[search.first_bad()].id)));
  }
  report.outcome = search.found() ? BisectOutcome::Found : BisectOutcome::Ambiguous;
  report.candidates = search.candidates();
}

// The answer as a step.located event, its runs named by their ids.
void record_answer(store::Journal& journal, BisectReport& report)
{
  journal.write([&](store::Writer& writer) {
    auto event = located_event(report);
    if (const auto* first_bad = first_bad_measure(report)) {
      const auto candidate = store::find_run(journal.db(), first_bad->candidate_run);
      const auto reference = store::find_run(journal.db(), first_bad->reference_run);
      event.candidate = store::events::Ref::to(candidate ? candidate->id : "");
      event.reference = store::events::Ref::to(reference ? reference->id : "");
    }
    report.located_event = writer.append(event).id;
  });
}

} // namespace

const char* to_string(BisectOutcome outcome)
{
  switch (outcome) {
  case BisectOutcome::Found:
    return "found";
  case BisectOutcome::Ambiguous:
    return "ambiguous";
  case BisectOutcome::NoStep:
    return "no-step";
  }
  return "no-step";
}

BisectReport run_bisect(store::Journal& journal, const measuring::Workspace& workspace,
                        const BisectRequest& request, measuring::RunObserver& observer)
{
  BisectReport report;
  report.bench = request.bench;
  std::vector<std::string> choices;
  for (const auto& choice : request.params) {
    choices.push_back(fmt::format("{}={}", choice.axis, fmt::join(choice.values, ",")));
  }
  report.params = fmt::format("{}", fmt::join(choices, " "));
  report.good_name = request.good;
  report.bad_name = request.bad;
  report.commits = line_between(workspace, request);
  const Bisection b{journal,  workspace,      request,
                    observer, report.commits, measuring::numbers_from_remote(workspace)};
  const auto between = report.commits.size() - 2;
  observer.message(fmt::format("ej: bisect: {} commit{} between GOOD {} and BAD {} along first parents; BAD "
                               "against GOOD first",
                               between, between == 1 ? "" : "s", short_id(report.commits.front().id),
                               short_id(report.commits.back().id)));

  measure_step(b, report);
  if (!report.step) {
    report.outcome = BisectOutcome::NoStep;
    return report;
  }
  search_commits(b, report);
  record_answer(journal, report);
  return report;
}

const BisectMeasured* first_bad_measure(const BisectReport& report)
{
  if (report.outcome == BisectOutcome::NoStep || report.candidates.empty()) {
    return nullptr;
  }
  const auto index = report.candidates.back();
  if (index + 1 == report.commits.size()) {
    return &report.bad_against_good;
  }
  for (const auto& measured : report.measured) {
    if (measured.index == index) {
      return &measured;
    }
  }
  return nullptr;
}

const PairedVerdict* stepped_series(const BisectMeasured& measured, const BisectStep& step)
{
  if (!measured.comparison) {
    return nullptr;
  }
  for (const auto& series : measured.comparison->series) {
    if (series.metric == measured.comparison->primary && series.outcome == step.outcome) {
      return &series;
    }
  }
  return nullptr;
}

nlohmann::json to_json(const BisectReport& report)
{
  const auto commit_json = [&](std::size_t index) {
    return nlohmann::json{{"commit", report.commits[index].id}, {"subject", report.commits[index].subject}};
  };
  const auto measured_json = [&](const BisectMeasured& measured) {
    auto out = commit_json(measured.index);
    out["verdict"] = std::string(to_string(measured.verdict));
    out["candidate_run"] = measured.candidate_run;
    out["reference_run"] = measured.reference_run;
    out["why"] = measured.why;
    out["comparison"] = measured.comparison ? to_json(*measured.comparison) : nlohmann::json();
    return out;
  };
  auto measured = nlohmann::json::array();
  for (const auto& m : report.measured) {
    measured.push_back(measured_json(m));
  }
  auto candidates = nlohmann::json::array();
  for (const auto index : report.candidates) {
    candidates.push_back(commit_json(index));
  }
  nlohmann::json step;
  if (report.step) {
    step = {{"outcome", paired_outcome_text(report.step->outcome)},
            {"min_effect_pct", report.step->min_effect_pct}};
  }
  nlohmann::json first_bad;
  if (report.outcome == BisectOutcome::Found) {
    first_bad = commit_json(report.candidates.back());
  }
  return {{"bench", report.bench},
          {"metric", report.metric},
          {"good", commit_json(0)},
          {"bad", commit_json(report.commits.size() - 1)},
          {"commits_between", report.commits.size() - 2},
          {"outcome", to_string(report.outcome)},
          {"first_bad", first_bad},
          {"candidates", candidates},
          {"step", step},
          {"bad_against_good", measured_json(report.bad_against_good)},
          {"measured", measured},
          {"located_event",
           report.located_event.empty() ? nlohmann::json() : nlohmann::json(report.located_event)}};
}

} // namespace ej::evidence
