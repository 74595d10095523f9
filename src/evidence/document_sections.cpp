#include "evidence/document_sections.h"

#include "core/numbering.h"
#include "evidence/document_parts.h"
#include "render/frozen_data.h"
#include "render/markdown_escape.h"
#include "store/queries.h"
#include "store/run_queries.h"
#include "util/strings.h"
#include "util/time.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace ej::evidence::document {

namespace {

using render::FrozenWriter;

void put_text_or_false(FrozenWriter& object, std::string_view key, const std::string& text)
{
  if (text.empty()) {
    object.put(key, false);
  } else {
    object.put(key, text);
  }
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

void write_links(FrozenWriter& out, store::Database& db, const core::AttemptHistory& history)
{
  struct Blocker {
    int number;
    std::string title;
    std::string status;
    bool resolved;
  };
  std::vector<Blocker> blocked_by;
  std::vector<std::string> links;
  for (const auto& link : history.links_out) {
    const auto other = store::find_attempt(db, link.to);
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
    const auto other = store::find_attempt(db, link.from);
    const auto other_title = other ? inline_text(other->title) : std::string("(missing)");
    const char* verb = link.kind == "supersedes" ? "superseded by"
                       : link.kind == "retry-of" ? "retried by"
                                                 : "blocks";
    links.push_back(fmt::format("{} {} {}", verb, core::number_label(link.from), other_title));
  }
  out.put("has_blocked_by", !blocked_by.empty());
  out.begin_list("blocked_by");
  for (const auto& blocker : blocked_by) {
    out.begin_object();
    out.put("number", core::number_text(blocker.number));
    out.put("ref", core::number_label(blocker.number));
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
}

std::string outcome_words(const measure::Comparison& c)
{
  return c.basis != measure::Basis::Test ? "no test" : std::string(measure::to_string(c.outcome));
}

// The evidence table: one row per metric and combination of every verdict.
void write_evidence(FrozenWriter& out, const std::optional<Evaluation>& evaluation)
{
  bool any_where = false;
  const auto rows = evaluation ? evidence_rows(*evaluation) : std::vector<std::vector<std::string>>{};
  out.begin_list("evidence");
  for (const auto& row : rows) {
    out.begin_object();
    out.put("measure", cell(row[0]));
    out.put("at", cell(row[1]));
    out.put("baseline", cell(row[2]));
    out.put("candidate", cell(row[3]));
    out.put("change", cell(row[4]));
    out.put("interval", cell(row[5]));
    out.put("outcome", cell(unbreakable(row[6])));
    out.end_object();
    any_where = any_where || !row[1].empty();
  }
  out.end_list();
  out.put("has_evidence", !rows.empty());
  out.put("evidence_has_at", any_where);
}

} // namespace

const std::vector<std::string>& evidence_columns()
{
  static const std::vector<std::string> columns{"measure", "at",       "baseline", "this attempt",
                                                "change",  "interval", "outcome"};
  return columns;
}

std::vector<std::vector<std::string>> evidence_rows(const Evaluation& evaluation)
{
  std::vector<std::vector<std::string>> rows;
  for (const auto& v : evaluation.verdicts) {
    bool first = true;
    for (const auto& s : v.combinations) {
      const auto& c = s.comparison;
      const auto interval = interval_text(c, s.unit);
      rows.push_back({first ? (s.unit.empty() ? s.metric : s.metric + " (" + s.unit + ")") : std::string(),
                      s.where(), number(c.reference_median), number(c.candidate_median),
                      change_text(c, s.unit), interval.empty() ? "—" : interval, outcome_words(c)});
      first = false;
    }
  }
  return rows;
}

std::string evidence_note(const Evaluation& evaluation)
{
  std::vector<std::string> sentences;
  std::vector<std::string> against;
  const bool several = evaluation.verdicts.size() > 1;
  // What is wrong with the figures first (evidence/integrity.h), as a verdict's line says it.
  for (const auto& v : evaluation.verdicts) {
    if (auto doubt = integrity_text(v.integrity); !doubt.empty()) {
      if (!several) {
        doubt.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(doubt.front())));
      }
      sentences.push_back(fmt::format("{}{}.", several ? v.candidate.bench + " " : "", doubt));
    }
  }
  for (const auto& v : evaluation.verdicts) {
    auto text =
        v.reference_run
            ? fmt::format("{}run {}'s code, measured alongside as run {}", several ? v.candidate.bench + " " : "",
                          core::number_label(v.baseline_run), core::number_label(*v.reference_run))
            : fmt::format("{}run {}", several ? v.candidate.bench + " " : "", core::number_label(v.baseline_run));
    if (v.against == Against::BaselineThen && v.baseline_now) {
      text += fmt::format(", the baseline then (now run {})", core::number_label(*v.baseline_now));
    }
    // "run #7 (measured 19 hours earlier)"; after a parenthesis of its own, "..., measured ...".
    const auto design =
        v.design.kind == Design::Sequential ? "measured " + v.design.baseline_when() : v.design.phrase();
    text += text.ends_with(')') ? ", " + design : " (" + design + ")";
    if (std::find(against.begin(), against.end(), text) == against.end()) {
      against.push_back(text);
    }
  }
  if (!against.empty()) {
    sentences.push_back("Against " + util::join(against, " and ") + ".");
  }
  if (std::any_of(evaluation.verdicts.begin(), evaluation.verdicts.end(),
                  [](const Verdict& v) { return v.design.kind == Design::Sequential; })) {
    sentences.push_back("Sequential: the machine's drift between the runs is not controlled.");
  }
  for (const auto& v : evaluation.verdicts) {
    if (v.sweep() && !v.crossover.empty()) {
      sentences.push_back(fmt::format("{} {}.", v.metric, v.crossover));
    }
  }
  if (std::any_of(evaluation.verdicts.begin(), evaluation.verdicts.end(),
                  [](const Verdict& v) { return v.imported; })) {
    sentences.push_back("Imported figures, not measured by ej.");
  }
  for (const auto& v : evaluation.verdicts) {
    if (!v.environment_fields.empty()) {
      sentences.push_back(fmt::format("Environments differ{}: {}.",
                                      several ? " for " + v.candidate.bench : "",
                                      util::join(v.environment_fields, ", ")));
    }
    if (v.throttled > 0) {
      sentences.push_back(fmt::format("{} of {} repeats{} ran on a throttled GPU{}.", v.throttled,
                                      v.device_repeats, several ? " of " + v.candidate.bench : "",
                                      v.throttled_excluded ? ", left out" : ""));
    }
  }
  for (const auto& m : evaluation.missing) {
    sentences.push_back(fmt::format("Not judged: {}.", m.why));
  }
  return util::join(sentences, " ");
}

namespace {

// "96.10 tok/s at concurrency=1; verify_ms 30.00 ms": the run's values of the plan's measures of
// its benchmark (the headline measure's without its name) and of the targets on its metrics.
std::string run_values(Reader& reader, const core::RunRecord& run, const PlanMeasures& measures)
{
  const auto& series = reader.series_of_run(run.number);
  if (series.empty()) {
    return "";
  }
  std::vector<std::string> metrics;
  for (const auto* m : measures.of_bench(run.bench)) {
    metrics.push_back(m->metric);
  }
  if (metrics.empty()) {
    metrics.push_back(reader.rules(run.bench, run.revision).primary);
  }
  for (const auto& target : measures.targets) {
    if ((target.bench.empty() || target.bench == run.bench) &&
        std::find(metrics.begin(), metrics.end(), target.metric) == metrics.end()) {
      metrics.push_back(target.metric);
    }
  }
  const auto* headline = measures.headline_measure();
  std::vector<std::string> parts;
  for (const auto& metric : metrics) {
    const auto at = measures.headline_for(run.bench, metric);
    const auto value = value_text(series, metric, at);
    if (value.empty()) {
      continue;
    }
    const auto* s = series_at(series, metric, at);
    std::string unit;
    for (const auto& one : series) {
      if (one.metric == metric) {
        unit = one.unit;
        break;
      }
    }
    const bool lead = headline != nullptr && headline->bench == run.bench && headline->metric == metric;
    auto text = lead ? value : metric + " " + value;
    if (!unit.empty()) {
      text += " " + unit;
    }
    if (s != nullptr && !s->params.empty() && !at.empty()) {
      text += " at " + core::describe(at);
    }
    parts.push_back(std::move(text));
  }
  return inline_text(util::join(parts, "; "));
}

// The attempt's runs, oldest first. Runs of one sitting (finished, with the same label, day and
// commit: serve and verify measured together) share a line: "runs #8, #9 ...: 96.10 tok/s at
// concurrency=1; verify_ms 12.50 ms".
void write_runs(FrozenWriter& out, Reader& reader, int attempt, const PlanMeasures& measures)
{
  const auto& newest_first = reader.runs_of_attempt(attempt);
  struct Line {
    const core::RunRecord* run;
    std::vector<int> numbers;
    std::vector<std::pair<std::size_t, std::string>> values; // by the place of its benchmark's measure
  };
  // Values in the order of the plan's measures, the headline's first, whatever order the runs ran in.
  const auto place = [&](const std::string& bench) {
    for (std::size_t i = 0; i < measures.measures.size(); ++i) {
      if (measures.measures[i].bench == bench) {
        return i;
      }
    }
    return measures.measures.size();
  };
  std::vector<Line> lines;
  const auto commit_of = [](const core::RunRecord& run) {
    return short_commit(run.git.commit, 7) + (run.git.dirty && !run.git.commit.empty() ? "+" : "");
  };
  const auto finished = [](const core::RunRecord& run) {
    return run.status == core::RunStatus::Finished || run.status == core::RunStatus::Imported;
  };
  for (auto it = newest_first.rbegin(); it != newest_first.rend(); ++it) {
    const auto& run = *it;
    const auto number = run.number;
    if (!listed_in_documents(run,
                             [&] { return store::measured_any_repeat(reader.journal().db(), number); })) {
      continue;
    }
    auto values = run_values(reader, run, measures);
    if (!lines.empty()) {
      const auto& last = *lines.back().run;
      if (finished(run) && finished(last) && run.status == last.status && run.label == last.label &&
          run.source == last.source &&
          util::format_date(run.started_ms) == util::format_date(last.started_ms) &&
          commit_of(run) == commit_of(last)) {
        lines.back().numbers.push_back(run.number);
        if (!values.empty()) {
          lines.back().values.emplace_back(place(run.bench), std::move(values));
        }
        continue;
      }
    }
    lines.push_back({&run, {run.number}, {}});
    if (!values.empty()) {
      lines.back().values.emplace_back(place(run.bench), std::move(values));
    }
  }
  out.put("has_runs", !lines.empty());
  out.begin_list("runs");
  for (const auto& line : lines) {
    const auto& run = *line.run;
    std::vector<std::string> numbers;
    for (const int number : line.numbers) {
      numbers.push_back(core::number_label(number));
    }
    out.begin_object();
    out.put("number", core::number_text(run.number));
    out.put("ref", core::number_label(run.number));
    out.put("numbers", util::join(numbers, ", "));
    out.put("plural", line.numbers.size() > 1);
    out.put("bench", inline_text(run.bench));
    out.put("status", core::to_string(run.status));
    out.put("finished", finished(run));
    out.put("date", util::format_date(run.started_ms));
    out.put("imported", run.status == core::RunStatus::Imported);
    out.put("source", inline_text(run.source));
    out.put("reason", render::escape_markdown_line(run.reason)); // one line: the first of an error's
    out.put("has_reason", !run.reason.empty());
    put_text_or_false(out, "commit", commit_of(run));
    out.put("label", inline_text(run.label));
    out.put("has_label", !run.label.empty());
    auto ordered = line.values;
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> texts;
    for (auto& [at, text] : ordered) {
      texts.push_back(std::move(text));
    }
    const auto values = util::join(texts, "; ");
    out.put("values", values);
    out.put("has_values", !values.empty());
    out.end_object();
  }
  out.end_list();
}

} // namespace

render::TemplateData attempt_section(Reader& reader, const core::AttemptHistory& history,
                                     const std::optional<Evaluation>& evaluation,
                                     const PlanMeasures& measures)
{
  const auto& a = history.attempt;
  FrozenWriter out;
  std::vector<std::string> tag_texts;
  for (const auto& tag : a.tags) {
    tag_texts.push_back(inline_text(tag));
  }
  out.put("number", core::number_text(a.number));
  out.put("ref", core::number_label(a.number));
  out.put("title", render::escape_markdown_line(a.title));
  out.put("status", core::to_string(a.status));
  put_text_or_false(out, "resolved_by", core::resolved_text(a.resolved_by));
  out.put("reason", inline_text(a.reason));
  out.put("has_reason", !a.reason.empty());
  out.put("decided", history.status_changes.empty()
                         ? std::string()
                         : util::format_date(history.status_changes.back().time_ms));
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
  write_links(out, reader.journal().db(), history);
  write_evidence(out, evaluation);
  const auto note = evaluation ? inline_text(evidence_note(*evaluation)) : std::string();
  out.put("evidence_note", note);
  out.put("has_evidence_note", !note.empty());
  const auto* lead = evaluation ? evaluation->lead_verdict() : nullptr;
  out.put("verdict", lead ? inline_text(lead->text) : std::string());
  out.put("has_verdict", lead != nullptr);
  write_runs(out, reader, a.number, measures);
  out.put("has_notes", !history.notes.empty());
  out.begin_list("notes");
  for (const auto& note_entry : history.notes) {
    out.begin_object();
    out.put("date", util::format_date(note_entry.time_ms));
    out.put("text", inline_text(note_entry.text));
    out.end_object();
  }
  out.end_list();
  put_text_or_false(out, "commit", short_commit(a.git.commit, 7));
  out.put("dirty", a.git.dirty);
  out.put("created", util::format_date(a.created_ms));
  return out.take_frozen();
}

} // namespace ej::evidence::document
