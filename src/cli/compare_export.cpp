#include "cli/compare_export.h"

#include "cli/verdict_output.h"
#include "evidence/wording.h"
#include "render/markdown_escape.h"
#include "util/csv.h"
#include "util/error.h"

#include <fmt/format.h>

namespace ej::cli {

namespace {

std::string cell(std::string_view text)
{
  return render::escape_table_cell(text);
}

// A JSON value as a CSV field: strings as they are, numbers in their shortest exact text, null empty.
std::string field(const nlohmann::json& value)
{
  if (value.is_null()) {
    return "";
  }
  if (value.is_string()) {
    return value.get<std::string>();
  }
  return value.dump();
}

} // namespace

CompareFormat parse_compare_format(const std::string& text)
{
  if (text == "text") {
    return CompareFormat::Text;
  }
  if (text == "markdown" || text == "md") {
    return CompareFormat::Markdown;
  }
  if (text == "csv") {
    return CompareFormat::Csv;
  }
  if (text == "json") {
    return CompareFormat::Json;
  }
  throw UsageError("--format takes markdown, csv, json or text, not '{}'", text);
}

nlohmann::json comparison_report_json(const std::string& reference, const std::string& candidate,
                                      const std::string& bench, const evidence::ComparisonReport& report)
{
  auto series = nlohmann::json::array();
  for (const auto& s : report.series) {
    series.push_back(comparison_json(s));
  }
  return {{"reference", reference},
          {"candidate", candidate},
          {"bench", bench},
          {"series", series},
          {"outcome", measure::to_string(evidence::summarize_outcomes(report.series))},
          {"crossover", report.crossover},
          {"environment_changes", report.env_changes},
          {"warnings", report.warnings}};
}

std::string comparison_markdown(const std::string& reference, const std::string& candidate,
                                const std::string& bench, const evidence::ComparisonReport& report)
{
  std::string out = fmt::format("**{}** (reference) vs **{}** (candidate), benchmark {}: {}\n\n",
                                render::escape_markdown_line(reference),
                                render::escape_markdown_line(candidate), render::escape_markdown_line(bench),
                                measure::to_string(evidence::summarize_outcomes(report.series)));
  out += "| series | reference | candidate | change | interval | outcome |\n";
  out += "|---|---:|---:|---:|---|---|\n";
  for (const auto& s : report.series) {
    const auto& c = s.comparison;
    auto change = evidence::change_text(c, s.unit);
    if (const auto factor = evidence::factor_text(c, s.quantity); !factor.empty()) {
      change += " (" + factor + ")";
    }
    const auto outcome = std::string(measure::to_string(c.outcome)) + ", " + evidence::basis_text(c);
    out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", cell(s.label()),
                       cell(evidence::value_text(c.reference_median, s.unit)),
                       cell(evidence::value_text(c.candidate_median, s.unit)), cell(change),
                       cell(evidence::interval_text(c, s.unit)), cell(outcome));
  }
  std::string notes;
  if (!report.crossover.empty()) {
    notes += "- crossover: " + render::escape_markdown_inline(report.crossover) + "\n";
  }
  for (const auto& warning : report.warnings) {
    notes += "- warning: " + render::escape_markdown_inline(warning) + "\n";
  }
  for (const auto& change : report.env_changes) {
    notes += "- environment: " + render::escape_markdown_inline(change) + "\n";
  }
  return notes.empty() ? out : out + "\n" + notes;
}

std::string comparison_csv(const evidence::ComparisonReport& report)
{
  static const std::vector<std::string> k_columns = {
      "metric",      "params",      "key",        "unit",           "reference_median", "candidate_median",
      "n_reference", "n_candidate", "change_pct", "change_low_pct", "change_high_pct",  "ratio",
      "shift",       "p_value",     "outcome",    "basis"};
  std::string out = util::csv_line(k_columns);
  for (const auto& s : report.series) {
    const auto json = comparison_json(s);
    std::vector<std::string> row;
    for (const auto& column : k_columns) {
      row.push_back(field(json.at(column)));
    }
    out += util::csv_line(row);
  }
  return out;
}

} // namespace ej::cli
