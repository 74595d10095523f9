#pragma once

#include "render/svg_chart.h"
#include "render/template_data.h"
#include "store/journal.h"
#include "store/verdict_cache.h"

#include <string>
#include <vector>

// What a plan document shows, as the data given to its Mustache template (fields in docs/documents.md).
namespace ej::evidence {

struct DocumentData {
  render::TemplateData data; // every user text already escaped for markdown
  render::ChartData chart;   // the primary metric per attempt, baseline and target
  // Each attempt's verdict line with what it was judged from, for a writer to keep
  // (store::keep_verdicts) when asked for: the listings then need not judge them again.
  std::vector<store::CachedVerdict> verdict_lines;
};

enum class VerdictLines { Collect, Skip };

// chart_file is the SVG's name relative to the document ("eagle-fast-verify.svg").
DocumentData build_document_data(store::Journal& journal, const std::string& plan,
                                 const std::string& chart_file, VerdictLines lines = VerdictLines::Skip);

} // namespace ej::evidence
