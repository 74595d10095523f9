#pragma once

#include "render/html_explorer.h"
#include "render/svg_chart.h"
#include "render/template_data.h"
#include "store/journal.h"
#include "store/verdict_cache.h"

#include <string>
#include <vector>

// What a plan document shows, as the data given to its Mustache template (fields in docs/documents.md).
namespace ej::evidence {

struct DocumentChart {
  std::string file; // relative to the document: "eagle-fast-verify.svg", "eagle-fast-verify-progress.svg"
  std::string svg;
};

struct DocumentData {
  render::TemplateData data;         // every user text already escaped for markdown
  render::ChartData chart;           // the headline measure per attempt, baseline and target
  std::vector<DocumentChart> charts; // every chart the document links, the headline measure's first
  render::ReportData report;         // for the HTML report, when asked for (Report::Collect)
  // Each attempt's verdict line with what it was judged from, for a writer to keep
  // (store::keep_verdicts) when asked for: the listings then need not judge them again.
  std::vector<store::CachedVerdict> verdict_lines;
};

enum class VerdictLines { Collect, Skip };
enum class Report { Collect, Skip };

// chart_file is the headline chart's name relative to the document ("eagle-fast-verify.svg"); the
// other charts are named after it.
DocumentData build_document_data(store::Journal& journal, const std::string& plan,
                                 const std::string& chart_file, VerdictLines lines = VerdictLines::Skip,
                                 Report report = Report::Skip);

} // namespace ej::evidence
