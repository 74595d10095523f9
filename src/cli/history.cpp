#include "git/history.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/lookup.h"
#include "cli/output.h"
#include "cli/pager.h"
#include "cli/verdict_output.h"
#include "core/numbering.h"
#include "evidence/bisect_step.h"
#include "evidence/history_reading.h"
#include "evidence/reader.h"
#include "evidence/wording.h"
#include "measuring/workspace.h"
#include "render/number_format.h"
#include "store/events.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/strings.h"
#include "util/time.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <optional>
#include <unordered_map>

// A benchmark's history across commits: ej history, ej regressions, ej ack.
namespace ej::cli {

namespace {

std::string short_id(const std::string& commit)
{
  return commit.substr(0, 10);
}

// "r5", or "r@k3f9qx" while the number is provisional.
std::string run_name(int number)
{
  return "r" + core::number_text(number);
}

std::string history_p_text(double p)
{
  return p < 0.0001 ? "p<0.0001" : "p=" + render::format_number(p, 2);
}

// "variant=naive BM_Sum" or "".
std::string series_where(const std::string& params, const std::string& key)
{
  if (params.empty() || key.empty()) {
    return params + key;
  }
  return params + " " + key;
}

// The line followed: --branch, else HEAD's branch, else HEAD.
std::string line_name(const measuring::Workspace& workspace, const std::string& branch)
{
  if (!branch.empty()) {
    return branch;
  }
  return git::current_branch(workspace.work_tree).value_or("HEAD");
}

std::vector<evidence::LineCommit> read_line_of(const measuring::Workspace& workspace,
                                               const std::string& branch)
{
  auto line = evidence::read_line(workspace, branch);
  if (line.empty()) {
    throw Error("the repository has no commit yet: a history follows the commits of a branch");
  }
  return line;
}

// "+9.85% [+8.10%, +11.6%] 1.10x slower"
std::string step_change_text(const evidence::HistoryStep& step, const std::string& metric,
                             const std::string& unit)
{
  const auto& c = step.change;
  auto text = evidence::change_text(c, unit);
  const auto interval = evidence::interval_text(c, unit);
  if (!interval.empty()) {
    text += " " + interval;
  }
  const auto factor = evidence::factor_text(c, evidence::quantity_of(metric, unit));
  if (!factor.empty()) {
    text += " " + factor;
  }
  return text;
}

// "at f00ba12345 (the commit after 1a2b3c4d5e)" or "in 4 commits after 1a2b3c4d5e, up to f00ba12345"
std::string step_range_text(const evidence::HistoryStep& step)
{
  if (step.commits == 1) {
    return fmt::format("at {} (the commit after {})", short_id(step.bad), short_id(step.good));
  }
  return fmt::format("in {} commits after {}, up to {}", step.commits, short_id(step.good),
                     short_id(step.bad));
}

nlohmann::json located_json(const core::LocatedStep& located)
{
  auto skipped = nlohmann::json::array();
  for (const auto& skip : located.skipped) {
    skipped.push_back({{"commit", skip.commit}, {"why", skip.why}});
  }
  const auto finite = [](double value) {
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json();
  };
  return {{"event_id", located.event_id},
          {"metric", located.metric},
          {"params", located.params},
          {"good", located.good},
          {"bad", located.bad},
          {"first_bad", located.first_bad.empty() ? nlohmann::json() : nlohmann::json(located.first_bad)},
          {"candidates", located.candidates},
          {"skipped", skipped},
          {"min_effect_pct", located.min_effect_pct},
          {"candidate_run",
           located.candidate_run == 0 ? nlohmann::json() : nlohmann::json(located.candidate_run)},
          {"reference_run",
           located.reference_run == 0 ? nlohmann::json() : nlohmann::json(located.reference_run)},
          {"change",
           {{"scale", located.log_ratio ? "log-ratio" : "difference"},
            {"estimate", finite(located.estimate)},
            {"low", finite(located.low)},
            {"high", finite(located.high)},
            {"unit", located.unit},
            {"text", evidence::change_text(located)}}},
          {"time", util::format_utc(located.time_ms)}};
}

// "first bad commit 1a2b3c4d5e "slower sleeps": +200.3% [+190.1%, +210.0%] against 0a0b0c0d0e (runs
// r7, r8)", or "first bad commit one of 3a..., 4b... (skipped commits between): ..."
std::string located_text(const core::LocatedStep& located, std::span<const evidence::LineCommit> line)
{
  const auto subject = [&](const std::string& commit) {
    for (const auto& c : line) {
      if (c.id == commit) {
        return fmt::format(" \"{}\"", c.subject);
      }
    }
    return std::string();
  };
  std::string text;
  if (!located.first_bad.empty()) {
    text = fmt::format("first bad commit {}{}", short_id(located.first_bad), subject(located.first_bad));
  } else {
    std::vector<std::string> ids;
    for (const auto& commit : located.candidates) {
      ids.push_back(short_id(commit));
    }
    text = fmt::format("first bad commit one of {} (skipped commits between)", util::join(ids, ", "));
  }
  text += fmt::format(": {} against {}", evidence::change_text(located), short_id(located.good));
  if (located.candidate_run != 0 && located.reference_run != 0) {
    text += fmt::format(" (runs {}, {})", run_name(located.candidate_run), run_name(located.reference_run));
  }
  if (!located.params.empty()) {
    text += fmt::format(", --param {}", located.params);
  }
  return text;
}

nlohmann::json step_json(const std::string& metric, const std::string& params, const std::string& key,
                         const std::string& unit, const evidence::HistoryStep& step)
{
  evidence::SeriesComparison series{
      metric, params, "", "", key, unit, evidence::quantity_of(metric, unit), step.change};
  nlohmann::json ack;
  if (step.acknowledged) {
    ack = {{"commit", step.acknowledged->commit},
           {"reason", step.acknowledged->reason},
           {"metric", step.acknowledged->metric},
           {"time", util::format_utc(step.acknowledged->time_ms)}};
  }
  return {{"good", step.good},
          {"bad", step.bad},
          {"commits", step.commits},
          {"point", step.point},
          {"z", step.z},
          {"p_value", step.p_value},
          {"worse", step.worse},
          {"regression", step.regression},
          {"kind", evidence::describe_step(step)},
          {"acknowledged", ack},
          {"located", step.located ? located_json(*step.located) : nlohmann::json()},
          {"change", comparison_json(series)}};
}

struct HistoryOptions {
  std::string bench;
  std::string metric;
  std::vector<std::string> params;
  std::string branch;
  int revision = 0;
  bool json = false;
};

core::ParamValues history_selector(const std::vector<std::string>& pairs)
{
  core::ParamValues selector;
  for (const auto& pair : pairs) {
    const auto equals = pair.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw UsageError("--param takes AXIS=VALUE, e.g. --param variant=naive; not '{}'", pair);
    }
    selector[pair.substr(0, equals)] = pair.substr(equals + 1);
  }
  return selector;
}

nlohmann::json history_json(const evidence::History& h)
{
  auto points = nlohmann::json::array();
  for (const auto& p : h.points) {
    points.push_back({{"position", p.position},
                      {"commit", p.commit},
                      {"subject", p.subject},
                      {"runs", p.runs},
                      {"n", p.n},
                      {"median", p.median},
                      {"low", p.interval.low},
                      {"high", p.interval.high},
                      {"coverage", p.interval.coverage}});
  }
  auto steps = nlohmann::json::array();
  for (const auto& step : h.steps) {
    steps.push_back(step_json(h.metric, h.params, h.key, h.unit, step));
  }
  auto apart = nlohmann::json::array();
  for (const auto& run : h.apart) {
    apart.push_back({{"run", run.run},
                     {"commit", run.git.commit},
                     {"branch", run.git.branch},
                     {"dirty", run.git.dirty},
                     {"why", evidence::describe(run.why)},
                     {"n", run.n},
                     {"median", run.median}});
  }
  auto located = nlohmann::json::array();
  for (const auto& answer : h.located) {
    located.push_back(located_json(answer));
  }
  return {{"metric", h.metric},
          {"params", h.params},
          {"key", h.key},
          {"unit", h.unit},
          {"better", h.direction == measure::Direction::LowerIsBetter ? "lower" : "higher"},
          {"min_effect_pct", h.min_effect_pct},
          {"points", points},
          {"change_points", steps},
          {"located", located},
          {"apart", apart}};
}

// `text` padded with spaces to `width` columns as fmt's {:<N} ({:>N} when `right`) pads it: by hand
// when it is ASCII, a column a byte, since fmt decodes every character to measure it and a history
// pads 40,000 texts; through fmt otherwise.
void append_padded(fmt::memory_buffer& out, std::string_view text, std::size_t width, bool right)
{
  if (std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; })) {
    if (right) {
      fmt::format_to(std::back_inserter(out), "{:>{}}", text, width);
    } else {
      fmt::format_to(std::back_inserter(out), "{:<{}}", text, width);
    }
    return;
  }
  constexpr std::string_view spaces = "                                ";
  auto fill = width > text.size() ? width - text.size() : 0;
  if (!right) {
    out.append(text);
  }
  for (; fill > 0; fill -= std::min(fill, spaces.size())) {
    out.append(spaces.substr(0, fill));
  }
  if (right) {
    out.append(text);
  }
}

// A point's line of the table: "  1a2b3c4d5e      10.05 ms  [9.766 ms, 10.32 ms]         r1          change
// 1", as "  {:<10}  {:>12}  {:<27}  {:<10}  {}\n" writes it.
void append_point(fmt::memory_buffer& out, const evidence::HistoryPoint& p, const std::string& unit)
{
  std::string runs;
  for (const auto run : p.runs) {
    if (!runs.empty()) {
      runs += ',';
    }
    runs += run_name(run);
  }
  auto interval = "[" + evidence::value_text(p.interval.low, unit);
  interval += ", ";
  interval += evidence::value_text(p.interval.high, unit);
  interval += ']';
  out.append(std::string_view("  "));
  append_padded(out, std::string_view(p.commit).substr(0, 10), 10, false);
  out.append(std::string_view("  "));
  append_padded(out, evidence::value_text(p.median, unit), 12, true);
  out.append(std::string_view("  "));
  append_padded(out, interval, 27, false);
  out.append(std::string_view("  "));
  append_padded(out, runs, 10, false);
  out.append(std::string_view("  "));
  out.append(std::string_view(p.subject));
  out.push_back('\n');
}

// Written into one buffer and out in one write: a history of 10,000 commits is 10,000 lines.
void print_history(const evidence::History& h, std::span<const evidence::LineCommit> line_commits,
                   const std::string& line)
{
  fmt::memory_buffer out;
  // A point's line is about 100 bytes: grown 30 times, the buffer touched three times its memory.
  out.reserve(h.points.size() * 100);
  const auto to = std::back_inserter(out);
  const auto where = series_where(h.params, h.key);
  const auto regressions = std::count_if(h.steps.begin(), h.steps.end(),
                                         [](const auto& s) { return s.regression && !s.acknowledged; });
  fmt::format_to(to, "{}{}: {} ({} is better) along {}, revision {}\n", paint(h.bench, Colour::Bold),
                 where.empty() ? "" : " [" + where + "]", h.metric,
                 h.direction == measure::Direction::LowerIsBetter ? "lower" : "higher", line, h.revision);
  fmt::format_to(to, "  {} of {} commits measured; {} change point{}, {} unacknowledged regression{}\n\n",
                 h.points.size(), line_commits.size(), h.steps.size(), h.steps.size() == 1 ? "" : "s",
                 regressions, regressions == 1 ? "" : "s");
  fmt::format_to(to, "  {:<10}  {:>12}  {:<27}  {:<10}  {}\n", "commit", "median", "interval of the median",
                 "runs", "subject");
  std::size_t next_step = 0;
  for (std::size_t i = 0; i < h.points.size(); ++i) {
    if (next_step < h.steps.size() && h.steps[next_step].point == i) {
      const auto& step = h.steps[next_step++];
      const auto kind = evidence::describe_step(step);
      fmt::format_to(to, "  -- {}: {}, {} {}", step.regression ? paint(kind, Colour::Red) : kind,
                     step_change_text(step, h.metric, h.unit), history_p_text(step.p_value),
                     step_range_text(step));
      if (step.acknowledged) {
        fmt::format_to(to, "; acknowledged: {}", step.acknowledged->reason);
      }
      if (step.located) {
        fmt::format_to(to, "; located by ej bisect at {}", short_id(evidence::located_commit(*step.located)));
      }
      out.push_back('\n');
    }
    append_point(out, h.points[i], h.unit);
  }
  const auto ranges = std::count_if(h.points.begin(), h.points.end(),
                                    [](const auto& p) { return p.interval.coverage < 0.95; });
  if (ranges > 0) {
    fmt::format_to(
        to,
        "  (an interval is 95% where a commit has 6 samples or more; at the {} commit{} with fewer, the "
        "range of the samples)\n",
        ranges, ranges == 1 ? "" : "s");
  }
  if (!h.located.empty()) {
    fmt::format_to(to, "\n  located by ej bisect ({}):\n", h.located.size());
    for (const auto& answer : h.located) {
      fmt::format_to(to, "  {}  {}\n", util::format_utc(answer.time_ms).substr(0, 10),
                     located_text(answer, line_commits));
    }
  }
  if (!h.apart.empty()) {
    fmt::format_to(to, "\n  not in the series ({}):\n", h.apart.size());
    for (const auto& run : h.apart) {
      fmt::format_to(to, "  {:<9} {:>12}  {:<19} {}\n", run_name(run.run),
                     evidence::value_text(run.median, h.unit), evidence::describe(run.why),
                     run.git.commit.empty() ? "" : core::describe(run.git));
    }
  }
  std::fwrite(out.data(), 1, out.size(), stdout); // as print_json writes: no copy of 10,000 lines
}

void run_history(const HistoryOptions& options)
{
  const auto workspace = measuring::locate_workspace();
  auto journal = open_journal(workspace);
  require_benchmark(journal, options.bench);
  const auto selector = history_selector(options.params);
  const auto line = read_line_of(workspace, options.branch);
  evidence::Reader reader(journal);
  const auto input =
      evidence::read_history_input(reader, options.bench, options.revision, options.metric, line);
  if (!input) {
    throw Error("benchmark {} has no finished runs{}; run it with 'ej run {}'", options.bench,
                options.revision == 0 ? "" : fmt::format(" of revision {}", options.revision), options.bench);
  }
  evidence::HistoryOptions history_options;
  history_options.metric = options.metric;
  history_options.selector = selector;
  const auto histories = evidence::build_histories(*input, history_options);
  const auto name = line_name(workspace, options.branch);
  if (histories.empty()) {
    throw Error(
        "benchmark {} recorded no {}{} in revision {}; see 'ej show run N' for what its runs measured",
        options.bench, options.metric.empty() ? input->rules.primary : options.metric,
        selector.empty() ? "" : " at " + core::describe(selector), input->revision);
  }
  if (options.json) {
    auto series = nlohmann::json::array();
    for (const auto& h : histories) {
      series.push_back(history_json(h));
    }
    print_json({{"bench", options.bench},
                {"revision", input->revision},
                {"alike_revisions", input->alike_revisions},
                {"other_revisions", input->other_revisions},
                {"line", name},
                {"line_commits", line.size()},
                {"series", series}});
    return;
  }
  page_output();
  for (std::size_t i = 0; i < histories.size(); ++i) {
    if (i > 0) {
      fmt::print("\n");
    }
    print_history(histories[i], line, name);
  }
  const auto listed = [](const std::vector<int>& revisions) {
    std::vector<std::string> out;
    for (const auto revision : revisions) {
      out.push_back(std::to_string(revision));
    }
    return util::join(out, ", ");
  };
  if (!input->alike_revisions.empty()) {
    fmt::print("\nruns of revision{} {} of {} are in the series: they measure what revision {} measures (the "
               "revisions differ in how runs are judged)\n",
               input->alike_revisions.size() == 1 ? "" : "s", listed(input->alike_revisions), options.bench,
               input->revision);
  }
  if (!input->other_revisions.empty()) {
    fmt::print(
        "\nruns of other revisions of {} are left out (results of different revisions are never compared): "
        "revision {}; see them with --revision N\n",
        options.bench, listed(input->other_revisions));
  }
}

struct RegressionsOptions {
  std::string plan;
  std::string since;
  std::string branch;
  bool json = false;
};

void run_regressions(const RegressionsOptions& options)
{
  const auto workspace = measuring::locate_workspace();
  auto journal = open_journal(workspace);
  std::vector<std::string> benches;
  if (!options.plan.empty()) {
    require_plan(journal, options.plan);
    benches = store::plan_benchmarks(journal.db(), options.plan);
  } else {
    for (const auto& bench : store::list_benchmarks(journal.db())) {
      benches.push_back(bench.name);
    }
  }
  const auto line = read_line_of(workspace, options.branch);
  const auto name = line_name(workspace, options.branch);
  std::optional<std::size_t> since;
  if (!options.since.empty()) {
    const auto commit = git::resolve_commit(workspace.work_tree, options.since);
    if (!commit) {
      throw Error("--since {}: names no commit of this repository; give a branch, tag or commit",
                  options.since);
    }
    for (std::size_t i = 0; i < line.size() && !since; ++i) {
      if (line[i].id == *commit) {
        since = i;
      }
    }
    if (!since) {
      throw Error("--since {}: commit {} is not on the first-parent line of {}; give one of its commits "
                  "(git log --first-parent {})",
                  options.since, short_id(*commit), name, name);
    }
  }
  evidence::Reader reader(journal);
  const auto found = evidence::find_regressions(reader, benches, line, since);
  if (options.json) {
    auto list = nlohmann::json::array();
    for (const auto& r : found) {
      auto entry = step_json(r.metric, r.params, r.key, r.unit, r.step);
      entry["bench"] = r.bench;
      entry["revision"] = r.revision;
      entry["metric"] = r.metric;
      entry["params"] = r.params;
      entry["key"] = r.key;
      entry["unit"] = r.unit;
      entry["subject"] = r.subject;
      list.push_back(std::move(entry));
    }
    print_json(list);
    return;
  }
  if (found.empty()) {
    fmt::print("no unacknowledged regression along {} ({} benchmark{}{})\n", name, benches.size(),
               benches.size() == 1 ? "" : "s", since ? " since " + short_id(line[*since].id) : "");
    return;
  }
  page_output();
  for (const auto& r : found) {
    const auto where = series_where(r.params, r.key);
    fmt::print("{}{} {}: {}, {} {} \"{}\"\n", paint(r.bench, Colour::Bold),
               where.empty() ? "" : " [" + where + "]", r.metric,
               paint(step_change_text(r.step, r.metric, r.unit), Colour::Red), history_p_text(r.step.p_value),
               step_range_text(r.step), r.subject);
  }
  fmt::print("\n{} regression{} along {}; 'ej history BENCH' shows one, 'ej ack BENCH@COMMIT --reason ...' "
             "records that it is expected\n",
             found.size(), found.size() == 1 ? "" : "s", name);
}

struct AckOptions {
  std::string target;
  std::string reason;
  std::string metric;
  std::string branch;
};

void run_ack(const AckOptions& options)
{
  const auto at = options.target.find('@');
  if (at == std::string::npos || at == 0 || at + 1 == options.target.size()) {
    throw UsageError("'{}': name the step as BENCH@COMMIT, e.g. ej ack decode@f00ba12 --reason \"...\"",
                     options.target);
  }
  const auto bench = options.target.substr(0, at);
  const auto revision = options.target.substr(at + 1);
  const auto reason = checked_text(options.reason, "--reason", false);
  const auto workspace = measuring::locate_workspace();
  auto journal = open_journal(workspace);
  require_benchmark(journal, bench);
  const auto commit = git::resolve_commit(workspace.work_tree, revision);
  if (!commit) {
    throw Error("'{}' names no commit of this repository; give the commit 'ej history {}' shows for the step",
                revision, bench);
  }
  journal.write([&](store::Writer& writer) {
    writer.append(store::events::StepAcknowledged{bench, options.metric, *commit, reason});
  });
  fmt::print("acknowledged {}@{}{}: {}\n", bench, short_id(*commit),
             options.metric.empty() ? "" : " (" + options.metric + ")", reason);
  // Which step that is, as the history stands now.
  const auto line = evidence::read_line(workspace, options.branch);
  evidence::Reader reader(journal);
  const auto input = evidence::read_history_input(reader, bench, 0, options.metric, line);
  std::size_t matched = 0;
  if (input) {
    evidence::HistoryOptions history_options;
    history_options.metric = options.metric;
    for (const auto& h : evidence::build_histories(*input, history_options)) {
      for (const auto& step : h.steps) {
        if (step.acknowledged && step.acknowledged->commit == *commit) {
          const auto where = series_where(h.params, h.key);
          fmt::print("  the {} of {}{}: {} {}\n", evidence::describe_step(step), h.metric,
                     where.empty() ? "" : " [" + where + "]", step_change_text(step, h.metric, h.unit),
                     step_range_text(step));
          ++matched;
        }
      }
    }
  }
  if (matched == 0) {
    fmt::print(
        "  note: no change point of {}'s history along {} holds {} now; the acknowledgement applies to the "
        "one found there later\n",
        bench, line_name(workspace, options.branch), short_id(*commit));
  }
}

// --branch of ej history and ej regressions: the first-parent line both follow.
void add_line_option(CLI::App* command, std::string& branch)
{
  command->add_option("--branch", branch,
                      "Follow this branch, tag or commit's first parents (default: the current branch)");
}

} // namespace

void register_history(CLI::App& app)
{
  auto history_options = std::make_shared<HistoryOptions>();
  auto* history =
      app.add_subcommand("history", "A benchmark's results commit by commit, and where they stepped");
  history->footer(
      R"(One point per commit of the branch's first-parent line (the median of the runs made there on a
clean tree, with its interval); runs of dirty trees and of other commits are listed apart. Change
points are found by seeded binary segmentation on ranks: see docs/history.md.

Examples:
  ej history decode                          # the primary metric, along the current branch
  ej history transpose --metric time_ms --param variant=blocked --branch main --json)");
  history->add_option("bench", history_options->bench, "The benchmark")->required();
  history->add_option("--metric", history_options->metric,
                      "This metric (default: the benchmark's primary one)");
  history->add_option("--param", history_options->params,
                      "Only the combinations with AXIS=VALUE (repeatable)");
  add_line_option(history, history_options->branch);
  history
      ->add_option("--revision", history_options->revision,
                   "Runs of this benchmark revision (default: the revision of its newest run)")
      ->check(CLI::PositiveNumber);
  history->add_flag("--json", history_options->json, "Print JSON (docs/json.md)");
  history->callback([history_options] { run_history(*history_options); });

  auto regressions_options = std::make_shared<RegressionsOptions>();
  auto* regressions = app.add_subcommand(
      "regressions", "Every step of every benchmark's history that went the wrong way, newest first");
  regressions->footer(
      R"(Steps worse by at least the benchmark's minimum effect (--min-effect) and not acknowledged
with 'ej ack', along the current branch's first-parent line, on each benchmark's primary metric.

Examples:
  ej regressions                             # every benchmark
  ej regressions --plan eagle-fast-verify --since v1.2 --json)");
  regressions->add_option("--plan", regressions_options->plan,
                          "Only the benchmarks this plan's attempts ran");
  regressions->add_option("--since", regressions_options->since,
                          "Only steps after this commit of the line (a branch, tag or commit)");
  add_line_option(regressions, regressions_options->branch);
  regressions->add_flag("--json", regressions_options->json, "Print JSON (docs/json.md)");
  regressions->callback([regressions_options] { run_regressions(*regressions_options); });

  auto ack_options = std::make_shared<AckOptions>();
  auto* ack = app.add_subcommand("ack", "Record that a step in a benchmark's history is expected");
  ack->footer(R"(The step whose commit range holds COMMIT is shown with the reason and no longer reported by
'ej regressions'. The acknowledgement is an event of the journal: it is synced and exported.

Examples:
  ej ack decode@f00ba12 --reason "bounds checks added on purpose: 3% slower, safe"
  ej ack transpose@v1.3 --metric time_ms --reason "new default block size")");
  ack->add_option("step", ack_options->target, "BENCH@COMMIT: the benchmark and a commit of the step's range")
      ->required();
  ack->add_option("--reason", ack_options->reason, "Why the step is expected")->required();
  ack->add_option("--metric", ack_options->metric, "Only this metric's step (default: every metric)");
  ack->add_option("--branch", ack_options->branch,
                  "The line whose history is shown after (default: the current branch)");
  ack->callback([ack_options] { run_ack(*ack_options); });
}

} // namespace ej::cli
