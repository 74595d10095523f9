#include "cli/compare_export.h"

#include "cli/verdict_output.h"
#include "evidence/wording.h"
#include "render/comparison_export.h"
#include "util/error.h"

namespace ej::cli {

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

std::string comparison_markdown(const evidence::Compared& compared)
{
  const auto& report = compared.report;
  render::ComparisonTable table{compared.reference.label,
                                compared.candidate.label,
                                compared.candidate.bench,
                                std::string(measure::to_string(compared.judged.outcome)),
                                {},
                                report.crossover,
                                report.warnings,
                                report.env_changes};
  for (const auto& s : report.series) {
    const auto& c = s.comparison;
    auto change = evidence::change_text(c, s.unit);
    if (const auto factor = evidence::factor_text(c, s.quantity); !factor.empty()) {
      change += " (" + factor + ")";
    }
    table.rows.push_back({s.label(), evidence::value_text(c.reference_median, s.unit),
                          evidence::value_text(c.candidate_median, s.unit), change,
                          evidence::interval_text(c, s.unit),
                          std::string(measure::to_string(c.outcome)) + ", " + evidence::basis_text(c)});
  }
  return render::comparison_markdown(table);
}

std::string comparison_csv(const evidence::Compared& compared)
{
  // Whether the figures can be believed is the comparison's, said on each of its rows.
  const auto validity = evidence::to_string(compared.judged.integrity.validity);
  std::vector<nlohmann::json> series;
  for (const auto& s : compared.report.series) {
    series.push_back(comparison_json(s));
    series.back()["validity"] = validity;
  }
  return render::comparison_csv(series);
}

} // namespace ej::cli
