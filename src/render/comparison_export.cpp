#include "render/comparison_export.h"

#include "render/markdown_escape.h"
#include "util/csv.h"

#include <fmt/format.h>

namespace ej::render {

namespace {

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

std::string comparison_markdown(const ComparisonTable& table)
{
  std::string out = fmt::format("**{}** (reference) vs **{}** (candidate), benchmark {}: {}\n\n",
                                escape_markdown_line(table.reference), escape_markdown_line(table.candidate),
                                escape_markdown_line(table.bench), table.outcome);
  out += "| series | reference | candidate | change | interval | outcome |\n";
  out += "|---|---:|---:|---:|---|---|\n";
  for (const auto& row : table.rows) {
    out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", escape_table_cell(row.series),
                       escape_table_cell(row.reference), escape_table_cell(row.candidate),
                       escape_table_cell(row.change), escape_table_cell(row.interval),
                       escape_table_cell(row.outcome));
  }
  std::string notes;
  if (!table.crossover.empty()) {
    notes += "- crossover: " + escape_markdown_inline(table.crossover) + "\n";
  }
  for (const auto& warning : table.warnings) {
    notes += "- warning: " + escape_markdown_inline(warning) + "\n";
  }
  for (const auto& change : table.env_changes) {
    notes += "- environment: " + escape_markdown_inline(change) + "\n";
  }
  return notes.empty() ? out : out + "\n" + notes;
}

std::string comparison_csv(const std::vector<nlohmann::json>& series)
{
  static const std::vector<std::string> k_columns = {
      "metric",      "params",      "key",        "unit",           "reference_median", "candidate_median",
      "n_reference", "n_candidate", "change_pct", "change_low_pct", "change_high_pct",  "ratio",
      "shift",       "p_value",     "outcome",    "basis",          "validity"};
  std::string out = util::csv_line(k_columns);
  for (const auto& json : series) {
    std::vector<std::string> row;
    for (const auto& column : k_columns) {
      row.push_back(field(json.at(column)));
    }
    out += util::csv_line(row);
  }
  return out;
}

} // namespace ej::render
