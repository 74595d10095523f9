#include "cli/commands.h"
#include "cli/evidence.h"
#include "cli/output.h"
#include "cli/workspace.h"
#include "core/target.h"
#include "store/queries.h"
#include "util/error.h"
#include "util/strings.h"

#include <fmt/format.h>

// Judging results: ej compare and ej judge.
namespace ej::cli {

namespace {

// "r5", "run5", "run:5" name a run; "12", "#12", "a12" an attempt.
RunSet resolve_side(store::Journal& journal, const std::string& text, const std::string& bench)
{
  // The number parser speaks of attempts only; "r-x" is a bad run as much as a bad attempt.
  try {
    for (const std::string prefix : {"run:", "run", "r"}) {
      if (text.rfind(prefix, 0) == 0 && text.size() > prefix.size()) {
        return run_set_of_run(journal, parse_attempt_number(text.substr(prefix.size())));
      }
    }
    std::string attempt = text;
    if (attempt.rfind('a', 0) == 0) {
      attempt = attempt.substr(1);
    }
    return run_set_of_attempt(journal, parse_attempt_number(attempt), bench);
  } catch (const UsageError&) {
    throw UsageError("'{}' names neither a run (r5, run:5) nor an attempt (12, #12)", text);
  }
}

std::string format_value(double value)
{
  return fmt::format("{:.4g}", value);
}

// "14.5 ms", or "14.5" for a metric without a unit.
std::string format_value(double value, const std::string& unit)
{
  return unit.empty() ? format_value(value) : format_value(value) + " " + unit;
}

std::string percent(const std::optional<double>& value)
{
  return value ? fmt::format("{:+.2f}%", *value) : std::string("n/a");
}

nlohmann::json comparison_json(const SeriesComparison& s)
{
  const auto& c = s.comparison;
  const auto optional = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); };
  return {{"metric", s.metric},
          {"params", s.params},
          {"key", s.key},
          {"unit", s.unit},
          {"reference_median", c.reference_median},
          {"candidate_median", c.candidate_median},
          {"n_reference", c.n_reference},
          {"n_candidate", c.n_candidate},
          {"ratio", optional(c.ratio)},
          {"change_pct", optional(c.change_pct)},
          {"ci_low_pct", optional(c.change_low_pct)},
          {"ci_high_pct", optional(c.change_high_pct)},
          {"shift", c.shift},
          {"shift_low", c.shift_low},
          {"shift_high", c.shift_high},
          {"confidence", c.confidence},
          {"u", c.u},
          {"p_value", c.p_value},
          {"exact", c.exact},
          {"outcome", measure::to_string(c.outcome)},
          {"warnings", c.warnings}};
}

struct CompareOptions {
  std::string a;
  std::string b;
  std::string metric;
  std::string bench;
  bool json = false;
  bool force = false;
};

void run_compare(const CompareOptions& options)
{
  auto journal = open_journal(locate_workspace());
  const auto reference = resolve_side(journal, options.a, options.bench);
  const auto candidate = resolve_side(journal, options.b, options.bench.empty() ? reference.bench : options.bench);
  const auto report = compare_sets(journal, reference, candidate, options.metric, options.force);
  if (options.json) {
    auto series = nlohmann::json::array();
    for (const auto& s : report.series) {
      series.push_back(comparison_json(s));
    }
    print_json({{"reference", reference.label},
                {"candidate", candidate.label},
                {"bench", candidate.bench},
                {"series", series},
                {"crossover", report.crossover},
                {"environment_changes", report.env_changes},
                {"warnings", report.warnings}});
    return;
  }
  fmt::print("{} (reference) vs {} (candidate), benchmark {}\n", reference.label, candidate.label, candidate.bench);
  for (const auto& s : report.series) {
    const auto& c = s.comparison;
    auto name = s.metric;
    if (!s.params.empty()) {
      name += " [" + s.params + "]";
    }
    if (!s.key.empty()) {
      name += " " + s.key;
    }
    fmt::print("\n{}\n", paint(name, Colour::Bold));
    fmt::print("  median     {} -> {}  (n = {} vs {})\n", format_value(c.reference_median, s.unit),
               format_value(c.candidate_median, s.unit), c.n_reference, c.n_candidate);
    fmt::print("  change     {}  ({:.0f}% interval {}, {})  p = {:.3g}{}\n", percent(c.change_pct),
               c.confidence * 100, percent(c.change_low_pct), percent(c.change_high_pct), c.p_value,
               c.exact ? " (exact)" : "");
    fmt::print("  outcome    {}\n", paint(std::string(measure::to_string(c.outcome)),
                                          c.outcome == measure::Outcome::Improved    ? Colour::Green
                                          : c.outcome == measure::Outcome::Regressed ? Colour::Red
                                                                                     : Colour::Yellow));
    for (const auto& warning : c.warnings) {
      fmt::print("  warning    {}\n", warning);
    }
  }
  if (!report.crossover.empty()) {
    fmt::print("\ncrossover: {}\n", report.crossover);
  }
  if (!report.warnings.empty()) {
    fmt::print("\n");
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
  bool apply = false;
};

void run_judge(const JudgeOptions& options)
{
  const int number = parse_attempt_number(options.id);
  const auto workspace = locate_workspace();
  auto journal = open_journal(workspace);
  const auto attempt = store::find_attempt(journal.db(), number);
  if (!attempt) {
    throw Error("there is no attempt #{}; see 'ej log'", number);
  }
  const auto verdict = attempt_verdict(journal, number);
  if (!verdict) {
    throw Error("attempt #{} cannot be judged: it needs finished runs with samples of the primary metric, of "
                "the same benchmark revision as the baseline of plan {} (pin one with 'ej plan baseline {} --run N'; "
                "compare by hand with 'ej compare')",
                number, attempt->plan, attempt->plan);
  }
  const auto& c = verdict->headline.comparison;
  core::Status proposal = core::Status::Inconclusive;
  if (c.outcome == measure::Outcome::Improved) {
    proposal = verdict->meets_target.value_or(true) ? core::Status::Adopted : core::Status::Inconclusive;
  } else if (c.outcome == measure::Outcome::Regressed || c.outcome == measure::Outcome::NoChange) {
    proposal = core::Status::Rejected;
  }
  const auto plan = store::find_plan(journal.db(), attempt->plan);
  const auto& unit = verdict->headline.unit;
  std::string reason = fmt::format(
    "judged from {} against baseline run #{}: {} {} -> {} ({} {}, {:.0f}% interval [{}, {}], p = {:.3g}, "
    "n = {} vs {})",
    verdict->candidate.label, verdict->baseline_run, verdict->headline.metric, format_value(c.reference_median, unit),
    format_value(c.candidate_median, unit), percent(c.change_pct), measure::to_string(c.outcome),
    c.confidence * 100, percent(c.change_low_pct), percent(c.change_high_pct), c.p_value, c.n_reference,
    c.n_candidate);
  if (verdict->meets_target) {
    reason += fmt::format("; {} the target {}", *verdict->meets_target ? "meets" : "does not meet", plan->target);
  }
  fmt::print("#{} {}\n  evidence: {}\n  proposed status: {}\n", number, attempt->title, reason,
             paint_status(proposal));
  if (!options.apply) {
    fmt::print("  record it with: ej judge {} --apply\n", number);
    return;
  }
  journal.write([&](store::Writer& writer) {
    const auto git = capture_git_context(writer, workspace);
    writer.append("attempt.status", {{"attempt", number},
                                     {"status", core::to_string(proposal)},
                                     {"reason", reason},
                                     {"git", core::to_json(git)}});
  });
  fmt::print("#{}: {} -> {}\n", number, core::to_string(attempt->status), core::to_string(proposal));
}

} // namespace

void register_compare(CLI::App& app)
{
  auto options = std::make_shared<CompareOptions>();
  auto* compare = app.add_subcommand(
    "compare", "Compare two runs (r5) or attempts (12): medians, change, confidence interval, p-value, outcome");
  compare->add_option("reference", options->a, "The reference: a run (r5, run:5) or an attempt (12, #12)")->required();
  compare->add_option("candidate", options->b, "The candidate: a run or an attempt")->required();
  compare->add_option("--metric", options->metric, "Only this metric");
  compare->add_option("--bench", options->bench, "For attempts: the benchmark to use");
  compare->add_flag("--force", options->force, "Compare even across benchmark revisions");
  compare->add_flag("--json", options->json, "Print JSON");
  compare->callback([options] { run_compare(*options); });

  auto judge_options = std::make_shared<JudgeOptions>();
  auto* judge = app.add_subcommand("judge", "Propose an attempt's status from its runs against the baseline");
  judge->add_option("id", judge_options->id, "Attempt number")->required();
  judge->add_flag("--apply", judge_options->apply, "Record the proposed status with a reason made of the numbers");
  judge->callback([judge_options] { run_judge(*judge_options); });
}

} // namespace ej::cli
