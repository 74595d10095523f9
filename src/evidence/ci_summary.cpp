#include "evidence/ci_summary.h"

#include "core/bench_definition.h"
#include "core/numbering.h"
#include "evidence/document_parts.h"
#include "render/markdown_escape.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string_view>

namespace ej::evidence {

namespace {

// As ej run --against names a revision: 12 digits, where git's 7 begin to collide in large histories.
std::string ci_short_commit(const std::string& commit)
{
  return document::short_commit(commit, 12);
}

bool bench_regressed(const CiBench& bench)
{
  if (!bench.verdict) {
    return false;
  }
  // On the figures: a candidate that is slower is slower whatever it printed. And a discovery across
  // the primary series (Benjamini-Hochberg, as the overall outcome): a sweep of twenty combinations
  // must not fail one pull request in three on noise.
  const auto primary = primary_discoveries(*bench.verdict);
  return std::any_of(primary.begin(), primary.end(), [](const auto& series) {
    return series.second && series.first->outcome_on_figures() == measure::Outcome::Regressed;
  });
}

std::string_view bench_outcome(const CiBench& bench)
{
  if (!bench.failure.empty()) {
    return "failed";
  }
  return bench.verdict ? paired_outcome_text(bench.verdict->outcome) : "not measured";
}

// One line of the table: a series of one benchmark, the primary metric's first.
struct CiRow {
  std::string bench;
  std::string metric; // with its key: "time_ms[p99]"
  bool primary = false;
  std::string at; // the combination: "variant=naive", or ""
  const PairedVerdict* series = nullptr;
};

std::vector<CiRow> ci_rows(const CiSummary& summary)
{
  std::vector<CiRow> rows;
  for (const auto& bench : summary.benches) {
    if (!bench.verdict) {
      continue;
    }
    std::vector<CiRow> these;
    for (const auto& v : bench.verdict->series) {
      CiRow row;
      row.bench = bench.bench;
      row.metric = v.key.empty() ? v.metric : v.metric + "[" + v.key + "]";
      row.primary = v.metric == bench.verdict->primary;
      row.at = paired_combination(v);
      row.series = &v;
      these.push_back(std::move(row));
    }
    std::stable_partition(these.begin(), these.end(), [](const CiRow& row) { return row.primary; });
    rows.insert(rows.end(), these.begin(), these.end());
  }
  return rows;
}

std::string code_span(const std::string& text)
{
  const auto fence = std::string(render::code_span_fence(text), '`');
  const bool pad = !text.empty() && (text.front() == '`' || text.back() == '`');
  return fence + (pad ? " " : "") + text + (pad ? " " : "") + fence;
}

// A value that can stand in a link's destination as it is: a space, a parenthesis or a bracket
// would end the link early or break it, so no link is made from a value holding one.
bool ci_url_safe(const std::string& text)
{
  constexpr std::string_view k_marks = "-._~:/@%+=";
  return !text.empty() && std::all_of(text.begin(), text.end(), [&](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return (byte < 0x80 && std::isalnum(byte) != 0) || k_marks.find(c) != std::string_view::npos;
  });
}

// The repository's page ("https://github.com/owner/name"), or "" when the job gave none: no links.
std::string ci_repository_url(const CiSummary& summary)
{
  const auto& links = summary.links;
  if (!ci_url_safe(links.server_url) || !ci_url_safe(links.repository) ||
      !ci_url_safe(summary.candidate.commit) || !ci_url_safe(summary.reference.commit)) {
    return {};
  }
  auto server = links.server_url;
  while (!server.empty() && server.back() == '/') {
    server.pop_back();
  }
  return server + "/" + links.repository;
}

std::string ci_commit_url(const std::string& repository, const std::string& commit)
{
  return fmt::format("{}/commit/{}", repository, commit);
}

std::string ci_compare_url(const std::string& repository, const CiSummary& summary)
{
  return fmt::format("{}/compare/{}...{}", repository, summary.reference.commit, summary.candidate.commit);
}

// The workflow run's page, or "" without a run id.
std::string ci_run_url(const std::string& repository, const CiSummary& summary)
{
  const auto& id = summary.links.run_id;
  const bool digits =
      !id.empty() && std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; });
  return digits ? fmt::format("{}/actions/runs/{}", repository, id) : std::string();
}

// A commit as the summary shows it: its 12 digits, linked to its page where the job gave one.
std::string ci_commit_text(const std::string& repository, const std::string& commit)
{
  const auto text = code_span(ci_short_commit(commit));
  return repository.empty() ? text : fmt::format("[{}]({})", text, ci_commit_url(repository, commit));
}

} // namespace

CiOutcome ci_outcome(const CiSummary& summary)
{
  if (std::any_of(summary.benches.begin(), summary.benches.end(), bench_regressed)) {
    return CiOutcome::Regressed;
  }
  if (std::any_of(summary.benches.begin(), summary.benches.end(),
                  [](const CiBench& bench) { return !bench.failure.empty(); })) {
    return CiOutcome::Failed;
  }
  return CiOutcome::Passed;
}

const char* to_string(CiOutcome outcome)
{
  switch (outcome) {
  case CiOutcome::Passed:
    return "passed";
  case CiOutcome::Regressed:
    return "regressed";
  case CiOutcome::Failed:
    return "failed";
  }
  return "failed";
}

std::vector<std::string> regressed_benches(const CiSummary& summary)
{
  std::vector<std::string> out;
  for (const auto& bench : summary.benches) {
    if (bench_regressed(bench)) {
      out.push_back(bench.bench);
    }
  }
  return out;
}

std::vector<std::string> ci_warnings(const CiSummary& summary)
{
  std::vector<std::string> out;
  if (summary.candidate.dirty) {
    out.push_back("the candidate's work tree had uncommitted changes: they were measured, and are not "
                  "in its commit");
  }
  for (const auto& bench : summary.benches) {
    if (!bench.failure.empty()) {
      out.push_back(fmt::format("{} failed: {}", bench.bench, bench.failure));
    }
    if (!bench.verdict) {
      if (bench.failure.empty()) {
        out.push_back(fmt::format("{}: no round was measured", bench.bench));
      }
      continue;
    }
    if (bench.stopped == core::SessionStop::Budget) {
      out.push_back(fmt::format("{}: the --budget ended the rounds before a decision", bench.bench));
    }
    if (const auto doubt = integrity_text(bench.verdict->integrity); !doubt.empty()) {
      out.push_back(fmt::format("{}: {}", bench.bench, doubt)); // its outcome is not to be believed
    }
    for (const auto& v : bench.verdict->series) {
      if (v.metric != bench.verdict->primary || v.outcome_on_figures() != measure::Outcome::Inconclusive) {
        continue;
      }
      const auto at = paired_combination(v);
      auto line = fmt::format("{} {}{}{}: inconclusive after {} round{}", bench.bench, v.metric,
                              v.key.empty() ? "" : "[" + v.key + "]", at.empty() ? "" : " (" + at + ")",
                              v.rounds, v.rounds == 1 ? "" : "s");
      if (v.rounds_needed) {
        line +=
            fmt::format("; a decision would likely need about {} rounds (--max-rounds)", *v.rounds_needed);
      }
      out.push_back(line + "; the gate does not fail on it");
    }
  }
  return out;
}

std::vector<std::string> reproduce_commands(const CiSummary& summary)
{
  std::vector<std::string> out;
  for (const auto& bench : summary.benches) {
    auto command = fmt::format("ej run {} --against {} --until-decisive", bench.bench,
                               ci_short_commit(summary.reference.commit));
    if (bench.max_rounds > 0) {
      command += fmt::format(" --max-rounds {}", bench.max_rounds);
    }
    out.push_back(command);
  }
  return out;
}

std::string ci_markdown(const CiSummary& summary)
{
  std::string out;
  const auto outcome = ci_outcome(summary);
  if (outcome == CiOutcome::Regressed) {
    std::vector<std::string> names;
    for (const auto& name : regressed_benches(summary)) {
      names.push_back(code_span(name));
    }
    out += fmt::format("## ej ci: regression in {}\n\n", fmt::join(names, ", "));
  } else if (outcome == CiOutcome::Failed) {
    out += "## ej ci: a benchmark failed\n\n";
  } else {
    out += "## ej ci: no decisive regression\n\n";
  }
  const auto repository = ci_repository_url(summary);
  out += fmt::format("Candidate {} ({}{}) against {} ({}), measured interleaved in one session.\n\n",
                     ci_commit_text(repository, summary.candidate.commit),
                     render::escape_markdown_inline(summary.candidate.name),
                     summary.candidate.dirty ? ", with uncommitted changes" : "",
                     ci_commit_text(repository, summary.reference.commit),
                     render::escape_markdown_inline(summary.reference.name));
  if (!repository.empty()) {
    out += fmt::format("[The changes between them]({})", ci_compare_url(repository, summary));
    if (const auto run = ci_run_url(repository, summary); !run.empty()) {
      out += fmt::format(" · [this workflow run]({})", run);
    }
    out += "\n\n";
  }

  const auto rows = ci_rows(summary);
  if (!rows.empty()) {
    out += "| benchmark | metric | at | change | interval | outcome | rounds |\n";
    out += "|---|---|---|---:|---|---|---:|\n";
    for (const auto& row : rows) {
      const auto& v = *row.series;
      const bool gate = row.primary && v.outcome == measure::Outcome::Regressed;
      out += fmt::format(
          "| {} | {}{} | {} | {} | [{}, {}] | {} | {} |\n", render::escape_table_cell(row.bench),
          render::escape_table_cell(row.metric), row.primary ? " (primary)" : "",
          render::escape_table_cell(row.at), paired_change_text(v, v.estimate), paired_change_text(v, v.low),
          paired_change_text(v, v.high), gate ? "**regressed**" : paired_outcome_text(v.outcome), v.rounds);
    }
    out += "\n";
  }
  std::vector<std::string> runs;
  for (const auto& bench : summary.benches) {
    if (bench.verdict) {
      runs.push_back(fmt::format(
          "{}: run {} against run {}{}", bench.bench, core::number_label(bench.verdict->candidate),
          core::number_label(bench.verdict->reference),
          bench.verdict->min_effect_pct > 0 ? fmt::format(", min effect {:g}%", bench.verdict->min_effect_pct)
                                            : std::string()));
    }
  }
  if (!runs.empty()) {
    out += fmt::format("Runs: {}. The gate fails on a decisive regression of a benchmark's primary metric "
                       "beyond its minimum effect; the other metrics are shown for information.\n\n",
                       render::escape_markdown_inline(fmt::format("{}", fmt::join(runs, "; "))));
  }
  const auto warnings = ci_warnings(summary);
  if (!warnings.empty()) {
    out += "**Warnings**\n\n";
    for (const auto& warning : warnings) {
      out += "- " + render::escape_markdown_inline(warning) + "\n";
    }
    out += "\n";
  }
  out += "**Reproduce**\n\n```sh\n";
  for (const auto& command : reproduce_commands(summary)) {
    out += command + "\n";
  }
  out += "```\n";
  return out;
}

nlohmann::json to_json(const CiSummary& summary)
{
  const auto side = [](const CiSide& s) {
    return nlohmann::json{
        {"commit", s.commit}, {"short", ci_short_commit(s.commit)}, {"name", s.name}, {"dirty", s.dirty}};
  };
  auto benches = nlohmann::json::array();
  for (const auto& bench : summary.benches) {
    benches.push_back({{"bench", bench.bench},
                       {"outcome", bench_outcome(bench)},
                       {"regressed", bench_regressed(bench)},
                       {"stopped", core::to_string(bench.stopped)},
                       {"failure", bench.failure},
                       {"verdict", bench.verdict ? to_json(*bench.verdict) : nlohmann::json()}});
  }
  auto rows = nlohmann::json::array();
  for (const auto& row : ci_rows(summary)) {
    const auto& v = *row.series;
    rows.push_back({{"bench", row.bench},
                    {"metric", v.metric},
                    {"key", v.key},
                    {"at", row.at},
                    {"primary", row.primary},
                    {"change", paired_change_text(v, v.estimate)},
                    {"low", paired_change_text(v, v.low)},
                    {"high", paired_change_text(v, v.high)},
                    {"outcome", paired_outcome_text(v.outcome)},
                    {"rounds", v.rounds}});
  }
  nlohmann::json out{{"outcome", to_string(ci_outcome(summary))},
                     {"candidate", side(summary.candidate)},
                     {"reference", side(summary.reference)},
                     {"benchmarks", benches},
                     {"rows", rows},
                     {"warnings", ci_warnings(summary)},
                     {"reproduce", reproduce_commands(summary)}};
  // Only where the job gave them, as in the markdown: elsewhere the object is as it always was.
  if (const auto repository = ci_repository_url(summary); !repository.empty()) {
    out["links"] = {{"candidate", ci_commit_url(repository, summary.candidate.commit)},
                    {"reference", ci_commit_url(repository, summary.reference.commit)},
                    {"compare", ci_compare_url(repository, summary)}};
    if (const auto run = ci_run_url(repository, summary); !run.empty()) {
      out["links"]["run"] = run;
    }
  }
  return out;
}

} // namespace ej::evidence
