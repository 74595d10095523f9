#include "cli/document_data.h"

#include "cli/evidence.h"
#include "cli/run_support.h"
#include "core/bench_definition.h"
#include "core/target.h"
#include "measure/statistics.h"
#include "render/markdown_escape.h"
#include "render/number_format.h"
#include "run/env_diff.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/strings.h"
#include "util/time.h"

#include <fmt/format.h>

#include <map>

namespace ej::cli {

namespace {

using nlohmann::json;

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
  const auto definition = core::bench_definition_from_json(definition_row->definition);
  primary.name = definition.primary.empty() ? "wall_s" : definition.primary;
  primary.unit = primary.name == "wall_s" ? "s" : "";
  for (const auto& spec : metric_specs(definition)) {
    if (spec.name == primary.name) {
      primary.unit = measure::effective_unit(spec);
      primary.higher_is_better = spec.better == measure::Better::Higher;
    }
  }
  return primary;
}

std::optional<measure::Summary> summary_of(const std::vector<core::SampleRecord>& samples, const std::string& metric)
{
  for (const auto& series : run_series(samples)) {
    if (series.metric == metric && !series.values.empty()) {
      return measure::summarize(series.values);
    }
  }
  return std::nullopt;
}

std::optional<measure::Summary> run_summary(store::Journal& journal, int run, const std::string& metric)
{
  return summary_of(store::run_samples(journal.db(), run), metric);
}

json runs_json(store::Journal& journal, int attempt, const PrimaryMetric& primary, VerdictCache& cache)
{
  auto runs = runs_of_attempt(journal, attempt, &cache);
  std::reverse(runs.begin(), runs.end());
  json out = json::array();
  for (const auto& run : runs) {
    json entry = {{"number", run.number},
                  {"bench", inline_text(run.bench)},
                  {"status", run.status},
                  {"date", util::format_date(run.started_ms)},
                  {"imported", run.status == "imported"},
                  {"source", inline_text(run.source)},
                  {"reason", inline_text(run.reason)},
                  {"has_reason", !run.reason.empty()},
                  {"commit", run.git.commit.empty() ? json(false) : json(short_commit(run.git.commit))},
                  {"median", false},
                  {"unit", inline_text(primary.unit)},
                  {"verdict", false}};
    const auto verdict = run_verdict(journal, run, &cache);
    if (verdict) {
      entry["verdict"] = inline_text(verdict->text);
    }
    entry["label"] = inline_text(run.label);
    entry["has_label"] = !run.label.empty();
    json others = json::array();
    if (run.bench == primary.bench) {
      // The verdict read the run's samples already.
      const auto samples = verdict ? verdict->candidate.samples : store::run_samples(journal.db(), run.number);
      for (const auto& series : run_series(samples)) {
        if (series.values.empty()) {
          continue;
        }
        const auto summary = measure::summarize(series.values);
        if (series.metric == primary.name) {
          entry["median"] = number(summary.median);
          entry["n"] = summary.n;
        } else if (series.metric != "wall_s") {
          others.push_back(inline_text(fmt::format("{} {}{}{}", series.metric, number(summary.median),
                                                    series.unit.empty() ? "" : " ", series.unit)));
        }
      }
    }
    entry["others"] = util::join(others.get<std::vector<std::string>>(), ", ");
    entry["has_others"] = !others.empty();
    out.push_back(std::move(entry));
  }
  return out;
}

json attempt_json(store::Journal& journal, const core::AttemptHistory& history, const PrimaryMetric& primary,
                  const std::optional<Verdict>& verdict, VerdictCache& cache)
{
  const auto& a = history.attempt;
  json blocked_by = json::array();
  json links = json::array();
  for (const auto& link : history.links_out) {
    const auto other = store::find_attempt(journal.db(), link.to);
    const auto other_title = other ? inline_text(other->title) : std::string("(missing)");
    if (link.kind == "blocked-by") {
      const bool resolved = other && other->status == core::Status::Adopted;
      blocked_by.push_back({{"number", link.to},
                            {"title", other_title},
                            {"status", other ? std::string(core::to_string(other->status)) : "missing"},
                            {"resolved", resolved}});
    } else {
      links.push_back({{"text", fmt::format("{} #{} {}", link.kind == "retry-of" ? "retries" : link.kind, link.to,
                                            other_title)}});
    }
  }
  for (const auto& link : history.links_in) {
    const auto other = store::find_attempt(journal.db(), link.from);
    const auto other_title = other ? inline_text(other->title) : std::string("(missing)");
    const char* verb = link.kind == "supersedes" ? "superseded by" : link.kind == "retry-of" ? "retried by" : "blocks";
    links.push_back({{"text", fmt::format("{} #{} {}", verb, link.from, other_title)}});
  }
  json notes = json::array();
  for (const auto& note : history.notes) {
    notes.push_back({{"date", util::format_date(note.time_ms)}, {"text", inline_text(note.text)}});
  }
  json tags = json::array();
  for (const auto& tag : a.tags) {
    tags.push_back(inline_text(tag));
  }
  auto runs = runs_json(journal, a.number, primary, cache);
  return {{"number", a.number},
          {"title", render::escape_markdown_line(a.title)},
          {"status", core::to_string(a.status)},
          {"reason", inline_text(a.reason)},
          {"has_reason", !a.reason.empty()},
          {"hypothesis", inline_text(a.hypothesis)},
          {"has_hypothesis", !a.hypothesis.empty()},
          {"command", a.command},
          {"command_fence", std::string(std::max<std::size_t>(3, 1 + [&] {
                                          std::size_t longest = 0, run = 0;
                                          for (const char c : a.command) {
                                            run = c == '`' ? run + 1 : 0;
                                            longest = std::max(longest, run);
                                          }
                                          return longest;
                                        }()), '`')},
          {"has_command", !a.command.empty()},
          {"tags", tags},
          {"has_tags", !tags.empty()},
          {"tag_list", util::join(tags.get<std::vector<std::string>>(), ", ")},
          {"blocked_by", blocked_by},
          {"has_blocked_by", !blocked_by.empty()},
          {"links", links},
          {"has_links", !links.empty()},
          {"runs", runs},
          {"has_runs", !runs.empty()},
          {"notes", notes},
          {"has_notes", !notes.empty()},
          {"commit", a.git.commit.empty() ? json(false) : json(short_commit(a.git.commit))},
          {"dirty", a.git.dirty},
          {"verdict", verdict ? inline_text(verdict->text) : std::string()},
          {"has_verdict", verdict.has_value()},
          {"created", util::format_date(a.created_ms)}};
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

json baseline_json(store::Journal& journal, const std::string& plan, const PrimaryMetric& primary,
                   std::optional<double>& baseline_median)
{
  const auto history = store::baseline_history(journal.db(), plan);
  json moves = json::array();
  json env_changes = json::array();
  std::map<std::string, core::BaselineRecord> previous;
  for (const auto& b : history) {
    const auto run = store::find_run(journal.db(), b.run);
    json entry = {{"date", util::format_date(b.time_ms)},
                  {"bench", inline_text(b.bench)},
                  {"run", b.run},
                  {"reason", inline_text(b.reason)},
                  {"reason_cell", cell(b.reason)},
                  {"has_reason", !b.reason.empty()},
                  {"imported", run && run->status == "imported"},
                  {"median", false},
                  {"unit", inline_text(primary.unit)}};
    if (const auto summary = run_summary(journal, b.run, primary.name)) {
      entry["median"] = number(summary->median);
    }
    const auto before = previous.find(b.bench);
    entry["moved"] = before != previous.end();
    entry["from_run"] = before != previous.end() ? before->second.run : 0;
    if (before != previous.end()) {
      const auto old_run = store::find_run(journal.db(), before->second.run);
      json change = {{"from_run", before->second.run}, {"to_run", b.run}, {"lines", json::array()}};
      if (old_run && run && !old_run->env_blob.empty() && !run->env_blob.empty()) {
        const auto a = journal.blob(old_run->env_blob);
        const auto c = journal.blob(run->env_blob);
        if (a && c) {
          for (const auto& line : run::format_changes(run::diff_environments(json::parse(*a), json::parse(*c)))) {
            change["lines"].push_back(inline_text(line));
          }
        }
        change["recorded"] = true;
      } else {
        change["recorded"] = false;
      }
      change["has_lines"] = !change["lines"].empty();
      env_changes.push_back(std::move(change));
    }
    previous[b.bench] = b;
    moves.push_back(std::move(entry));
  }
  json current = false;
  if (!history.empty()) {
    current = moves.back();
    const auto summary = run_summary(journal, history.back().run, primary.name);
    if (summary) {
      baseline_median = summary->median;
    }
  }
  return {{"current", current}, {"history", moves}, {"has_history", moves.size() > 1},
          {"environment_changes", env_changes}, {"has_environment_changes", !env_changes.empty()}};
}

} // namespace

DocumentData build_document_data(store::Journal& journal, const std::string& slug, const std::string& chart_file)
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
  auto baseline = baseline_json(journal, slug, primary, baseline_median);

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

  VerdictCache cache; // the journal is only read here
  prefetch_plan(journal, slug, cache);
  json summary = json::array();
  std::map<std::string, json> grouped;
  json timeline = json::array();
  std::vector<std::pair<std::int64_t, json>> timeline_entries;
  for (const auto& attempt : attempts) {
    const auto history = store::load_history(journal.db(), attempt);
    const auto verdict = attempt_verdict(journal, attempt.number, &cache);
    std::optional<measure::Summary> stats;
    std::optional<measure::Summary> target_stats; // of the target's metric, which may not be the primary
    std::vector<core::SampleRecord> samples;
    if (verdict && verdict->candidate.bench == primary.bench) {
      samples = verdict->candidate.samples; // the same runs, read once
    } else {
      try {
        samples = run_set_of_attempt(journal, attempt.number, primary.bench, &cache).samples;
      } catch (const Error&) {
        // no finished runs: the row says so
      }
    }
    for (const auto& series : run_series(samples)) {
      if (series.values.empty()) {
        continue;
      }
      if (series.metric == primary.name && !stats) {
        stats = measure::summarize(series.values);
      }
      if (target && series.metric == target->metric && !target_stats) {
        target_stats = measure::summarize(series.values);
      }
    }
    json row = {{"number", attempt.number},
                {"title", cell(attempt.title)},
                {"status", core::to_string(attempt.status)},
                {"median", stats ? number(stats->median) : "—"},
                {"has_median", stats.has_value()},
                {"unit", cell(primary.unit)},
                {"change", "—"},
                {"outcome", "—"},
                {"target_met", "—"},
                {"commit", short_commit(attempt.git.commit)}};
    if (verdict) {
      const auto& c = verdict->headline.comparison;
      row["change"] = c.change_pct ? render::format_percent(*c.change_pct) + (c.change_low_pct && c.change_high_pct
                                                                                 ? " [" + render::format_percent(*c.change_low_pct) + ", " + render::format_percent(*c.change_high_pct) + "]"
                                                                                 : "")
                                   : "n/a";
      row["outcome"] = std::string(measure::to_string(c.outcome));
    }
    if (target_stats) {
      row["target_met"] = core::meets(*target, target_stats->median) ? "yes" : "no";
    }
    summary.push_back(std::move(row));
    if (stats) {
      out.chart.points.push_back({fmt::format("#{}", attempt.number), stats->median, stats->q1, stats->q3, attempt.status});
    }
    auto detail = attempt_json(journal, history, primary, verdict, cache);
    for (const auto& group : groups()) {
      if (std::find(group.statuses.begin(), group.statuses.end(), attempt.status) != group.statuses.end()) {
        grouped[group.key].push_back(std::move(detail)); // an attempt is in one group
        break;
      }
    }
    timeline_entries.emplace_back(attempt.created_ms, json{{"date", util::format_date(attempt.created_ms)},
                                                           {"number", attempt.number},
                                                           {"title", cell(attempt.title)},
                                                           {"change", "proposed"},
                                                           {"reason", ""}});
    for (const auto& change : history.status_changes) {
      timeline_entries.emplace_back(change.time_ms, json{{"date", util::format_date(change.time_ms)},
                                                         {"number", attempt.number},
                                                         {"title", cell(attempt.title)},
                                                         {"change", change.from + " → " + change.to},
                                                         {"reason", cell(change.reason)}});
    }
  }
  std::stable_sort(timeline_entries.begin(), timeline_entries.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& entry : timeline_entries) {
    timeline.push_back(std::move(entry.second));
  }
  json group_list = json::array();
  for (const auto& group : groups()) {
    const auto it = grouped.find(group.key);
    const bool any = it != grouped.end();
    json entry = {{"name", group.name}, {"key", group.key}, {"has_attempts", any},
                  {"count", any ? it->second.size() : 0}};
    entry["attempts"] = any ? std::move(it->second) : json::array();
    group_list.push_back(std::move(entry));
  }
  out.data = {
    {"plan",
     {{"slug", plan->slug},
      {"title", render::escape_markdown_line(plan->title)},
      {"goal", inline_text(plan->goal)},
      {"has_goal", !plan->goal.empty()},
      {"target", inline_text(plan->target)},
      {"has_target", !plan->target.empty()},
      {"doc", plan->doc_path}}},
    {"primary",
     {{"bench", inline_text(primary.bench)},
      {"has_bench", !primary.bench.empty()},
      {"metric", inline_text(primary.name)},
      {"unit", inline_text(primary.unit)},
      {"has_unit", !primary.unit.empty()},
      {"better", primary.higher_is_better ? "higher" : "lower"}}},
    {"has_attempts", !summary.empty()},
    {"attempt_count", summary.size()},
    {"has_timeline", !timeline.empty()},
    {"chart", {{"file", chart_file}, {"has_points", !out.chart.points.empty()}}},
  };
  // The large parts are moved in: an initializer list would copy them.
  out.data["baseline"] = std::move(baseline);
  out.data["summary"] = std::move(summary);
  out.data["groups"] = std::move(group_list);
  out.data["timeline"] = std::move(timeline);
  return out;
}

} // namespace ej::cli
