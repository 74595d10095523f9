#include "evidence/document_data.h"

#include "core/numbering.h"
#include "core/target.h"
#include "evidence/document_charts.h"
#include "evidence/document_parts.h"
#include "evidence/document_sections.h"
#include "evidence/document_story.h"
#include "evidence/evaluation.h"
#include "evidence/reader.h"
#include "evidence/verdict.h"
#include "evidence/verdict_line.h"
#include "render/markdown_escape.h"
#include "run/env_diff.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "util/error.h"
#include "util/strings.h"
#include "util/time.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <tuple>

namespace ej::evidence {

namespace {

using namespace document;
using render::put;
using render::TemplateData;

// A baseline run's value of a measure: at its headline combination, or the range over a sweep.
std::string pinned_value(Reader& reader, int run, const Measure* measure)
{
  const auto* set = measure != nullptr ? reader.baseline_set(run) : nullptr;
  return set == nullptr ? "" : value_text(set->series, measure->metric, measure->headline);
}

// The lines of what changed between two runs' environments; nullopt when either was not recorded.
std::optional<std::vector<std::string>> environment_lines(store::Journal& journal, int from, int to)
{
  const auto old_run = store::find_run(journal.db(), from);
  const auto new_run = store::find_run(journal.db(), to);
  if (!old_run || !new_run || old_run->env_blob.empty() || new_run->env_blob.empty()) {
    return std::nullopt;
  }
  std::vector<std::string> lines;
  const auto a = journal.blob(old_run->env_blob);
  const auto c = journal.blob(new_run->env_blob);
  if (a && c) {
    for (const auto& line :
         run::format_changes(run::diff_environments(nlohmann::json::parse(*a), nlohmann::json::parse(*c)))) {
      lines.push_back(inline_text(line));
    }
  }
  return lines;
}

// The baseline of the plan's headline measure and the history of every pin (for the templates that
// name one baseline), and for each measure its own baseline and what it replaced.
TemplateData baseline_data(Reader& reader, const std::string& plan, const PlanMeasures& measures)
{
  const auto& history = reader.baselines(plan);
  auto moves = render::template_list(history.size());
  auto env_changes = render::template_list();
  std::map<std::string, core::BaselineRecord> previous;
  const auto* headline = measures.headline_measure();
  std::optional<TemplateData> current;
  for (const auto& b : history) {
    const auto of_bench = measures.of_bench(b.bench);
    const auto* measure = of_bench.empty() ? nullptr : of_bench.front();
    const auto run = store::find_run(reader.journal().db(), b.run);
    auto& entry = render::append(moves, render::template_object());
    put(entry, "date", util::format_date(b.time_ms));
    put(entry, "bench", inline_text(b.bench));
    put(entry, "run", core::number_text(b.run));
    put(entry, "run_ref", core::number_label(b.run));
    put(entry, "reason", inline_text(b.reason));
    put(entry, "reason_cell", cell(b.reason));
    put(entry, "has_reason", !b.reason.empty());
    put(entry, "imported", run && run->status == core::RunStatus::Imported);
    put(entry, "withdrawn", run && run->withdrawn());
    put(entry, "median", false);
    put(entry, "unit", inline_text(measure != nullptr ? measure->unit : ""));
    if (const auto text = pinned_value(reader, b.run, measure); !text.empty()) {
      put(entry, "median", text);
    }
    const auto before = previous.find(b.bench);
    put(entry, "moved", before != previous.end());
    put(entry, "from_run", before != previous.end() ? core::number_text(before->second.run) : "0");
    put(entry, "from_run_ref", before != previous.end() ? core::number_label(before->second.run) : "");
    if (before != previous.end()) {
      auto& change = render::append(env_changes, render::template_object());
      put(change, "from_run", core::number_text(before->second.run));
      put(change, "from_run_ref", core::number_label(before->second.run));
      put(change, "to_run", core::number_text(b.run));
      put(change, "to_run_ref", core::number_label(b.run));
      auto lines = render::template_list();
      const auto recorded = environment_lines(reader.journal(), before->second.run, b.run);
      for (const auto& line : recorded.value_or(std::vector<std::string>{})) {
        render::append(lines, render::template_text(line));
      }
      put(change, "recorded", recorded.has_value());
      put(change, "has_lines", !lines.is_empty_list());
      put(change, "lines", std::move(lines));
    }
    if (headline != nullptr && b.bench == headline->bench) {
      current = TemplateData(entry);
    }
    previous[b.bench] = b;
  }
  auto out = render::template_object();
  if (!current && !history.empty()) {
    current = TemplateData(moves.list_value().back());
  }
  put(out, "current", current ? std::move(*current) : TemplateData(false));
  put(out, "has_history", moves.list_value().size() > 1);
  put(out, "history", std::move(moves));
  put(out, "has_environment_changes", !env_changes.is_empty_list());
  put(out, "environment_changes", std::move(env_changes));
  return out;
}

// Each measure with its own baseline, the pins it replaced after it (newest first).
TemplateData measures_data(Reader& reader, const std::string& plan, const PlanMeasures& measures,
                           const std::vector<document::Chart>& charts)
{
  const auto& history = reader.baselines(plan);
  auto list = render::template_list(measures.measures.size());
  for (std::size_t i = 0; i < measures.measures.size(); ++i) {
    const auto& m = measures.measures[i];
    auto& entry = render::append(list, render::template_object());
    put(entry, "separator", i == 0 ? "" : "; ");
    put(entry, "headline_measure", i == 0);
    put(entry, "bench", inline_text(m.bench));
    put(entry, "metric", inline_text(m.metric));
    put(entry, "unit", inline_text(m.unit));
    put(entry, "has_unit", !m.unit.empty());
    put(entry, "better", m.higher_is_better ? "higher" : "lower");
    put(entry, "headline", inline_text(core::describe(m.headline)));
    put(entry, "has_headline", !m.headline.empty());
    put(entry, "chart_file", i < charts.size() ? charts[i].file : std::string());
    std::vector<const core::BaselineRecord*> pins;
    for (const auto& b : history) {
      if (b.bench == m.bench) {
        pins.push_back(&b);
      }
    }
    const auto pin_data = [&](const core::BaselineRecord& b) {
      auto pin = render::template_object();
      const auto run = store::find_run(reader.journal().db(), b.run);
      put(pin, "run", core::number_text(b.run));
      put(pin, "run_ref", core::number_label(b.run));
      put(pin, "date", util::format_date(b.time_ms));
      const auto value = pinned_value(reader, b.run, &m);
      put(pin, "value", value);
      put(pin, "has_value", !value.empty());
      put(pin, "imported", run && run->status == core::RunStatus::Imported);
      put(pin, "withdrawn", run && run->withdrawn());
      put(pin, "reason", inline_text(b.reason));
      put(pin, "has_reason", !b.reason.empty());
      return pin;
    };
    put(entry, "has_baseline", !pins.empty());
    put(entry, "baseline", pins.empty() ? TemplateData(false) : pin_data(*pins.back()));
    auto before = render::template_list();
    for (auto it = pins.rbegin() + (pins.empty() ? 0 : 1); it != pins.rend(); ++it) {
      render::append(before, pin_data(**it));
    }
    put(entry, "has_before", !before.is_empty_list());
    put(entry, "before", std::move(before));
  }
  return list;
}

// One summary row, its cells in the order of the summary's columns, unescaped.
struct Row {
  int number = 0;
  std::string title;
  core::Status status = core::Status::Proposed;
  std::vector<int> resolved_by;
  std::vector<std::string>
      cells; // a value and a change per measure (the outcome after the first's), then the targets
  std::string commit;
  // The fields older templates name: the headline measure's.
  std::string median = "—", change = "—", interval = "—", outcome = "—", target_met = "—", design = "—";
};

struct Columns {
  std::vector<std::pair<std::string, std::string>> names; // header text, alignment row cell
  bool has_commits = false;
  bool has_intervals = false;
  // The measured commit has a column when one measure leaves it room; with several, the run
  // lines name it.
  bool commit_column = true;
};

Columns summary_columns(const PlanMeasures& measures)
{
  Columns columns;
  columns.commit_column = measures.measures.size() <= 1;
  for (std::size_t i = 0; i < measures.measures.size(); ++i) {
    const auto& m = measures.measures[i];
    columns.names.emplace_back(m.unit.empty() ? m.metric : m.metric + " (" + m.unit + ")", "---:");
    // The headline measure with its change and outcome; the others by their value, which the
    // targets' columns judge (each attempt's section has every change).
    if (i == 0) {
      columns.names.emplace_back("change", "---:");
      if (measures.measures.size() <= 1) { // with several, the page has room for the targets, not this
        columns.names.emplace_back("outcome", "---");
      }
    }
  }
  for (const auto& target : measures.targets) {
    columns.names.emplace_back(measures.targets.size() == 1 ? std::string("target") : core::to_string(target),
                               "---");
  }
  return columns;
}

// "improved (interleaved, 20 rounds)": a verdict's design beside its outcome, or beside its change
// where the summary has no outcome column. In a cell of its own it would widen a full table past the
// page; here it takes a second line of the cell at most.
std::string with_design(const std::string& text, const std::string& design)
{
  return design == "—" ? text : text + " (" + design + ")";
}

Row summary_row(Reader& reader, const core::Attempt& attempt, const std::optional<Evaluation>& evaluation,
                const PlanMeasures& measures, Columns& columns)
{
  Row row;
  row.number = attempt.number;
  row.title = attempt.title;
  row.status = attempt.status;
  row.resolved_by = attempt.resolved_by;
  for (std::size_t i = 0; i < measures.measures.size(); ++i) {
    const auto& m = measures.measures[i];
    const Verdict* verdict = nullptr;
    if (evaluation) {
      for (const auto& v : evaluation->verdicts) {
        if (v.candidate.bench == m.bench && v.metric == m.metric) {
          verdict = &v;
        }
      }
    }
    std::string value;
    if (verdict != nullptr) {
      value = value_text(verdict->candidate.series, m.metric, m.headline);
    } else if (const auto set = reader.attempt_set(attempt.number, m.bench)) {
      value = value_text(set->series, m.metric, m.headline);
      if (i == 0) {
        row.commit = [&] {
          for (auto it = set->runs.rbegin(); it != set->runs.rend(); ++it) {
            if (it->status != core::RunStatus::Imported && !it->git.commit.empty()) {
              return it->git.commit.substr(0, 7) + (it->git.dirty ? "+" : "");
            }
          }
          return std::string();
        }();
      }
    }
    const auto change = verdict != nullptr ? change_of(*verdict) : std::string("—");
    row.cells.push_back(value.empty() ? "—" : value);
    if (i == 0) {
      row.design = verdict != nullptr ? verdict->design.cell() : std::string("—");
      const bool outcome_column = measures.measures.size() <= 1;
      row.cells.push_back(outcome_column ? change : with_design(change, row.design));
      const auto outcome = verdict != nullptr ? outcome_of(*verdict) : std::string("—");
      if (outcome_column) {
        row.cells.push_back(with_design(outcome, row.design));
      }
      row.median = row.cells[0];
      row.change = change;
      row.outcome = outcome;
      if (verdict != nullptr) {
        if (const auto* s = verdict->headline_comparison()) {
          if (const auto interval = interval_text(s->comparison, s->unit); !interval.empty()) {
            row.interval = interval;
            columns.has_intervals = true;
          }
        }
        for (auto it = verdict->candidate.runs.rbegin(); it != verdict->candidate.runs.rend(); ++it) {
          if (it->status != core::RunStatus::Imported && !it->git.commit.empty()) {
            row.commit = it->git.commit.substr(0, 7) + (it->git.dirty ? "+" : "");
            break;
          }
        }
      }
    }
  }
  for (std::size_t t = 0; t < measures.targets.size(); ++t) {
    const auto text = evaluation ? evaluation->targets[t].cell() : std::string("—");
    row.cells.push_back(text);
    if (t == 0) {
      row.target_met = text;
    }
  }
  columns.has_commits = columns.has_commits || !row.commit.empty();
  return row;
}

// Under the summary, when a row's design is sequential: what that means for its change, and how to
// measure instead. The rows name their designs; an interleaved one (ej run --against) needs no note.
std::string design_note(const std::vector<Row>& rows)
{
  const bool any_sequential =
      std::any_of(rows.begin(), rows.end(), [](const Row& row) { return row.design == "sequential"; });
  if (!any_sequential) {
    return "";
  }
  return "A sequential change compares two runs measured at different times (each attempt's section says "
         "how far apart), so the machine's drift is in it; `ej run BENCH --against baseline` measures both "
         "sides together.";
}

TemplateData summary_data(const std::vector<Row>& rows, const Columns& columns, const PlanMeasures& measures)
{
  auto list = render::template_list(rows.size());
  const auto* headline = measures.headline_measure();
  for (const auto& row : rows) {
    auto& entry = render::append(list, render::template_object());
    put(entry, "number", core::number_text(row.number));
    put(entry, "ref", core::number_label(row.number));
    put(entry, "title", cell(row.title));
    put(entry, "status", core::to_string(row.status));
    // What became of a blocked attempt says more than that it was blocked (its section says both);
    // held together as the outcome is: a status cell must not wrap.
    const auto resolved = core::resolved_text(row.resolved_by);
    put(entry, "status_cell",
        cell(unbreakable(resolved.empty() ? std::string(core::to_string(row.status)) : resolved)));
    put(entry, "median", cell(row.median));
    put(entry, "has_median", row.median != "—");
    put(entry, "unit", cell(headline != nullptr ? headline->unit : ""));
    put(entry, "change", cell(row.change));
    put(entry, "interval", cell(row.interval));
    put(entry, "outcome", cell(unbreakable(row.outcome)));
    put(entry, "design", cell(row.design));
    put(entry, "target_met", cell(row.target_met));
    put(entry, "commit", row.commit.empty() ? "—" : row.commit);
    auto cells = render::template_list(row.cells.size() + 1);
    // The outcome's words are held together: squeezed by a long title, a browser would wrap them. Its
    // design may go to a second line.
    const bool outcome_column = measures.measures.size() == 1;
    for (std::size_t i = 0; i < row.cells.size(); ++i) {
      const auto text =
          i == 2 && outcome_column ? with_design(unbreakable(row.outcome), row.design) : row.cells[i];
      render::append(cells, render::template_text(cell(text)));
    }
    if (columns.has_commits && columns.commit_column) {
      render::append(cells, render::template_text(row.commit.empty() ? "—" : row.commit));
    }
    put(entry, "cells", std::move(cells));
  }
  return list;
}

TemplateData columns_data(const Columns& columns)
{
  auto list = render::template_list();
  auto add = [&](const std::string& name, const std::string& align) {
    auto& entry = render::append(list, render::template_object());
    put(entry, "name", name);
    put(entry, "align", align);
  };
  for (const auto& [name, align] : columns.names) {
    add(cell(name), align);
  }
  if (columns.has_commits && columns.commit_column) {
    add("commit", "---");
  }
  return list;
}

TemplateData timeline_entry(const core::Attempt& attempt, std::string date, std::string change,
                            std::string reason)
{
  auto entry = render::template_object();
  put(entry, "date", std::move(date));
  put(entry, "number", core::number_text(attempt.number));
  put(entry, "ref", core::number_label(attempt.number));
  put(entry, "title", cell(attempt.title));
  put(entry, "change", std::move(change));
  put(entry, "has_reason", !reason.empty());
  put(entry, "reason", std::move(reason));
  return entry;
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

// The targets with the attempts that meet them: "verify_ms < 15", met by #11.
TemplateData targets_data(const PlanMeasures& measures, const std::vector<std::vector<int>>& met_by)
{
  auto list = render::template_list();
  for (std::size_t t = 0; t < measures.targets.size(); ++t) {
    const auto& target = measures.targets[t];
    auto& entry = render::append(list, render::template_object());
    put(entry, "separator", t == 0 ? "" : "; ");
    put(entry, "text", inline_text(core::to_string(target)));
    put(entry, "bench", inline_text(target.bench));
    put(entry, "has_bench", !target.bench.empty());
    std::vector<std::string> numbers;
    for (const int number : met_by[t]) {
      numbers.push_back(core::number_label(number));
    }
    put(entry, "met_by", util::join(numbers, ", "));
    put(entry, "has_met_by", !numbers.empty());
  }
  return list;
}

// The steps acknowledged as expected (ej ack) of the benchmarks the plan ran or measures, oldest
// first: the history's reason a slowdown is no regression belongs where the plan's readers look.
// `benches`: the benchmarks the plan's attempts ran or its baselines name (store::plan_benchmarks), as
// the document read them.
TemplateData acknowledged_data(store::Journal& journal, std::set<std::string> benches,
                               const PlanMeasures& measures)
{
  for (const auto& m : measures.measures) {
    benches.insert(m.bench);
  }
  std::vector<core::Acknowledgement> all;
  for (const auto& bench : benches) {
    for (auto& ack : store::acknowledgements(journal.db(), bench)) {
      all.push_back(std::move(ack));
    }
  }
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
    return std::tie(a.time_ms, a.bench, a.commit, a.event_id) <
           std::tie(b.time_ms, b.bench, b.commit, b.event_id);
  });
  auto list = render::template_list(all.size());
  for (const auto& ack : all) {
    auto& entry = render::append(list, render::template_object());
    put(entry, "bench", inline_text(ack.bench));
    put(entry, "metric", inline_text(ack.metric));
    put(entry, "has_metric", !ack.metric.empty());
    put(entry, "commit", ack.commit);
    put(entry, "commit_short", short_commit(ack.commit));
    put(entry, "date", util::format_date(ack.time_ms));
    put(entry, "reason", inline_text(ack.reason));
    put(entry, "reason_cell", cell(ack.reason));
  }
  return list;
}

} // namespace

DocumentData build_document_data(store::Journal& journal, const std::string& slug,
                                 const std::string& chart_file, VerdictLines lines, Report report)
{
  const auto plan = store::find_plan(journal.db(), slug);
  if (!plan) {
    throw Error("no plan named '{}'; see 'ej plan list'", slug);
  }
  store::AttemptFilter filter;
  filter.plan = slug;
  auto attempts = store::list_attempts(journal.db(), filter);
  std::reverse(attempts.begin(), attempts.end());

  DocumentData out;
  Reader reader(journal); // the journal is only read here
  const auto& measures = reader.measures(slug);
  auto baseline = baseline_data(reader, slug, measures);
  reader.stream_plan(slug, attempts, Reader::Ahead::OnThread); // the caller holds a ReadTransaction
  // Read in the same snapshot as the verdicts, so that each line goes with what it was judged from;
  // each attempt's part from the runs read for its verdict.
  const auto plan_inputs = lines == VerdictLines::Collect && store::has_verdict_cache(journal.db())
                               ? store::plan_verdict_inputs(journal.db(), slug)
                               : std::nullopt;
  std::map<std::string, bool> snapshots; // whether the journal holds each, asked once
  const auto has_snapshot = [&](const std::string& blob) {
    const auto [found, added] = snapshots.try_emplace(blob);
    if (added) {
      found->second = journal.has_blob(blob);
    }
    return found->second;
  };
  std::set<std::string> benches; // the plan's attempts ran or its baselines name
  ChartsBuilder charts(*plan, measures, reader.baselines(slug), chart_file, report == Report::Collect);
  auto columns = summary_columns(measures);
  std::vector<Row> rows;
  rows.reserve(attempts.size());
  std::vector<std::vector<int>> met_by(measures.targets.size());
  std::map<std::string, TemplateData> grouped;
  document::Story story;
  // A deque: kainjow's data has no noexcept move, so a growing vector would copy every entry.
  std::deque<std::pair<std::int64_t, TemplateData>> timeline_entries;
  for (const auto& attempt : attempts) {
    const auto history = store::load_history(journal.db(), attempt);
    const auto evaluation = evaluate_attempt(reader, attempt.number);
    rows.push_back(summary_row(reader, attempt, evaluation, measures, columns));
    if (report == Report::Collect) {
      render::ReportAttempt entry;
      entry.number = attempt.number;
      entry.title = attempt.title;
      entry.status = std::string(core::to_string(attempt.status));
      entry.tags = attempt.tags;
      entry.cells = rows.back().cells;
      if (evaluation) {
        entry.evidence = evidence_rows(*evaluation);
        entry.note = evidence_note(*evaluation);
      }
      out.report.attempts.push_back(std::move(entry));
    }
    charts.add(reader, attempt, evaluation);
    charts.saw_time(attempt.created_ms);
    for (const auto& change : history.status_changes) {
      charts.saw_time(change.time_ms);
    }
    for (std::size_t t = 0; evaluation && t < evaluation->targets.size(); ++t) {
      if (evaluation->targets[t].state == TargetState::Met) {
        met_by[t].push_back(attempt.number);
      }
    }
    const auto& runs = reader.runs_of_attempt(attempt.number);
    for (const auto& run : runs) {
      benches.insert(run.bench);
    }
    if (plan_inputs) {
      if (auto judged = attempt_verdict_inputs(*plan_inputs, runs, has_snapshot)) {
        const auto* lead = evaluation ? evaluation->lead_verdict() : nullptr;
        out.verdict_lines.push_back({attempt.number, std::move(*judged),
                                     lead ? std::optional(lead->text) : std::nullopt,
                                     later_pins(lead, reader.baselines(slug), runs)});
      }
    }
    auto detail = attempt_section(reader, history, evaluation, measures);
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
    story.add(history);
  }
  for (const auto& pin : reader.baselines(slug)) {
    charts.saw_time(pin.time_ms);
    benches.insert(pin.bench);
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

  const auto chart_list = charts.finish(reader);
  if (report == Report::Collect) {
    for (const auto& [name, align] : columns.names) {
      out.report.columns.push_back(name);
    }
    out.report.evidence_columns = evidence_columns();
    out.report.charts = charts.combination_charts();
  }
  out.chart = charts.headline_chart();
  for (const auto& chart : chart_list) {
    out.charts.push_back({chart.file, chart.svg});
  }
  const auto* headline = measures.headline_measure();
  const bool declared = headline != nullptr && headline->declared;

  std::vector<std::string> target_texts;
  for (const auto& target : measures.targets) {
    target_texts.push_back(core::to_string(target));
  }
  auto plan_data = render::template_object();
  put(plan_data, "slug", plan->slug);
  put(plan_data, "title", render::escape_markdown_line(plan->title));
  put(plan_data, "goal", inline_text(plan->goal));
  put(plan_data, "has_goal", !plan->goal.empty());
  put(plan_data, "target", inline_text(util::join(target_texts, "; ")));
  put(plan_data, "has_target", !target_texts.empty());
  put(plan_data, "the_targets",
      target_texts.size() > 1 || declared ? "every target it measures" : "the target");
  put(plan_data, "targets", targets_data(measures, met_by));
  put(plan_data, "has_measures", declared);
  put(plan_data, "several_measures", measures.measures.size() > 1);
  put(plan_data, "headline", inline_text(core::describe(plan->headline)));
  put(plan_data, "has_headline", !plan->headline.empty());
  put(plan_data, "doc", plan->doc_path);
  auto primary_data = render::template_object();
  put(primary_data, "bench", inline_text(headline != nullptr ? headline->bench : ""));
  put(primary_data, "has_bench", headline != nullptr);
  put(primary_data, "metric", inline_text(headline != nullptr ? headline->metric : "wall_s"));
  put(primary_data, "unit", inline_text(headline != nullptr ? headline->unit : ""));
  put(primary_data, "has_unit", headline != nullptr && !headline->unit.empty());
  put(primary_data, "better", headline != nullptr && headline->higher_is_better ? "higher" : "lower");
  put(primary_data, "headline", inline_text(headline != nullptr ? core::describe(headline->headline) : ""));
  put(primary_data, "has_headline", headline != nullptr && !headline->headline.empty());
  auto chart = render::template_object();
  put(chart, "file", chart_list.front().file);
  put(chart, "has_points", !out.chart.points.empty());
  auto chart_entries = render::template_list();
  for (const auto& c : chart_list) {
    auto& entry = render::append(chart_entries, render::template_object());
    put(entry, "file", c.file);
    put(entry, "alt", inline_text(c.alt));
  }

  put(out.data, "plan", std::move(plan_data));
  put(out.data, "primary", std::move(primary_data));
  put(out.data, "measures", measures_data(reader, slug, measures, chart_list));
  put(out.data, "has_attempts", !rows.empty());
  put(out.data, "attempt_count", rows.size());
  put(out.data, "has_commits", columns.has_commits);
  put(out.data, "has_intervals", columns.has_intervals);
  put(out.data, "summary_columns", columns_data(columns));
  put(out.data, "summary", summary_data(rows, columns, measures));
  const auto note = design_note(rows);
  put(out.data, "design_note", note);
  put(out.data, "has_design_note", !note.empty());
  put(out.data, "chart", std::move(chart));
  put(out.data, "has_charts", !out.chart.points.empty());
  put(out.data, "charts", std::move(chart_entries));
  put(out.data, "baseline", std::move(baseline));
  auto acknowledged = acknowledged_data(journal, benches, measures);
  put(out.data, "has_acknowledged", !acknowledged.is_empty_list());
  put(out.data, "acknowledged", std::move(acknowledged));
  put(out.data, "groups", std::move(group_list));
  put(out.data, "has_timeline", !timeline.is_empty_list());
  put(out.data, "timeline", std::move(timeline));
  story.write(out.data);
  return out;
}

} // namespace ej::evidence
