#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/current_plan.h"
#include "cli/lookup.h"
#include "cli/output.h"
#include "cli/verdict_output.h"
#include "core/numbering.h"
#include "core/slug.h"
#include "core/target.h"
#include "evidence/evaluation.h"
#include "evidence/plan_measures.h"
#include "evidence/reader.h"
#include "evidence/verdict.h"
#include "measuring/workspace.h"
#include "store/local_config.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/strings.h"
#include "util/time.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace ej::cli {

namespace {

struct NewOptions {
  std::string slug;
  std::string title;
  std::string goal;
  std::vector<std::string> targets;
  std::vector<std::string> measures;
  std::string headline;
  std::string doc;
};

// What --measure, --target and --headline give, checked against the registered benchmarks.
struct Measuring {
  std::vector<std::string> measures; // "serve:tok_s@concurrency=1"
  std::vector<std::string> targets;  // "verify:verify_ms < 15", the benchmark found when it was not named
  std::string target;                // the first target without its benchmark, for ej before measures
  std::string headline;              // "concurrency=1"
};

Measuring checked_measuring(store::Database& db, const std::vector<std::string>& measure_texts,
                            const std::vector<std::string>& target_texts, const std::string& headline_text)
{
  Measuring out;
  std::vector<core::PlanMeasure> measures;
  for (const auto& text : measure_texts) {
    auto measure =
        evidence::checked_measure(db, core::parse_plan_measure(checked_text(text, "measure", false)));
    for (const auto& other : measures) {
      if (other.bench == measure.bench && other.metric == measure.metric) {
        throw UsageError("--measure {} is given twice", core::to_string(measure));
      }
    }
    out.measures.push_back(core::to_string(measure));
    measures.push_back(std::move(measure));
  }
  const auto headline = core::parse_combination(checked_text(headline_text, "headline"), "--headline");
  evidence::check_headline(db, headline, measures);
  out.headline = core::describe(headline);
  for (const auto& text : target_texts) {
    // Refuses what does not parse, with the reason; finds the benchmark that measures it.
    const auto target =
        evidence::bind_target(db, core::parse_target(checked_text(text, "target", false)), measures);
    out.targets.push_back(core::qualified(target));
    if (out.target.empty()) {
      out.target = core::to_string(target);
    }
  }
  return out;
}

void run_plan_new(const NewOptions& options)
{
  core::validate_slug(options.slug, "plan slug");
  const auto title = checked_text(options.title, "plan title", false);
  const auto goal = checked_text(options.goal, "goal");
  const auto workspace = measuring::locate_workspace();
  // --doc is relative to the current directory; the plan keeps it relative to the work tree root.
  const auto doc =
      options.doc.empty()
          ? "journal/" + options.slug + ".md"
          : repository_relative(workspace, checked_document_path(workspace, command_line_path(options.doc),
                                                                 options.doc, "--doc"));
  auto journal = open_journal(workspace);
  journal.write([&](store::Writer& writer) {
    if (store::find_plan(journal.db(), options.slug)) {
      throw Error("a plan named '{}' already exists; see 'ej plan show {}'", options.slug, options.slug);
    }
    const auto m = checked_measuring(journal.db(), options.measures, options.targets, options.headline);
    store::events::PlanCreated created;
    created.slug = options.slug;
    created.title = title;
    created.goal = goal;
    created.target = m.target;
    created.doc = doc;
    // A plan of no measure and one target unbound stays as ej always wrote it.
    if (!m.measures.empty() || m.targets.size() > 1 ||
        (m.targets.size() == 1 && m.targets.front() != m.target)) {
      created.targets = m.targets;
    }
    created.measures = m.measures;
    created.headline = m.headline;
    writer.append(created);
  });
  fmt::print("created plan {} ({})\n", options.slug, doc);
}

struct EditOptions {
  std::string slug;
  std::optional<std::string> title;
  std::optional<std::string> goal;
  std::vector<std::string> targets;
  bool no_targets = false;
  std::vector<std::string> measures;
  std::optional<std::string> headline;
  std::optional<std::string> doc;
};

void run_plan_edit(EditOptions options)
{
  const auto workspace = measuring::locate_workspace();
  auto journal = open_journal(workspace);
  options.slug = choose_plan(journal, options.slug);
  if (!options.targets.empty() && options.no_targets) {
    throw UsageError("--target and --no-target contradict each other; give one");
  }
  std::optional<std::string> doc;
  if (options.doc) {
    doc = repository_relative(
        workspace, checked_document_path(workspace, command_line_path(*options.doc), *options.doc, "--doc"));
  }
  journal.write([&](store::Writer& writer) {
    const auto plan = require_plan(journal, options.slug);
    store::events::PlanEdited edit;
    edit.slug = plan.slug;
    if (options.title) {
      edit.title = checked_text(*options.title, "plan title", false);
    }
    if (options.goal) {
      edit.goal = checked_text(*options.goal, "goal");
    }
    edit.doc = doc;
    // The lists given replace the plan's; those not given stay (their targets are bound again
    // against the measures in force).
    std::vector<std::string> measures;
    for (const auto& m : plan.measures) {
      measures.push_back(core::to_string(m));
    }
    if (!options.measures.empty()) {
      measures = options.measures;
    }
    std::vector<std::string> targets;
    for (const auto& t : plan.targets) {
      targets.push_back(core::qualified(t));
    }
    if (!options.targets.empty() || options.no_targets) {
      targets = options.targets;
    }
    const auto m = checked_measuring(journal.db(), measures, targets,
                                     options.headline ? *options.headline : core::describe(plan.headline));
    if (!options.measures.empty()) {
      edit.measures = m.measures;
    }
    if (!options.targets.empty() || options.no_targets || !options.measures.empty()) {
      edit.targets = m.targets;
      edit.target = m.target;
    }
    if (options.headline) {
      edit.headline = m.headline;
    }
    if (!edit.title && !edit.goal && !edit.doc && !edit.measures && !edit.targets && !edit.headline) {
      throw UsageError("nothing to change: give --title, --goal, --measure, --target, --no-target, "
                       "--headline or --doc");
    }
    writer.append(edit);
  });
  fmt::print("edited plan {}\n", options.slug);
}

struct ListOptions {
  bool json = false;
};

void run_plan_list(const ListOptions& options)
{
  auto journal = open_journal_for_reading(measuring::locate_workspace());
  const auto plans = store::list_plans(journal.db());
  const auto current = store::current_plan(journal.db());
  if (options.json) {
    auto out = nlohmann::json::array();
    for (const auto& plan : plans) {
      out.push_back(to_json(plan));
    }
    print_json(out);
    return;
  }
  if (plans.empty()) {
    fmt::print("no plans yet; create one with: ej plan new SLUG --title \"...\"\n");
    return;
  }
  for (const auto& plan : plans) {
    fmt::print("{:<24} {:>4} attempts  {}{}\n", paint(plan.slug, Colour::Bold), plan.attempt_count,
               plan.title, plan.slug == current ? paint("  (current)", Colour::Dim) : "");
  }
}

struct PlanShowOptions {
  std::string slug;
  bool json = false;
};

void run_plan_show(const PlanShowOptions& options)
{
  auto journal = open_journal_for_reading(measuring::locate_workspace());
  const auto plan = require_plan(journal, choose_plan(journal, options.slug));
  store::AttemptFilter filter;
  filter.plan = plan.slug;
  auto attempts = store::list_attempts(journal.db(), filter);
  std::reverse(attempts.begin(), attempts.end());
  evidence::Reader reader(journal);
  reader.stream_plan(plan.slug, attempts);
  if (options.json) {
    auto out = to_json(plan);
    auto& list = out["attempt_list"] = nlohmann::json::array();
    for (const auto& attempt : attempts) {
      auto entry = to_json(attempt);
      if (const auto verdict = evidence::judge_attempt(reader, attempt.number).verdict) {
        entry["verdict"] = verdict_json(*verdict);
        entry["outcome"] = entry["verdict"]["outcome"];
        entry["meets_target"] = entry["verdict"]["meets_target"];
      }
      reader.forget_attempt(attempt.number);
      list.push_back(std::move(entry));
    }
    reader.end_stream();
    print_json(out);
    return;
  }
  fmt::print("{} {}\n", paint(plan.slug, Colour::Bold), plan.title);
  if (!plan.goal.empty()) {
    fmt::print("goal:     {}\n", indent_continuation(plan.goal, "          "));
  }
  const auto& measures = reader.measures(plan.slug);
  for (std::size_t i = 0; i < measures.measures.size(); ++i) {
    const auto& m = measures.measures[i];
    if (!m.declared) {
      break; // the plan's benchmark, found from its runs: documents name it
    }
    fmt::print("{}{}:{}{}{}\n", i == 0 ? "measures: " : "          ", m.bench, m.metric,
               m.headline.empty() ? "" : " at " + core::describe(m.headline), i == 0 ? " (headline)" : "");
  }
  if (!plan.headline.empty()) {
    fmt::print("headline: {}\n", core::describe(plan.headline));
  }
  for (std::size_t i = 0; i < plan.targets.size(); ++i) {
    fmt::print("{}{}\n", i == 0 ? "target:   " : "          ", core::qualified(plan.targets[i]));
  }
  fmt::print("document: {}\ncreated:  {}\n", plan.doc_path, util::format_utc(plan.created_ms));
  fmt::print("\n{} attempt(s)\n", attempts.size());
  // Every line is judged before any is printed (Reader::end_stream).
  std::vector<std::string> evidence_lines;
  for (const auto& attempt : attempts) {
    const auto evaluation = evidence::evaluate_attempt(reader, attempt.number);
    reader.forget_attempt(attempt.number);
    std::string evidence;
    if (const auto* verdict = evaluation ? evaluation->lead_verdict() : nullptr) {
      evidence = "  " + verdict->text;
      // The targets of every benchmark it ran, not only the lead verdict's.
      const bool measured =
          std::any_of(evaluation->targets.begin(), evaluation->targets.end(),
                      [](const auto& t) { return t.state != evidence::TargetState::NotMeasured; });
      if (measured) {
        evidence += evaluation->any_target_missed() ? "  misses target" : "  meets target";
      }
    }
    evidence_lines.push_back(std::move(evidence));
  }
  reader.end_stream();
  for (std::size_t i = 0; i < attempts.size(); ++i) {
    const auto& attempt = attempts[i];
    const auto resolved = core::resolved_text(attempt.resolved_by);
    fmt::print("  {:<6} {} {}{}{}\n", core::number_label(attempt.number),
               paint_status(attempt.status) + std::string(13 - core::to_string(attempt.status).size(), ' '),
               attempt.title, resolved.empty() ? "" : "  " + resolved, paint(evidence_lines[i], Colour::Dim));
  }
}

struct BaselineOptions {
  std::string slug;
  std::string bench;
  std::optional<std::string> run;
  std::string reason;
  bool json = false;
};

// The current pin of the plan that a reason given alone is for: of `bench` or of `run` when given
// (the run must be the current pin of its benchmark), else the plan's only one.
core::BaselineRecord pin_to_explain(store::Journal& journal, const std::string& plan,
                                    const std::string& bench, std::optional<int> run)
{
  std::map<std::string, core::BaselineRecord> current;
  for (auto& pin : store::baseline_history(journal.db(), plan)) {
    current[pin.bench] = std::move(pin);
  }
  if (current.empty()) {
    throw Error("plan {} has no baseline to give a reason to; pin one with 'ej plan baseline {} --run N "
                "--reason ...'",
                plan, plan);
  }
  std::vector<std::string> choices;
  for (const auto& [name, pin] : current) {
    if ((run && pin.run == *run && (bench.empty() || name == bench)) || (!run && name == bench)) {
      return pin;
    }
    choices.push_back(fmt::format("run {} ({})", core::number_label(pin.run), name));
  }
  if (!run && bench.empty() && current.size() == 1) {
    return current.begin()->second;
  }
  std::string problem;
  if (run) {
    problem = fmt::format("run {} is not a current baseline of {}{}", core::number_label(*run), plan,
                          bench.empty() ? "" : " for " + bench);
  } else if (!bench.empty()) {
    problem = fmt::format("plan {} has no baseline for {}", plan, bench);
  } else {
    problem = fmt::format("plan {} has a baseline for each of {} benchmarks", plan, current.size());
  }
  throw UsageError("{}; name the pin whose reason it is with --bench or --run: {}", problem,
                   util::join(choices, ", "));
}

// `ej plan baseline --reason R` on the current pin: the reason it was pinned without, or a better one.
void explain_baseline(store::Journal& journal, const std::string& plan, const std::string& bench,
                      std::optional<int> run, const std::string& reason)
{
  core::BaselineRecord pin;
  journal.write([&](store::Writer& writer) {
    pin = pin_to_explain(journal, plan, bench, run);
    if (pin.reason == reason) {
      throw Error("the baseline run {} of {} has that reason already", core::number_label(pin.run), plan);
    }
    writer.append(store::events::BaselineExplained{plan, pin.bench, pin.event_id, reason});
  });
  fmt::print("baseline of {} for {} (run {}): {}{}\n", plan, pin.bench, core::number_label(pin.run), reason,
             pin.reason.empty() ? "" : fmt::format(" (was: {})", pin.reason));
}

void run_plan_baseline(BaselineOptions options)
{
  const auto workspace = measuring::locate_workspace();
  auto journal = open_journal(workspace);
  options.slug = choose_plan(journal, options.slug);
  if (!options.reason.empty()) {
    // A reason for the pin in force: given alone, or with the run that is it already.
    const auto reason = checked_text(options.reason, "reason");
    const std::optional<int> run =
        options.run ? std::optional(parse_run_number(*options.run)) : std::optional<int>();
    const auto current =
        run ? store::plans_with_current_baseline(journal.db(), *run) : std::vector<std::string>{};
    if (!run || std::find(current.begin(), current.end(), options.slug) != current.end()) {
      explain_baseline(journal, options.slug, options.bench, run, reason);
      return;
    }
  }
  if (options.run) {
    const int number = parse_run_number(*options.run);
    const auto reason = checked_text(options.reason, "reason");
    journal.write([&](store::Writer& writer) {
      const auto run = store::find_run(journal.db(), number);
      if (!run) {
        throw Error("there is no run {}; see 'ej runs'", core::number_label(number));
      }
      if (!options.bench.empty() && run->bench != options.bench) {
        throw UsageError(
            "run {} is a run of benchmark {}, not {}: pin a run of {} (see 'ej runs --bench {}')",
            core::number_label(number), run->bench, options.bench, options.bench, options.bench);
      }
      if (run->status != core::RunStatus::Finished && run->status != core::RunStatus::Imported) {
        throw Error("run {} is {}: a baseline must be a finished (or imported) run",
                    core::number_label(number), core::to_string(run->status));
      }
      if (run->withdrawn()) {
        throw Error("{}: a withdrawn run cannot be a baseline ('ej run withdraw {} --undo' takes it back)",
                    evidence::withdrawn_text(*run), run->number);
      }
      const auto previous = evidence::baseline_for(store::baseline_history(journal.db(), options.slug),
                                                   run->bench, 0, evidence::Against::CurrentBaseline);
      if (previous && *previous == number) {
        throw Error(
            "run {} is already the baseline of {} for {}; to give it a reason: ej plan baseline {} --run "
            "{} --reason \"...\"",
            core::number_label(number), options.slug, run->bench, options.slug, number);
      }
      if (previous && reason.empty()) {
        throw UsageError("the baseline moves from run {} to run {}: say why with --reason",
                         core::number_label(*previous), core::number_label(number));
      }
      writer.append(
          store::events::BaselinePinned{options.slug, run->bench, store::events::Ref::to(run->id), reason});
    });
    fmt::print("baseline of {} is now run {}\n", options.slug, core::number_label(number));
    return;
  }
  if (!options.bench.empty()) {
    require_benchmark(journal, options.bench);
  }
  auto history = store::baseline_history(journal.db(), options.slug);
  if (!options.bench.empty()) {
    std::erase_if(history, [&](const auto& b) { return b.bench != options.bench; });
  }
  if (options.json) {
    auto out = nlohmann::json::array();
    for (const auto& b : history) {
      out.push_back({{"bench", b.bench},
                     {"run", b.run},
                     {"created", util::format_utc(b.time_ms)},
                     {"reason", b.reason}});
    }
    print_json(out);
    return;
  }
  if (history.empty()) {
    if (!options.bench.empty()) {
      fmt::print("plan {} has no baseline for {}; pin one with: ej plan baseline {} --bench {} --run N\n",
                 options.slug, options.bench, options.slug, options.bench);
      return;
    }
    fmt::print("plan {} has no baseline; pin one with: ej plan baseline {} --run N\n", options.slug,
               options.slug);
    return;
  }
  std::map<std::string, int> current;
  for (const auto& b : history) {
    current[b.bench] = b.run;
  }
  for (const auto& [bench, run] : current) {
    fmt::print("baseline for {}: run {}\n", bench, core::number_label(run));
  }
  fmt::print("\nhistory:\n");
  std::map<std::string, int> previous;
  for (const auto& b : history) {
    const auto before = previous.find(b.bench);
    if (before == previous.end()) {
      fmt::print("  {}  {}: run {} pinned{}\n", util::format_utc(b.time_ms), b.bench,
                 core::number_label(b.run), b.reason.empty() ? "" : ": " + b.reason);
    } else {
      fmt::print("  {}  {}: baseline moved from run {} to run {}{}\n", util::format_utc(b.time_ms), b.bench,
                 core::number_label(before->second), core::number_label(b.run),
                 b.reason.empty() ? "" : ": " + b.reason);
    }
    previous[b.bench] = b.run;
  }
}

} // namespace

void register_plan(CLI::App& app)
{
  auto* plan =
      app.add_subcommand("plan", "Plans (campaigns of attempts): new, list, show, use, baseline, render");
  plan->require_subcommand(1);

  auto new_options = std::make_shared<NewOptions>();
  auto* create = plan->add_subcommand("new", "Create a plan");
  create->add_option("slug", new_options->slug, "Short name: lowercase letters, digits, dashes")->required();
  create->add_option("--title", new_options->title, "Title of the plan")->required();
  create->add_option("--goal", new_options->goal, "What the campaign tries to achieve");
  create->add_option("--measure", new_options->measures,
                     "BENCH[:METRIC][@AXIS=V,...] the plan measures (repeatable; the first is the headline)");
  create->add_option("--target", new_options->targets,
                     "[BENCH:]METRIC OP NUMBER on any measured metric, e.g. \"verify_ms < 15\" (repeatable)");
  create->add_option("--headline", new_options->headline,
                     "AXIS=V,...: the combination a sweep is summed up at, e.g. concurrency=1");
  create->add_option("--doc", new_options->doc, "Path of the plan document (default journal/SLUG.md)");
  create->footer(
      "\nExamples:\n"
      "  ej plan new fast-verify --title \"EAGLE-3 fast verify\" --target \"verify_ms < 15\"\n"
      "  ej plan new fast-verify --title \"EAGLE-3 fast verify\" --measure serve:tok_s@concurrency=1 "
      "--measure "
      "verify:verify_ms --target \"verify_ms < 15\"\n"
      "\nThe target's benchmark is the one of the plan's measures that has the metric (name it as\n"
      "BENCH:METRIC when several do); each measure's benchmark has its own baseline.");
  create->callback([new_options] { run_plan_new(*new_options); });

  auto edit_options = std::make_shared<EditOptions>();
  auto* edit =
      plan->add_subcommand("edit", "Change a plan's title, goal, measures, targets, headline or document");
  add_plan_slug(edit, edit_options->slug);
  edit->add_option("--title", edit_options->title, "New title");
  edit->add_option("--goal", edit_options->goal, "New goal");
  edit->add_option(
      "--measure", edit_options->measures,
      "BENCH[:METRIC][@AXIS=V,...] (repeatable): replaces the plan's measures; the first is the headline");
  edit->add_option("--target", edit_options->targets,
                   "[BENCH:]METRIC OP NUMBER (repeatable): replaces the targets");
  edit->add_flag("--no-target", edit_options->no_targets, "Remove every target");
  edit->add_option("--headline", edit_options->headline,
                   "AXIS=V,...: the combination a sweep is summed up at");
  edit->add_option("--doc", edit_options->doc, "New path of the plan document");
  edit->footer(
      "\nExamples:\n"
      "  ej plan edit fast-verify --measure serve:tok_s --measure verify:verify_ms --headline concurrency=1\n"
      "  ej plan edit fast-verify --target \"verify_ms < 15\" --target \"serve:tok_s > 92.6\"");
  edit->callback([edit_options] { run_plan_edit(*edit_options); });

  auto list_options = std::make_shared<ListOptions>();
  auto* list = plan->add_subcommand("list", "List the plans");
  add_json_flag(list, list_options->json);
  list->callback([list_options] { run_plan_list(*list_options); });

  auto show_options = std::make_shared<PlanShowOptions>();
  auto* show = plan->add_subcommand("show", "Show a plan and its attempts");
  add_plan_slug(show, show_options->slug);
  add_json_flag(show, show_options->json);
  show->callback([show_options] { run_plan_show(*show_options); });

  auto baseline_options = std::make_shared<BaselineOptions>();
  auto* baseline =
      plan->add_subcommand("baseline", "Show the plan's baseline and its history, or pin a new one");
  add_plan_slug(baseline, baseline_options->slug);
  baseline->add_option(
      "--bench", baseline_options->bench,
      "Only this benchmark's baseline (each measure's benchmark has its own); with --run, the "
      "run must be of it");
  baseline->add_option("--run", baseline_options->run, "Pin this run as the baseline of its benchmark");
  baseline->footer(
      "\nExamples:\n"
      "  ej plan baseline fast-verify --run 14 --reason \"CUDA 13 stack\"   pin run #14 for its benchmark\n"
      "  ej plan baseline fast-verify --bench verify                      the verify baseline and its "
      "history");
  baseline->add_option("--reason", baseline_options->reason,
                       "Why (required when the baseline moves); without --run, or with the run pinned now, "
                       "gives the current pin its reason (of --bench's pin when the plan has several)");
  baseline->add_flag("--json", baseline_options->json, "Print the history as JSON");
  baseline->callback([baseline_options] { run_plan_baseline(*baseline_options); });

  register_plan_use(*plan);
  register_render(app, *plan);
}

} // namespace ej::cli
