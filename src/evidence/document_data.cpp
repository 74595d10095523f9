#include "evidence/document_data.h"

#include "core/bench_definition.h"
#include "core/numbering.h"
#include "core/target.h"
#include "evidence/reader.h"
#include "evidence/verdict.h"
#include "evidence/wording.h"
#include "measure/direction.h"
#include "measure/statistics.h"
#include "render/frozen_data.h"
#include "render/markdown_escape.h"
#include "render/number_format.h"
#include "run/env_diff.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/strings.h"
#include "util/time.h"

#include <fmt/format.h>

#include <deque>
#include <map>

namespace ej::evidence {

namespace {

using render::FrozenWriter;
using render::put;
using render::TemplateData;

// A text, or false when it is empty (so that {{#commit}} sections skip it).
void put_text_or_false(FrozenWriter& object, std::string_view key, const std::string& text)
{
  if (text.empty()) {
    object.put(key, false);
  } else {
    object.put(key, text);
  }
}

std::string inline_text(std::string_view text)
{
  return render::escape_markdown_inline(text);
}

std::string cell(std::string_view text)
{
  return render::escape_table_cell(text);
}

std::string number(double value)
{
  return render::format_number(value, 4);
}

std::string short_commit(const std::string& commit)
{
  return commit.empty() ? "" : commit.substr(0, 10);
}

// "size=2 BM_Sum": where a series was measured, "" without axes or keys.
std::string series_where(const SeriesSummary& series)
{
  if (series.params.empty()) {
    return series.key;
  }
  return series.key.empty() ? series.params : series.params + " " + series.key;
}

// The plan's benchmark: the one its baseline was pinned for, else the one its attempts ran most.
std::string plan_bench(store::Journal& journal, const std::string& plan)
{
  const auto history = store::baseline_history(journal.db(), plan);
  if (!history.empty()) {
    return history.back().bench;
  }
  store::RunFilter filter;
  filter.plan = plan;
  std::map<std::string, int> counts;
  for (const auto& run : store::list_runs(journal.db(), filter)) {
    ++counts[run.bench];
  }
  std::string best;
  int most = 0;
  for (const auto& [bench, count] : counts) {
    if (count > most) {
      best = bench;
      most = count;
    }
  }
  return best;
}

struct PrimaryMetric {
  std::string bench;
  std::string name = "wall_s";
  std::string unit;
  bool higher_is_better = false;
};

PrimaryMetric primary_metric(store::Journal& journal, const std::string& bench)
{
  PrimaryMetric primary;
  primary.bench = bench;
  const auto definition_row = store::find_benchmark(journal.db(), bench);
  if (!definition_row) {
    return primary;
  }
  const auto definition = core::readable_bench_definition(definition_row->definition);
  primary.name = definition.primary.empty() ? "wall_s" : definition.primary;
  primary.unit = primary.name == "wall_s" ? "s" : "";
  for (const auto& spec : metric_specs(definition)) {
    if (spec.name == primary.name) {
      primary.unit = measure::effective_unit(spec);
      if (primary.unit.empty()) {
        // Only the output says the unit (a regex on "174.85 tok/s"): as the runs stored it, and
        // the direction with it unless --better gave one.
        primary.unit = store::newest_sample_unit(journal.db(), bench, spec.name).value_or("");
      }
      primary.higher_is_better = measure::judged_better(spec, primary.unit) == measure::Better::Higher;
    }
  }
  return primary;
}

// The medians of a run's primary metric, one per combination (and key).
std::vector<double> run_medians(store::Journal& journal, int run, const std::string& metric)
{
  std::vector<double> medians;
  for (const auto& series : run_series(store::run_samples(journal.db(), run))) {
    if (series.metric == metric && !series.values.empty()) {
      medians.push_back(measure::median(series.values));
    }
  }
  return medians;
}

// "27.80", or "11.50 … 27.80" over a sweep; empty without samples.
std::string medians_text(const std::vector<double>& medians)
{
  if (medians.empty()) {
    return "";
  }
  const auto [low, high] = std::minmax_element(medians.begin(), medians.end());
  return medians.size() == 1 ? number(*low) : number(*low) + " … " + number(*high);
}

// The attempt's runs the document lists (listed_in_documents), oldest first.
std::vector<const core::RunRecord*> listed_runs(Reader& reader, int attempt)
{
  const auto& newest_first = reader.runs_of_attempt(attempt);
  std::vector<const core::RunRecord*> out;
  for (auto it = newest_first.rbegin(); it != newest_first.rend(); ++it) {
    const auto number = it->number;
    if (listed_in_documents(*it, [&] { return store::measured_any_repeat(reader.journal().db(), number); })) {
      out.push_back(&*it);
    }
  }
  return out;
}

void write_runs(FrozenWriter& out, Reader& reader, const std::vector<const core::RunRecord*>& runs,
                const PrimaryMetric& primary)
{
  out.begin_list("runs");
  std::vector<std::string> medians;
  std::vector<std::string> others;
  for (const auto* listed : runs) {
    const auto& run = *listed;
    out.begin_object();
    out.put("number", run.number);
    out.put("bench", inline_text(run.bench));
    out.put("status", run.status);
    out.put("date", util::format_date(run.started_ms));
    out.put("imported", run.status == "imported");
    out.put("source", inline_text(run.source));
    out.put("reason", inline_text(run.reason));
    out.put("has_reason", !run.reason.empty());
    put_text_or_false(out, "commit", short_commit(run.git.commit));
    out.put("unit", inline_text(primary.unit));
    const auto judgement = judge_run(reader, run);
    if (judgement.verdict) {
      // The attempt's evidence line above says whether the baseline has moved since.
      out.put("verdict", inline_text(judgement.verdict->brief));
    } else {
      out.put("verdict", false);
    }
    out.put("label", inline_text(run.label));
    out.put("has_label", !run.label.empty());
    medians.clear();
    others.clear();
    std::size_t primary_n = 0;
    if (run.bench == primary.bench) {
      for (const auto& series : reader.series_of_run(run.number)) {
        if (series.values.empty()) {
          continue;
        }
        const auto median = measure::median(series.values); // all a run's row shows
        const auto where = series_where(series);
        if (series.metric == primary.name) {
          medians.push_back(where.empty() ? number(median)
                                          : fmt::format("{}: {}", inline_text(where), number(median)));
          primary_n = series.values.size();
        } else if (series.metric != "wall_s") {
          others.push_back(
              inline_text(fmt::format("{}{} {}{}{}", series.metric, where.empty() ? "" : " [" + where + "]",
                                      number(median), series.unit.empty() ? "" : " ", series.unit)));
        }
      }
    }
    if (!medians.empty()) {
      // One combination: "27.80"; a sweep: "size=1: 27.80; size=2: 11.50" (the unit follows).
      out.put("median", util::join(medians, "; "));
      out.put("n", primary_n);
    } else {
      out.put("median", false);
    }
    out.put("others", util::join(others, ", "));
    out.put("has_others", !others.empty());
    out.end_object();
  }
  out.end_list();
}

std::string command_fence(const std::string& command)
{
  std::size_t longest = 0;
  std::size_t run = 0;
  for (const char c : command) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<std::size_t>(3, 1 + longest), '`');
}

// An attempt's section, frozen (render/frozen_data.h): the document's sections hold every run of
// the plan, and the renderer thaws one attempt's at a time.
TemplateData attempt_data(Reader& reader, const core::AttemptHistory& history, const PrimaryMetric& primary,
                          const std::optional<Verdict>& verdict)
{
  auto& journal = reader.journal();
  const auto& a = history.attempt;
  FrozenWriter out;
  struct Blocker {
    int number;
    std::string title;
    std::string status;
    bool resolved;
  };
  std::vector<Blocker> blocked_by;
  std::vector<std::string> links;
  for (const auto& link : history.links_out) {
    const auto other = store::find_attempt(journal.db(), link.to);
    const auto other_title = other ? inline_text(other->title) : std::string("(missing)");
    if (link.kind == "blocked-by") {
      blocked_by.push_back({link.to, other_title,
                            other ? std::string(core::to_string(other->status)) : "missing",
                            other && other->status == core::Status::Adopted});
    } else {
      links.push_back(fmt::format("{} {} {}", link.kind == "retry-of" ? "retries" : link.kind,
                                  core::number_label(link.to), other_title));
    }
  }
  for (const auto& link : history.links_in) {
    const auto other = store::find_attempt(journal.db(), link.from);
    const auto other_title = other ? inline_text(other->title) : std::string("(missing)");
    const char* verb = link.kind == "supersedes" ? "superseded by"
                       : link.kind == "retry-of" ? "retried by"
                                                 : "blocks";
    links.push_back(fmt::format("{} {} {}", verb, core::number_label(link.from), other_title));
  }
  std::vector<std::string> tag_texts;
  for (const auto& tag : a.tags) {
    tag_texts.push_back(inline_text(tag));
  }
  out.put("number", a.number);
  out.put("title", render::escape_markdown_line(a.title));
  out.put("status", core::to_string(a.status));
  put_text_or_false(out, "resolved_by", core::resolved_text(a.resolved_by));
  out.put("reason", inline_text(a.reason));
  out.put("has_reason", !a.reason.empty());
  out.put("hypothesis", inline_text(a.hypothesis));
  out.put("has_hypothesis", !a.hypothesis.empty());
  out.put("command", a.command);
  out.put("command_fence", command_fence(a.command));
  out.put("has_command", !a.command.empty());
  out.put("has_tags", !tag_texts.empty());
  out.put("tag_list", util::join(tag_texts, ", "));
  out.begin_list("tags");
  for (const auto& tag : tag_texts) {
    out.item(tag);
  }
  out.end_list();
  out.put("has_blocked_by", !blocked_by.empty());
  out.begin_list("blocked_by");
  for (const auto& blocker : blocked_by) {
    out.begin_object();
    out.put("number", blocker.number);
    out.put("title", blocker.title);
    out.put("status", blocker.status);
    out.put("resolved", blocker.resolved);
    out.end_object();
  }
  out.end_list();
  out.put("has_links", !links.empty());
  out.begin_list("links");
  for (const auto& link : links) {
    out.begin_object();
    out.put("text", link);
    out.end_object();
  }
  out.end_list();
  const auto runs = listed_runs(reader, a.number);
  out.put("has_runs", !runs.empty());
  write_runs(out, reader, runs, primary);
  out.put("has_notes", !history.notes.empty());
  out.begin_list("notes");
  for (const auto& note : history.notes) {
    out.begin_object();
    out.put("date", util::format_date(note.time_ms));
    out.put("text", inline_text(note.text));
    out.end_object();
  }
  out.end_list();
  put_text_or_false(out, "commit", short_commit(a.git.commit));
  out.put("dirty", a.git.dirty);
  out.put("verdict", verdict ? inline_text(verdict->text) : std::string());
  out.put("has_verdict", verdict.has_value());
  out.put("created", util::format_date(a.created_ms));
  return out.take_frozen();
}

struct Group {
  const char* name;
  const char* key;
  std::vector<core::Status> statuses;
};

const std::vector<Group>& groups()
{
  static const std::vector<Group> list = {
      {"Adopted", "adopted", {core::Status::Adopted}},
      {"Rejected", "rejected", {core::Status::Rejected, core::Status::Superseded}},
      {"Blocked", "blocked", {core::Status::Blocked}},
      {"Inconclusive", "inconclusive", {core::Status::Inconclusive}},
      {"Open", "open", {core::Status::Proposed, core::Status::Running}},
  };
  return list;
}

TemplateData baseline_data(store::Journal& journal, const std::string& plan, const PrimaryMetric& primary,
                           std::optional<double>& baseline_median)
{
  const auto history = store::baseline_history(journal.db(), plan);
  auto moves = render::template_list(history.size());
  auto env_changes = render::template_list();
  std::map<std::string, core::BaselineRecord> previous;
  for (const auto& b : history) {
    const auto run = store::find_run(journal.db(), b.run);
    auto& entry = render::append(moves, render::template_object());
    put(entry, "date", util::format_date(b.time_ms));
    put(entry, "bench", inline_text(b.bench));
    put(entry, "run", b.run);
    put(entry, "reason", inline_text(b.reason));
    put(entry, "reason_cell", cell(b.reason));
    put(entry, "has_reason", !b.reason.empty());
    put(entry, "imported", run && run->status == "imported");
    put(entry, "withdrawn", run && run->withdrawn());
    put(entry, "median", false);
    put(entry, "unit", inline_text(primary.unit));
    if (const auto text = medians_text(run_medians(journal, b.run, primary.name)); !text.empty()) {
      put(entry, "median", text);
    }
    const auto before = previous.find(b.bench);
    put(entry, "moved", before != previous.end());
    put(entry, "from_run", before != previous.end() ? before->second.run : 0);
    if (before != previous.end()) {
      const auto old_run = store::find_run(journal.db(), before->second.run);
      auto& change = render::append(env_changes, render::template_object());
      put(change, "from_run", before->second.run);
      put(change, "to_run", b.run);
      auto lines = render::template_list();
      if (old_run && run && !old_run->env_blob.empty() && !run->env_blob.empty()) {
        const auto a = journal.blob(old_run->env_blob);
        const auto c = journal.blob(run->env_blob);
        if (a && c) {
          for (const auto& line : run::format_changes(
                   run::diff_environments(nlohmann::json::parse(*a), nlohmann::json::parse(*c)))) {
            render::append(lines, render::template_text(inline_text(line)));
          }
        }
        put(change, "recorded", true);
      } else {
        put(change, "recorded", false);
      }
      put(change, "has_lines", !lines.is_empty_list());
      put(change, "lines", std::move(lines));
    }
    previous[b.bench] = b;
  }
  auto out = render::template_object();
  if (history.empty()) {
    put(out, "current", false);
  } else {
    put(out, "current", TemplateData(moves.list_value().back()));
    // A sweep's baseline has no one value to draw a line at; a withdrawn one is no reference.
    const auto current = store::find_run(journal.db(), history.back().run);
    if (const auto medians = run_medians(journal, history.back().run, primary.name);
        medians.size() == 1 && !(current && current->withdrawn())) {
      baseline_median = medians.front();
    }
  }
  put(out, "has_history", moves.list_value().size() > 1);
  put(out, "history", std::move(moves));
  put(out, "has_environment_changes", !env_changes.is_empty_list());
  put(out, "environment_changes", std::move(env_changes));
  return out;
}

TemplateData timeline_entry(const core::Attempt& attempt, std::string date, std::string change,
                            std::string reason)
{
  auto entry = render::template_object();
  put(entry, "date", std::move(date));
  put(entry, "number", attempt.number);
  put(entry, "title", cell(attempt.title));
  put(entry, "change", std::move(change));
  put(entry, "has_reason", !reason.empty());
  put(entry, "reason", std::move(reason));
  return entry;
}

// The summary row's medians of the primary metric, one per combination ("27.80", or
// "11.50 … 27.80" over a sweep), and the chart's points: one per attempt and combination.
void add_medians(TemplateData& row, const RunSet& set, const PrimaryMetric& primary,
                 const core::Attempt& attempt, render::ChartData& chart)
{
  std::vector<double> medians;
  for (const auto& series : set.series) {
    if (series.metric != primary.name || series.values.empty()) {
      continue;
    }
    const auto stats = measure::summarize(series.values);
    medians.push_back(stats.median);
    const auto where = series_where(series);
    chart.points.push_back({where.empty() ? core::number_label(attempt.number)
                                          : fmt::format("{} {}", core::number_label(attempt.number), where),
                            stats.median, stats.q1, stats.q3, attempt.status});
  }
  if (medians.empty()) {
    return;
  }
  put(row, "median", medians_text(medians));
  put(row, "has_median", true);
}

// "yes", "no", or where the target is met over a sweep ("at size=2").
std::string target_cell(const RunSet& set, const core::Target& target)
{
  std::size_t judged = 0;
  std::vector<std::string> met;
  for (const auto& series : set.series) {
    if (series.metric != target.metric || series.values.empty()) {
      continue;
    }
    ++judged;
    if (core::meets(target, measure::median(series.values))) {
      met.push_back(series_where(series));
    }
  }
  if (judged == 0) {
    return "—";
  }
  if (met.size() == judged) {
    return "yes";
  }
  return met.empty() ? "no" : "at " + util::join(met, "; ");
}

// "-58.6%", or the range over a sweep "-60.0% … +0.50%"; the interval has a column of its own.
std::string change_cell(const Verdict& verdict)
{
  if (!verdict.sweep()) {
    const auto& s = verdict.combinations.front();
    return change_text(s.comparison, s.unit);
  }
  const auto by_change = [](const SeriesComparison& a, const SeriesComparison& b) {
    const auto value = [](const SeriesComparison& s) {
      return s.comparison.change_pct ? *s.comparison.change_pct : s.comparison.shift.value_or(0);
    };
    return value(a) < value(b);
  };
  const auto [low, high] =
      std::minmax_element(verdict.combinations.begin(), verdict.combinations.end(), by_change);
  return change_text(low->comparison, low->unit) + " … " + change_text(high->comparison, high->unit);
}

// "[-61.1%, -50.7%]", or empty without a test or over a sweep (each combination has its own).
std::string interval_cell(const Verdict& verdict)
{
  if (verdict.sweep()) {
    return "";
  }
  const auto& s = verdict.combinations.front();
  return interval_text(s.comparison, s.unit);
}

// The outcome, or "no test" without one: short, so that the table fits the page; the evidence line
// of the attempt says the rest.
std::string outcome_cell(const Verdict& verdict)
{
  if (verdict.sweep()) {
    return std::string(measure::to_string(verdict.outcome));
  }
  const auto& c = verdict.combinations.front().comparison;
  if (c.basis != measure::Basis::Test) {
    return "no test"; // single figures, or too few samples: the evidence line says which
  }
  return std::string(measure::to_string(c.outcome));
}

// Short words of a table cell held together with no-break spaces ("no change"): squeezed by a long
// title column, a browser would wrap them, however short.
std::string unbreakable(const std::string& text)
{
  std::string out;
  for (const char c : text) {
    out += c == ' ' ? std::string("\u00a0") : std::string(1, c);
  }
  return out;
}

// The commit the newest run that ej measured ran at: what the figures belong to (imported runs
// have none).
std::string measured_commit(const RunSet& set)
{
  for (auto it = set.runs.rbegin(); it != set.runs.rend(); ++it) {
    if (it->status != "imported" && !it->git.commit.empty()) {
      return it->git.commit.substr(0, 7) + (it->git.dirty ? "+" : "");
    }
  }
  return "";
}

} // namespace

DocumentData build_document_data(store::Journal& journal, const std::string& slug,
                                 const std::string& chart_file, VerdictLines lines)
{
  const auto plan = store::find_plan(journal.db(), slug);
  if (!plan) {
    throw Error("no plan named '{}'; see 'ej plan list'", slug);
  }
  const auto primary = primary_metric(journal, plan_bench(journal, slug));
  std::optional<core::Target> target;
  if (!plan->target.empty()) {
    target = core::parse_target(plan->target);
  }
  std::optional<double> baseline_median;
  auto baseline = baseline_data(journal, slug, primary, baseline_median);

  store::AttemptFilter filter;
  filter.plan = slug;
  auto attempts = store::list_attempts(journal.db(), filter);
  std::reverse(attempts.begin(), attempts.end());

  DocumentData out;
  out.chart.title = plan->title;
  out.chart.metric = primary.name;
  out.chart.unit = primary.unit;
  out.chart.higher_is_better = primary.higher_is_better;
  out.chart.baseline = baseline_median;
  if (target && target->metric == primary.name) {
    out.chart.target = target->value;
  }

  Reader reader(journal); // the journal is only read here
  reader.stream_plan(slug, attempts, Reader::Ahead::OnThread); // the caller holds a ReadTransaction
  // Read in the same snapshot as the verdicts, so that each line goes with what it was judged from.
  const auto inputs = lines == VerdictLines::Collect && store::has_verdict_cache(journal.db())
                          ? store::verdict_inputs_of_plan(journal.db(), slug)
                          : std::map<int, store::VerdictInputs>{};
  auto summary = render::template_list(attempts.size());
  std::map<std::string, TemplateData> grouped;
  // A deque: kainjow's data has no noexcept move, so a growing vector would copy every entry.
  std::deque<std::pair<std::int64_t, TemplateData>> timeline_entries;
  bool has_commits = false; // a column only when a row fills it
  bool has_intervals = false;
  for (const auto& attempt : attempts) {
    const auto history = store::load_history(journal.db(), attempt);
    auto verdict = judge_attempt(reader, attempt.number).verdict;
    std::optional<RunSet> read;
    const RunSet* set = nullptr;
    if (verdict && verdict->candidate.bench == primary.bench) {
      set = &verdict->candidate; // the same runs, read once
    } else if ((read = reader.attempt_set(attempt.number, primary.bench))) {
      set = &*read;
    }
    auto& row = render::append(summary, render::template_object());
    put(row, "number", attempt.number);
    put(row, "title", cell(attempt.title));
    put(row, "status", core::to_string(attempt.status));
    const auto resolved = core::resolved_text(attempt.resolved_by);
    if (resolved.empty()) {
      put(row, "resolved_by", false);
    } else {
      put(row, "resolved_by", resolved);
    }
    // What became of a blocked attempt says more than that it was blocked (its section says both);
    // held together as the outcome is: a status cell must not wrap.
    put(row, "status_cell",
        unbreakable(resolved.empty() ? std::string(core::to_string(attempt.status)) : resolved));
    put(row, "median", "—");
    put(row, "has_median", false);
    put(row, "unit", cell(primary.unit));
    put(row, "change", "—");
    put(row, "interval", "—");
    put(row, "outcome", "—");
    put(row, "target_met", "—");
    put(row, "commit", "—");
    if (set != nullptr) {
      add_medians(row, *set, primary, attempt, out.chart);
      if (target) {
        put(row, "target_met", target_cell(*set, *target));
      }
      if (const auto commit = measured_commit(*set); !commit.empty()) {
        put(row, "commit", commit);
        has_commits = true;
      }
    }
    if (verdict) {
      put(row, "change", cell(change_cell(*verdict)));
      put(row, "outcome", cell(unbreakable(outcome_cell(*verdict))));
      if (const auto interval = interval_cell(*verdict); !interval.empty()) {
        put(row, "interval", cell(interval));
        has_intervals = true;
      }
    }
    if (const auto judged = inputs.find(attempt.number); judged != inputs.end()) {
      out.verdict_lines.push_back(
          {attempt.number, judged->second, verdict ? std::optional(verdict->text) : std::nullopt});
    }
    auto detail = attempt_data(reader, history, primary, verdict);
    reader.forget_attempt(attempt.number); // done with it: the plan's runs are never all in memory
    for (const auto& group : groups()) {
      if (std::find(group.statuses.begin(), group.statuses.end(), attempt.status) != group.statuses.end()) {
        auto [it, inserted] = grouped.try_emplace(group.key, render::template_list());
        render::append(it->second, std::move(detail)); // an attempt is in one group
        break;
      }
    }
    timeline_entries.emplace_back(
        attempt.created_ms, timeline_entry(attempt, util::format_date(attempt.created_ms), "proposed", ""));
    for (const auto& change : history.status_changes) {
      timeline_entries.emplace_back(change.time_ms,
                                    timeline_entry(attempt, util::format_date(change.time_ms),
                                                   change.from + " → " + change.to, cell(change.reason)));
    }
  }
  std::stable_sort(timeline_entries.begin(), timeline_entries.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  auto timeline = render::template_list(timeline_entries.size());
  for (auto& entry : timeline_entries) {
    render::append(timeline, std::move(entry.second));
  }
  auto group_list = render::template_list(groups().size());
  for (const auto& group : groups()) {
    const auto it = grouped.find(group.key);
    const bool any = it != grouped.end();
    auto& entry = render::append(group_list, render::template_object());
    put(entry, "name", group.name);
    put(entry, "key", group.key);
    put(entry, "has_attempts", any);
    put(entry, "count", any ? it->second.list_value().size() : 0);
    put(entry, "attempts", any ? std::move(it->second) : render::template_list());
  }

  auto plan_data = render::template_object();
  put(plan_data, "slug", plan->slug);
  put(plan_data, "title", render::escape_markdown_line(plan->title));
  put(plan_data, "goal", inline_text(plan->goal));
  put(plan_data, "has_goal", !plan->goal.empty());
  put(plan_data, "target", inline_text(plan->target));
  put(plan_data, "has_target", !plan->target.empty());
  put(plan_data, "doc", plan->doc_path);
  auto primary_data = render::template_object();
  put(primary_data, "bench", inline_text(primary.bench));
  put(primary_data, "has_bench", !primary.bench.empty());
  put(primary_data, "metric", inline_text(primary.name));
  put(primary_data, "unit", inline_text(primary.unit));
  put(primary_data, "has_unit", !primary.unit.empty());
  put(primary_data, "better", primary.higher_is_better ? "higher" : "lower");
  auto chart = render::template_object();
  put(chart, "file", chart_file);
  put(chart, "has_points", !out.chart.points.empty());

  put(out.data, "plan", std::move(plan_data));
  put(out.data, "primary", std::move(primary_data));
  put(out.data, "has_attempts", !summary.is_empty_list());
  put(out.data, "attempt_count", summary.list_value().size());
  put(out.data, "has_timeline", !timeline.is_empty_list());
  put(out.data, "has_commits", has_commits);
  put(out.data, "has_intervals", has_intervals);
  put(out.data, "chart", std::move(chart));
  put(out.data, "baseline", std::move(baseline));
  put(out.data, "summary", std::move(summary));
  put(out.data, "groups", std::move(group_list));
  put(out.data, "timeline", std::move(timeline));
  return out;
}

} // namespace ej::evidence
